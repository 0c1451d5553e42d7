/**
 * A hostile MCP server on loopback for the client's tests: it answers the 2026-07-28 discovery
 * and tools/list honestly, then answers each tools/call the way `mode` says: too large, too
 * deep, repeated keys, invalid UTF-8, an SSE flood, an event that never ends, a line that never
 * ends, a drip, silence, a body past the bound with no Content-Length, a body cut short, a redirect to the cloud metadata address, the wrong Content-Type. It
 * counts what it receives, so a test can show nothing else reached it.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Mode =
  | 'honest'
  | 'too-large'
  | 'too-large-chunked'
  | 'cut-short'
  | 'too-deep'
  | 'repeated-key'
  | 'invalid-utf8'
  | 'sse-flood'
  | 'endless-event'
  | 'endless-line'
  | 'drip'
  | 'silent'
  | 'redirect-metadata'
  | 'html'
  | 'wrong-shape';

export interface Hostile {
  readonly url: string;
  readonly port: number;
  mode: Mode;
  readonly received: { method: string; headers: IncomingMessage['headers'] }[];
  close(): Promise<void>;
}

const META = { 'io.modelcontextprotocol/serverInfo': { name: 'hostile', version: '1.0.0' } };

function json(res: ServerResponse, body: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function answer(mode: Mode, id: unknown, res: ServerResponse): void {
  const ok = {
    jsonrpc: '2.0',
    id,
    result: { resultType: 'complete', content: [{ type: 'text', text: 'ok' }], _meta: META },
  };
  switch (mode) {
    case 'honest':
      json(res, ok);
      return;
    case 'too-large': {
      const text = 'x'.repeat(
        1_048_577 -
          JSON.stringify({ ...ok, result: { ...ok.result, content: [{ type: 'text', text: '' }] } }).length,
      );
      const body = JSON.stringify({ ...ok, result: { ...ok.result, content: [{ type: 'text', text }] } });
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      return;
    }
    case 'too-large-chunked': {
      // No Content-Length, and no end: only the client's byte bound, crossed as the bytes
      // arrive, ends this answer (the bounded reader alone would wait for an end never sent).
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"`);
      const chunk = 'x'.repeat(65_536);
      const write = (): void => {
        while (!res.destroyed) if (!res.write(chunk)) return void res.once('drain', write);
      };
      write();
      return;
    }
    case 'cut-short':
      // Promises 400 bytes, sends 20 and drops the connection.
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '400' });
      res.write('{"jsonrpc":"2.0","id"');
      setTimeout(() => res.socket?.destroy(), 20);
      return;
    case 'too-deep':
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${'['.repeat(65)}${']'.repeat(65)}}`);
      return;
    case 'repeated-key':
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(
          `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"id":99,"result":{"resultType":"complete","content":[]}}`,
        );
      return;
    case 'invalid-utf8': {
      const head = Buffer.from(
        `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"resultType":"complete","content":[{"type":"text","text":"`,
      );
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(Buffer.concat([head, Buffer.from([0xc3, 0x28]), Buffer.from('"}]}}')]));
      return;
    }
    case 'sse-flood': {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const event = `data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } })}\n\n`;
      res.end(event.repeat(10_001));
      return;
    }
    case 'endless-event': {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const line = `data: ${'y'.repeat(60_000)}\n`;
      const write = (): void => {
        if (res.destroyed) return;
        if (res.write(line)) setImmediate(write);
        else res.once('drain', write);
      };
      write();
      return;
    }
    case 'endless-line': {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = 'z'.repeat(60_000);
      res.write('data: ');
      const write = (): void => {
        if (res.destroyed) return;
        if (res.write(chunk)) setImmediate(write);
        else res.once('drain', write);
      };
      write();
      return;
    }
    case 'drip': {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {');
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), 20);
      res.once('close', () => clearInterval(timer));
      return;
    }
    case 'silent':
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      return;
    case 'redirect-metadata':
      res
        .writeHead(307, { location: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/' })
        .end();
      return;
    case 'html':
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>');
      return;
    case 'wrong-shape':
      json(res, { jsonrpc: '2.0', id, result: { resultType: 'complete', content: 'not a list' } });
      return;
  }
}

export async function startHostile(): Promise<Hostile> {
  const received: Hostile['received'] = [];
  const state = { mode: 'honest' as Mode };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST') {
        res.writeHead(405).end();
        return;
      }
      const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: unknown; method: string };
      received.push({ method: message.method, headers: req.headers });
      if (message.method === 'server/discover') {
        json(res, {
          jsonrpc: '2.0',
          id: message.id,
          result: {
            resultType: 'complete',
            supportedVersions: ['2026-07-28'],
            capabilities: { tools: {} },
            ttlMs: 0,
            cacheScope: 'private',
            _meta: META,
          },
        });
        return;
      }
      if (message.method === 'tools/list') {
        json(res, {
          jsonrpc: '2.0',
          id: message.id,
          result: {
            resultType: 'complete',
            tools: [{ name: 'probe', inputSchema: { type: 'object' } }],
            ttlMs: 0,
            cacheScope: 'private',
          },
        });
        return;
      }
      answer(state.mode, message.id, res);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    get mode() {
      return state.mode;
    },
    set mode(mode: Mode) {
      state.mode = mode;
    },
    received,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
