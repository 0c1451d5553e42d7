import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { describe, expect, test } from 'vitest';
import { createHttpHandler } from '../../../src/http/node/handler.js';
import { createServer, defineTool } from '../../../src/index.js';
import { closeAfterEach } from '../../support/close-after-each.js';
import { abortOf, deferred } from '../../support/deferred.js';
import {
  ADMIT_ALL,
  type Json,
  modernRequest,
  mount,
  mountHandler,
  post,
  RawClient,
} from '../../support/http-peer.js';

const closeLater = closeAfterEach();

function postWithNode(
  port: number,
  body: string,
  headers: Record<string, unknown>,
): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/mcp',
        headers: { 'content-type': 'application/json', ...(headers as Record<string, string>) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const PROGRESS = modernRequest(1, 'tools/call', {
  name: 'progress',
  arguments: {},
  _meta: { progressToken: 'p', 'io.modelcontextprotocol/logLevel': 'debug' },
});
const PROGRESS_BODY = PROGRESS.body;

describe('responses that stream', () => {
  test('a request that emits notifications to a client accepting text/event-stream is answered as SSE', async () => {
    const mounted = await closeLater(mountHandler());
    const reply = await postWithNode(mounted.port, PROGRESS_BODY, {
      ...PROGRESS.headers,
      accept: 'application/json, text/event-stream',
    });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('text/event-stream');
    expect(reply.headers['cache-control']).toBe('no-cache');
    expect(reply.headers['x-accel-buffering']).toBe('no');
    const events = reply.text.split('\n\n').filter((event) => event !== '');
    for (const event of events) expect(event.startsWith('event: message\ndata: ')).toBe(true);
    const messages = events.map((event) => JSON.parse(event.slice('event: message\ndata: '.length)) as Json);
    expect(messages.map((message) => message['method'] ?? `response ${String(message['id'])}`)).toEqual([
      'notifications/progress',
      'notifications/progress',
      'notifications/message',
      'notifications/message',
      'response 1',
    ]);
  });

  test('the same request from a client accepting only JSON is answered as one JSON response', async () => {
    const mounted = await closeLater(mountHandler());
    const reply = await postWithNode(mounted.port, PROGRESS_BODY, {
      ...PROGRESS.headers,
      accept: 'application/json',
    });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(JSON.parse(reply.text)).toMatchObject({
      id: 1,
      result: { content: [{ type: 'text', text: 'done' }] },
    });
  });

  test('a request that emits nothing is answered as JSON even when the client accepts a stream', async () => {
    const mounted = await closeLater(mountHandler());
    const call = modernRequest(2, 'tools/list');
    const reply = await postWithNode(mounted.port, call.body, {
      ...call.headers,
      accept: 'application/json, text/event-stream',
    });
    expect(reply.headers['content-type']).toBe('application/json');
  });
});

describe('a client that goes away', () => {
  function holdingServer() {
    const finished = deferred<boolean>();
    const released = deferred();
    const started = deferred();
    const server = createServer({
      name: 'hold',
      version: '1',
      tools: [
        defineTool({
          name: 'hold',
          inputSchema: { type: 'object' },
          handler: async (_args, ctx) => {
            started.resolve();
            await Promise.race([released.promise, abortOf(ctx.signal)]);
            finished.resolve(ctx.signal.aborted);
            return { content: [] };
          },
        }),
      ],
    });
    return {
      server,
      finished: finished.promise,
      release: () => released.resolve(),
      started: started.promise,
    };
  }

  async function sendAndDrop(
    port: number,
    body: string,
    headers: Record<string, unknown>,
    started: Promise<void>,
  ) {
    const client = new RawClient(port);
    client.send(post(body, headers));
    await started;
    client.end();
  }

  test('on 2026-07-28, closing the response aborts the handler’s signal and is no host fault', {
    tags: ['threat-model'],
  }, async () => {
    const held = holdingServer();
    const faults: string[] = [];
    const mounted = await closeLater(
      mount(createHttpHandler(held.server, { ...ADMIT_ALL, onFault: (d) => faults.push(d) })),
    );
    const call = modernRequest(1, 'tools/call', { name: 'hold', arguments: {} });
    const closed = new Promise<void>((resolve) =>
      mounted?.server.once('connection', (s) => s.once('close', resolve)),
    );
    await sendAndDrop(mounted.port, call.body, call.headers, held.started);
    await closed;
    // Never released: only the signal can end the tool.
    expect(await held.finished).toBe(true);
    expect(faults).toEqual([]);
  });

  test('on 2025-11-25, a disconnect is not a cancel', { tags: ['threat-model'] }, async () => {
    const held = holdingServer();
    const mounted = await closeLater(mount(createHttpHandler(held.server, ADMIT_ALL)));
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'hold', arguments: {} },
    });
    const closed = new Promise<void>((resolve) =>
      mounted?.server.once('connection', (s) => s.once('close', resolve)),
    );
    await sendAndDrop(mounted.port, body, { 'MCP-Protocol-Version': '2025-11-25' }, held.started);
    await closed;
    // Let every close listener (the response's included) run before releasing the tool.
    await new Promise<void>((resolve) => setImmediate(resolve));
    held.release();
    expect(await held.finished).toBe(false);
  });
});
