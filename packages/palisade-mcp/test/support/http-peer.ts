/**
 * HTTP test peers: the handler mounted in a real `node:http` server on 127.0.0.1 port 0, and a raw
 * TCP client that writes exact request bytes and reads exact response bytes, so framing (status
 * line, headers, `100 Continue`, connection close) is observed as a client sees it.
 */
import { once } from 'node:events';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server as NodeHttpServer,
  type RequestListener,
} from 'node:http';
import { connect, type Socket } from 'node:net';
import { createHttpHandler, type HttpHandlerOptions } from '../../src/http/node/handler.js';
import { createServer, defineTool, type Server } from '../../src/index.js';
import { catalogs } from '../fixtures/catalogs.js';
import { MODERN_META } from './stdio-peer.js';

export type Json = Record<string, unknown>;

export interface Mounted {
  readonly port: number;
  readonly server: NodeHttpServer;
  close(): Promise<void>;
}

export const ADMIT_ALL: HttpHandlerOptions = {
  authorize: () => ({ ok: true }),
  allowedOrigins: ['http://app.example'],
  allowedHosts: ['127.0.0.1', 'localhost', '::1'],
  onLog: () => {},
  onFault: () => {},
};

export function basicServer(): Server {
  const definition = catalogs['basic'];
  if (definition === undefined) throw new Error('no basic catalog');
  return createServer(definition());
}

export async function mount(
  listener: RequestListener,
  setup?: (server: NodeHttpServer) => void,
): Promise<Mounted> {
  const server = createHttpServer(listener);
  setup?.(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
    server,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

export function mountHandler(
  options: Partial<HttpHandlerOptions> = {},
  { checkContinue = false } = {},
): Promise<Mounted> {
  const handler = createHttpHandler(basicServer(), { ...ADMIT_ALL, ...options });
  return mount(handler, (server) => {
    if (checkContinue) server.on('checkContinue', handler.checkContinue);
  });
}

/** A 2026-07-28 request body with its matching headers. */
export function modernRequest(
  id: number,
  method: string,
  params: Json = {},
): { body: string; headers: Json } {
  const meta = { ...MODERN_META, ...((params['_meta'] as Json | undefined) ?? {}) };
  const message = { jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } };
  const headers: Json = { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': method };
  if (typeof params['name'] === 'string') headers['Mcp-Name'] = params['name'];
  return { body: JSON.stringify(message), headers };
}

/** The body of a refusal answered before any request id is known: no `id`, the code and message. */
export function refusalBody(code: number, message: string): unknown {
  return { jsonrpc: '2.0', error: { code, message } };
}

/** A 2026-07-28 `tools/list` with id 1: the request most HTTP tests send when any request will do. */
export const LIST = modernRequest(1, 'tools/list');

/** The raw bytes of a POST with Host 127.0.0.1, JSON Content-Type and Accept, and an exact Content-Length. */
export function post(body: string, headers: Record<string, unknown> = {}, method = 'POST'): string {
  const lines = [`${method} /mcp HTTP/1.1`];
  const base: Record<string, unknown> = {
    Host: '127.0.0.1',
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'Content-Length': Buffer.byteLength(body),
    ...headers,
  };
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${String(one)}`);
  }
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

export interface Parsed {
  readonly statusLine: string;
  readonly status: number;
  /** Header names lower-cased; repeated lines joined by `\n`. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** A raw TCP client. `text()` is every byte received so far, as latin1 so nothing is reinterpreted. */
export class RawClient {
  readonly socket: Socket;
  private received = Buffer.alloc(0);
  private consumed = 0;
  readonly closed: Promise<void>;
  private waiters: Array<() => void> = [];

  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.on('data', (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.socket.on('error', () => {});
    this.closed = new Promise((resolve) =>
      this.socket.once('close', () => {
        resolve();
        for (const wake of this.waiters.splice(0)) wake();
      }),
    );
  }

  send(bytes: string | Buffer): void {
    this.socket.write(typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes);
  }

  text(): string {
    return this.received.toString('latin1');
  }

  /** Waits until `predicate` holds on the received bytes or the socket closes. */
  async until(predicate: (text: string) => boolean): Promise<void> {
    while (!predicate(this.text()) && !this.socket.destroyed) {
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** The next final (non-1xx) response, framed by its Content-Length or by the connection closing. */
  async response(): Promise<Parsed> {
    for (;;) {
      const parsed = parseAt(this.received, this.consumed, this.socket.destroyed);
      if (parsed !== undefined) {
        this.consumed = parsed.end;
        if (parsed.response.status >= 200) return parsed.response;
        continue;
      }
      if (this.socket.destroyed) throw new Error(`connection closed mid-response: ${this.text()}`);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  end(): void {
    this.socket.destroy();
  }
}

function parseAt(
  bytes: Buffer,
  start: number,
  closed: boolean,
): { response: Parsed; end: number } | undefined {
  const headEnd = bytes.indexOf('\r\n\r\n', start);
  if (headEnd === -1) return undefined;
  const [statusLine = '', ...lines] = bytes.subarray(start, headEnd).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}\n${value}`;
  }
  const status = Number(statusLine.split(' ')[1]);
  const bodyStart = headEnd + 4;
  // 1xx, 204 and 304 never carry a body (RFC 9112 §6.3), whatever the headers say.
  if (status < 200 || status === 204 || status === 304)
    return { response: { statusLine, status, headers, body: '' }, end: bodyStart };
  const length = headers['content-length'];
  if (length !== undefined) {
    const end = bodyStart + Number(length);
    if (bytes.length < end) return undefined;
    return {
      response: { statusLine, status, headers, body: bytes.subarray(bodyStart, end).toString('utf8') },
      end,
    };
  }
  if (!closed) return undefined;
  return {
    response: { statusLine, status, headers, body: bytes.subarray(bodyStart).toString('utf8') },
    end: bytes.length,
  };
}

/** One request on a fresh connection; resolves with the response and whether the server then closed. */
export async function exchange(
  port: number,
  bytes: string | Buffer,
): Promise<Parsed & { client: RawClient }> {
  const client = new RawClient(port);
  client.send(bytes);
  const response = await client.response();
  return { ...response, client };
}

/** A request's Content-Length as the handler hands it to `readBody`: a number, or undefined when absent. */
export function declaredLength(req: IncomingMessage): number | undefined {
  const length = req.headers['content-length'];
  return length === undefined ? undefined : Number(length);
}

/** A server whose one tool, `record`, notes each run in `calls`: for tests that a tool never ran. */
export function recordingServer(): { server: Server; calls: string[] } {
  const calls: string[] = [];
  const server = createServer({
    name: 'record',
    version: '1',
    tools: [
      defineTool({
        name: 'record',
        inputSchema: { type: 'object' },
        handler: () => {
          calls.push('record');
          return { content: [{ type: 'text', text: 'ran' }] };
        },
      }),
    ],
  });
  return { server, calls };
}
