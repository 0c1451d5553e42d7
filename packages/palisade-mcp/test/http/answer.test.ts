/**
 * How one decoded body becomes its HTTP answer, as a client and a host see it over a real socket:
 * which headers a message is held to (a notification needs none; `Mcp-Param-*` belong to
 * `tools/call` alone), which revision a version header settles on, what is written once nobody
 * can receive it or once the host has sent its own head (nothing, and no fault), how much of a
 * refused body is read, and where a stream's bounds and drain deadline fall, to the byte, the
 * event and the second (fake timers).
 */
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { createServer as createHttp2Server } from 'node:http2';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createHttpHandler } from '../../src/http/node/handler.js';
import { createServer, definePrompt, defineTool, type Server } from '../../src/index.js';
import { closeAfterEach } from '../support/close-after-each.js';
import { deferred } from '../support/deferred.js';
import {
  dataFrame,
  FLAG,
  H2Peer,
  headersFrame,
  pingFrame,
  postFields,
  TYPE,
  windowUpdateFrame,
} from '../support/h2-frames.js';
import {
  ADMIT_ALL,
  basicServer,
  exchange,
  type Mounted,
  modernRequest,
  mount,
  mountHandler,
  post,
  RawClient,
} from '../support/http-peer.js';
import { rejectionsDuring } from '../support/rejections.js';
import { floodCall, floodServer, silentClient } from '../support/sse-flood.js';
import { MODERN_META } from '../support/stdio-peer.js';

const closeLater = closeAfterEach();

/**
 * `request` sent to `server` behind the node handler with JSON as the only Accept, its answer read
 * whole and the connection then ended.
 */
async function jsonAnswer(server: Server, request: { body: string; headers: Record<string, unknown> }) {
  const mounted = await closeLater(mount(createHttpHandler(server, ADMIT_ALL)));
  const reply = await exchange(
    mounted.port,
    post(request.body, { ...request.headers, Accept: 'application/json' }),
  );
  reply.client.end();
  return reply;
}

describe('which headers a message is held to', () => {
  test('a 2026-07-28 notification without any MCP header is accepted 202', async () => {
    const mounted = await closeLater(mountHandler());
    const body = JSON.stringify({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 1, _meta: MODERN_META },
    });
    const reply = await exchange(mounted.port, post(body));
    reply.client.end();
    expect(reply.status).toBe(202);
    expect(reply.headers['content-length']).toBe('0');
    expect(reply.body).toBe('');
  });

  test('a prompts/get named like a tool that declares Mcp-Param headers is not held to them', async () => {
    const server = createServer({
      name: 'shared-name',
      version: '1',
      tools: [
        defineTool<{ value: string }>({
          name: 'mirror',
          inputSchema: {
            type: 'object',
            properties: { value: { type: 'string', 'x-mcp-header': 'Value' } },
            required: ['value'],
          },
          handler: ({ value }) => ({ content: [{ type: 'text', text: value }] }),
        }),
      ],
      prompts: [
        definePrompt({
          name: 'mirror',
          arguments: [{ name: 'value', required: true }],
          get: (args) => ({
            messages: [{ role: 'user', content: { type: 'text', text: String(args['value']) } }],
          }),
        }),
      ],
    });
    const reply = await jsonAnswer(
      server,
      modernRequest(2, 'prompts/get', { name: 'mirror', arguments: { value: 'hi' } }),
    );
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({
      id: 2,
      result: { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] },
    });
  });

  test('a tools/call to a server with no tools is answered 404 method not found', async () => {
    const server = createServer({
      name: 'no-tools',
      version: '1',
      prompts: [{ name: 'greeting', get: () => ({ messages: [] }) }],
    });
    const reply = await jsonAnswer(server, modernRequest(3, 'tools/call', { name: 'anything' }));
    expect(reply.status).toBe(404);
    expect(JSON.parse(reply.body)).toMatchObject({ id: 3, error: { code: -32601 } });
  });
});

describe('the status of an answer', () => {
  test('a call lacking a client capability its tool requires is answered -32021 with 400', async () => {
    const server = createServer({
      name: 'sampling-tool',
      version: '1',
      tools: [
        defineTool({
          name: 'ask',
          inputSchema: { type: 'object' },
          requiredClientCapabilities: { sampling: {} },
          handler: () => ({ content: [] }),
        }),
      ],
    });
    const reply = await jsonAnswer(server, modernRequest(14, 'tools/call', { name: 'ask', arguments: {} }));
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toMatchObject({ id: 14, error: { code: -32021 } });
  });
});

describe('which revision a version header settles on', () => {
  test('a body without _meta under two version headers, the first 2026-07-28, is refused as a repeated header', async () => {
    const mounted = await closeLater(mountHandler());
    const reply = await exchange(
      mounted.port,
      post('{"jsonrpc":"2.0","id":4,"method":"ping"}', {
        Accept: 'application/json',
        'MCP-Protocol-Version': ['2026-07-28', '2025-11-25'],
      }),
    );
    reply.client.end();
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toEqual({
      jsonrpc: '2.0',
      id: 4,
      error: {
        code: -32020,
        message: 'Header mismatch: MCP-Protocol-Version is repeated; it must appear once',
      },
    });
  });
});

describe('a response nobody can receive', () => {
  interface Abandoning {
    readonly port: number;
    /** Resolves once the tool has been called. */
    readonly called: Promise<void>;
    /** Resolves once the tool has returned its result. */
    readonly returned: Promise<void>;
  }

  /**
   * A tool that waits for its signal, then returns a result the encoder refuses (a BigInt in its
   * `_meta`); with `huge`, it first logs one notification past the stream's queue bound.
   */
  async function mountAbandoning(faults: unknown[], logged: unknown[]): Promise<Abandoning> {
    const called = deferred();
    const returned = deferred();
    const server = createServer({
      name: 'abandoning',
      version: '1',
      tools: [
        defineTool<{ huge?: boolean }>({
          name: 'abandon',
          inputSchema: { type: 'object', properties: { huge: { type: 'boolean' } } },
          handler: async ({ huge }, ctx) => {
            called.resolve();
            if (huge === true) ctx.log('info', 'x'.repeat(1_200_000));
            if (!ctx.signal.aborted) await once(ctx.signal, 'abort');
            returned.resolve();
            return { content: [], _meta: { big: 10n } } as never;
          },
        }),
      ],
    });
    const mounted = await closeLater(
      mount(
        createHttpHandler(server, {
          ...ADMIT_ALL,
          onFault: (description, cause) => faults.push([description, cause]),
          onLog: (event) => logged.push(event),
        }),
      ),
    );
    return { port: mounted.port, called: called.promise, returned: returned.promise };
  }

  test('a stream cut at its queue bound is answered no further: the host hears of no result to serialize', async () => {
    const faults: unknown[] = [];
    const logged: unknown[] = [];
    const { port, returned } = await mountAbandoning(faults, logged);
    const call = modernRequest(5, 'tools/call', {
      name: 'abandon',
      arguments: { huge: true },
      _meta: { 'io.modelcontextprotocol/logLevel': 'info' },
    });
    const client = new RawClient(port);
    client.send(post(call.body, call.headers));
    await returned;
    await client.closed;
    // A few turns of the loop for the result to be (not) written.
    await sleep(50);
    expect(client.text()).toBe('');
    expect(logged).toEqual([{ kind: 'refusal', rule: 'sse-queue-full', status: 200 }]);
    expect(faults).toEqual([]);
  });

  test('on 2026-07-28, a client that closed before its answer is answered no further: the host hears of no result to serialize', async () => {
    const faults: unknown[] = [];
    const logged: unknown[] = [];
    const { port, called, returned } = await mountAbandoning(faults, logged);
    const call = modernRequest(6, 'tools/call', { name: 'abandon', arguments: {} });
    const client = new RawClient(port);
    client.send(post(call.body, { ...call.headers, Accept: 'application/json' }));
    await called;
    client.end();
    await returned;
    await sleep(50);
    expect(logged).toEqual([]);
    expect(faults).toEqual([]);
  });
});

describe('the signal of a request answered in full', () => {
  test('on 2026-07-28, a call whose answer was delivered has its signal left unaborted when the connection closes', async () => {
    let signal: AbortSignal | undefined;
    const server = createServer({
      name: 'keeps-signal',
      version: '1',
      tools: [
        defineTool({
          name: 'quick',
          inputSchema: { type: 'object' },
          handler: (_args, ctx) => {
            signal = ctx.signal;
            return { content: [{ type: 'text', text: 'ok' }] };
          },
        }),
      ],
    });
    const reply = await jsonAnswer(server, modernRequest(15, 'tools/call', { name: 'quick', arguments: {} }));
    expect(reply.status).toBe(200);
    await reply.client.closed;
    await sleep(50);
    expect(signal?.aborted).toBe(false);
  });
});

describe('what a refusal carries', () => {
  test('a 401 whose WWW-Authenticate is a number is answered without that header', async () => {
    const mounted = await closeLater(
      mountHandler({
        authorize: () => ({ ok: false, status: 401, headers: { 'www-authenticate': 42 } }) as never,
      }),
    );
    const list = modernRequest(7, 'tools/list');
    const reply = await exchange(mounted.port, post(list.body, list.headers));
    reply.client.end();
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toBeUndefined();
  });
});

describe('a response whose head the host has already sent', () => {
  /** Mounts the handler behind a host listener that sends its own head (200, text/plain) first. */
  async function mountAfterHead(faults: unknown[]): Promise<number> {
    const handler = createHttpHandler(basicServer(), {
      ...ADMIT_ALL,
      onFault: (description, cause) => faults.push([description, cause]),
    });
    const mounted = await closeLater(
      mount((req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('host\n');
        handler(req, res);
      }),
    );
    return mounted.port;
  }

  test('is left to the host by a refusal: nothing is written and no fault is reported', async () => {
    const faults: unknown[] = [];
    const port = await mountAfterHead(faults);
    const list = modernRequest(8, 'tools/list');
    const client = new RawClient(port);
    client.send(post(list.body, { ...list.headers, Origin: 'http://evil.example' }));
    await client.until((text) => text.includes('host\n'));
    await sleep(50);
    client.end();
    expect(faults).toEqual([]);
    expect(client.text()).not.toContain('-32');
  });

  test('is left to the host by an accepted notification: nothing is written and nothing rejects', async () => {
    const faults: unknown[] = [];
    let client: RawClient | undefined;
    const rejected = await rejectionsDuring(async () => {
      const port = await mountAfterHead(faults);
      const body = JSON.stringify({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 1, _meta: MODERN_META },
      });
      client = new RawClient(port);
      client.send(post(body));
      await client.until((text) => text.includes('host\n'));
      await sleep(50);
      client.end();
    });
    expect(rejected).toEqual([]);
    expect(faults).toEqual([]);
    expect(client?.text()).not.toContain('HTTP/1.1 202');
  });
});

describe('what is read of a body refused before it is read', () => {
  /** The bytes the server's side of the next connection read, once it closed. */
  function bytesReadAtClose(target: Mounted): Promise<number> {
    return new Promise((resolve) => {
      target.server.once('connection', (socket: Socket) =>
        socket.once('close', () => resolve(socket.bytesRead)),
      );
    });
  }

  test('an HTTP/1.1 request refused 403 whose body came with its head has no more read than the first read took', async () => {
    const mounted = await closeLater(mountHandler());
    const read = bytesReadAtClose(mounted);
    const list = modernRequest(9, 'tools/list');
    const head = post('', { ...list.headers, Origin: 'http://evil.example', 'Content-Length': 4_000_000 });
    const client = new RawClient(mounted.port);
    client.send(Buffer.concat([Buffer.from(head, 'latin1'), Buffer.alloc(4_000_000, 0x61)]));
    const reply = await client.response();
    expect(reply.status).toBe(403);
    expect(reply.headers['connection']).toBe('close');
    // One read of the socket (64 KiB) took the head and the start of the body; nothing after it.
    expect(await read).toBeLessThanOrEqual(65_536);
  });

  test('a preflight declaring a body that came with its head has no more read than the first read took', async () => {
    const mounted = await closeLater(mount(createHttpHandler(basicServer(), { ...ADMIT_ALL, cors: {} })));
    const read = bytesReadAtClose(mounted);
    const head = [
      'OPTIONS /mcp HTTP/1.1',
      'Host: 127.0.0.1',
      'Origin: http://app.example',
      'Access-Control-Request-Method: POST',
      'Content-Length: 4000000',
      '',
      '',
    ].join('\r\n');
    const client = new RawClient(mounted.port);
    client.send(Buffer.concat([Buffer.from(head, 'latin1'), Buffer.alloc(4_000_000, 0x61)]));
    const reply = await client.response();
    expect(reply.status).toBe(204);
    expect(reply.headers['connection']).toBe('close');
    expect(await read).toBeLessThanOrEqual(65_536);
  });
});

describe('the drain deadline of an answer a client reads late', () => {
  /** SSE_DRAIN_TIMEOUT_MS (limits.ts). */
  const DRAIN_TIMEOUT_MS = 15_000;

  afterEach(() => {
    vi.useRealTimers();
  });

  /** Polls on real time (`node:timers/promises`, which fake timers leave alone). */
  async function until(predicate: () => boolean, timeoutMs = 5_000): Promise<void> {
    const start = performance.now();
    while (!predicate()) {
      if (performance.now() - start > timeoutMs) throw new Error('condition not reached');
      await sleep(5);
    }
  }

  /** Mounts `server`, logging to `logged`; resolves the server's side of the next connection. */
  async function mountLogged(
    server: Server,
    logged: unknown[],
  ): Promise<{ port: number; serverSocket: Promise<Socket> }> {
    const mounted = await closeLater(
      mount(createHttpHandler(server, { ...ADMIT_ALL, onLog: (event) => logged.push(event) })),
    );
    return {
      port: mounted.port,
      serverSocket: once(mounted.server, 'connection').then(([socket]) => socket as Socket),
    };
  }

  test('a stream stalled before its result has the deadline counted again from the result', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const logged: unknown[] = [];
    const go = deferred();
    let socket: Socket | undefined;
    const { port, serverSocket } = await mountLogged(
      floodServer({ enough: () => (socket?.writableLength ?? 0) > 16_384, go: go.promise }).server,
      logged,
    );
    const call = floodCall(12);
    silentClient(port, post(call.body, call.headers));
    socket = await serverSocket;
    const closed = once(socket, 'close');
    // A write returned false: the deadline runs from here (0 s on the fake clock).
    await until(() => (socket?.writableLength ?? 0) > 16_384, 15_000);
    const queued = socket.writableLength;

    vi.advanceTimersByTime(10_000);
    go.resolve();
    await until(() => (socket?.writableLength ?? 0) > queued);
    // 15 s after the first wait, 5 s after the result was queued: not yet.
    vi.advanceTimersByTime(DRAIN_TIMEOUT_MS - 10_000);
    expect(socket.destroyed).toBe(false);
    expect(logged).toEqual([]);
    // 15 s after the result: cut.
    vi.advanceTimersByTime(10_000);
    await closed;
    expect(logged).toEqual([{ kind: 'refusal', rule: 'sse-drain-timeout', status: 200 }]);
  });
});

describe('the drain deadline over HTTP/2', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  test('a stream whose client took one whole event within the deadline, others still waiting, is not cut at it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const logged: unknown[] = [];
    let response: { writableLength: number } | undefined;
    // `event: message\n` and `data: ` (21), the message's JSON (86 + the data), a blank line (2).
    const EVENT_BYTES = 21 + 86 + 6_000 + 2;
    const server = createServer({
      name: 'h2-flood',
      version: '1',
      tools: [
        defineTool({
          name: 'flood',
          inputSchema: { type: 'object' },
          handler: async (_args, ctx) => {
            // Until a write returns false (16 KiB queued past the client's 65,535-byte window):
            // the deadline is set with the whole queue in it, and nothing is added after.
            while ((response?.writableLength ?? 0) < 16_384 && !ctx.signal.aborted) {
              ctx.log('info', 'x'.repeat(6_000));
              await sleep(5);
            }
            if (!ctx.signal.aborted) await once(ctx.signal, 'abort');
            return { content: [] };
          },
        }),
      ],
    });
    const handler = createHttpHandler(server, { ...ADMIT_ALL, onLog: (event) => logged.push(event) });
    const h2 = createHttp2Server((req, res) => {
      response ??= res;
      handler(req, res);
    });
    h2.listen(0, '127.0.0.1');
    await once(h2, 'listening');
    const client = new H2Peer((h2.address() as AddressInfo).port);
    try {
      await client.ready();
      const call = modernRequest(17, 'tools/call', {
        name: 'flood',
        arguments: {},
        _meta: { 'io.modelcontextprotocol/logLevel': 'info' },
      });
      const fields = Object.entries(call.headers).map(([name, value]): [string, string] => [
        name.toLowerCase(),
        String(value),
      ]);
      client.send(headersFrame(1, postFields(fields)));
      client.send(dataFrame(1, Buffer.from(call.body), { endStream: true }));
      while ((response?.writableLength ?? 0) < 16_384) await sleep(5);
      await sleep(50);
      const queued = response?.writableLength ?? 0;

      // One event's bytes: the oldest queued event is sent in full, the others still wait.
      client.send(windowUpdateFrame(0, EVENT_BYTES));
      client.send(windowUpdateFrame(1, EVENT_BYTES));
      while ((response?.writableLength ?? 0) >= queued) await sleep(5);
      expect(response?.writableLength).toBeGreaterThan(0);

      vi.advanceTimersByTime(15_000);
      client.send(pingFrame());
      await client.waitFor((f) => f.type === TYPE.PING && (f.flags & FLAG.ACK) !== 0);
      expect(client.rstCode(1)).toBeUndefined();
      expect(logged).toEqual([]);
    } finally {
      client.end();
      h2.close();
    }
  });
});

describe('the listeners a stream leaves on the host’s response', () => {
  test('a stream that waits for drain, then for finish, holds one drain listener, not one per wait', async () => {
    const go = deferred();
    let socket: Socket | undefined;
    let response: ServerResponse | undefined;
    const server = createServer({
      name: 'two-waits',
      version: '1',
      tools: [
        defineTool({
          name: 'flood',
          inputSchema: { type: 'object' },
          handler: async (_args, ctx) => {
            for (let step = 1; (socket?.writableLength ?? 0) <= 16_384; step += 1) {
              ctx.progress(step, undefined, 'x'.repeat(65_536));
              await sleep(11);
            }
            await go.promise;
            return { content: [{ type: 'text', text: 'done' }] };
          },
        }),
      ],
    });
    const handler = createHttpHandler(server, ADMIT_ALL);
    const mounted = await closeLater(
      mount((req, res) => {
        response = res;
        handler(req, res);
      }),
    );
    const serverSocket = once(mounted.server, 'connection');
    const call = modernRequest(16, 'tools/call', {
      name: 'flood',
      arguments: {},
      _meta: { progressToken: 'p' },
    });
    const client = connect(mounted.port, '127.0.0.1');
    client.on('error', () => {});
    client.write(post(call.body, call.headers));
    socket = (await serverSocket)[0] as Socket;
    // The client reads nothing: a write returned false (a wait for drain), then the result is
    // ended with bytes still queued (a wait for finish).
    while ((socket.writableLength ?? 0) <= 16_384) await sleep(5);
    const queued = socket.writableLength;
    go.resolve();
    while (socket.writableLength <= queued) await sleep(5);
    expect(response?.listenerCount('drain')).toBe(1);
    client.destroy();
  });
});

describe('the bounds of a stream', () => {
  /**
   * A tool that logs `count` messages of `size` characters, then returns; with `paced`, it yields
   * a turn of the loop after each (Node writes a turn's writes together, on the next tick).
   */
  function loggingServer(count: number, size: number, paced = false): Server {
    return createServer({
      name: 'logging',
      version: '1',
      tools: [
        defineTool({
          name: 'log',
          inputSchema: { type: 'object' },
          handler: async (_args, ctx) => {
            for (let index = 0; index < count; index += 1) {
              ctx.log('info', 'x'.repeat(size));
              if (paced) await new Promise((resolve) => setImmediate(resolve));
            }
            await Promise.resolve();
            return { content: [{ type: 'text', text: ctx.signal.aborted ? 'cut' : 'done' }] };
          },
        }),
      ],
    });
  }

  const LOG_CALL = modernRequest(13, 'tools/call', {
    name: 'log',
    arguments: {},
    _meta: { 'io.modelcontextprotocol/logLevel': 'info' },
  });

  async function streamOf(server: Server, logged: unknown[]): Promise<string> {
    const mounted = await closeLater(
      mount(createHttpHandler(server, { ...ADMIT_ALL, onLog: (event) => logged.push(event) })),
    );
    const client = new RawClient(mounted.port);
    client.send(post(LOG_CALL.body, LOG_CALL.headers));
    await client.until((text) => text.endsWith('0\r\n\r\n'));
    client.end();
    return client.text();
  }

  test('a stream that ended leaves no keep-alive interval running', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const logged: unknown[] = [];
      const text = await streamOf(loggingServer(1, 10), logged);
      expect(text).toContain('"text":"done"');
      // The stream's one interval (a `: keep-alive` comment every 15 s) was set, and cleared.
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  test('a first notification of exactly 1,114,112 bytes as an event is written whole', async () => {
    const logged: unknown[] = [];
    // `event: message\ndata: ` (21), the message's JSON (86 + the data) and the blank line (2).
    const text = await streamOf(loggingServer(1, 1_114_003), logged);
    expect(text).toContain(`"data":"${'x'.repeat(1_114_003)}"}}`);
    expect(text).toContain('"text":"done"');
    expect(logged).toEqual([]);
  });

  test('a client that takes each notification as it comes is sent more than 1,024 of them', async () => {
    const logged: unknown[] = [];
    const text = await streamOf(loggingServer(1_100, 10, true), logged);
    expect(text.split('"method":"notifications/message"').length - 1).toBe(1_100);
    expect(text).toContain('"text":"done"');
    expect(logged).toEqual([]);
  });

  test('1,025 notifications written in one turn, 1,024 of them while earlier bytes wait, are all sent', async () => {
    const logged: unknown[] = [];
    const text = await streamOf(loggingServer(1_025, 10), logged);
    expect(text.split('"method":"notifications/message"').length - 1).toBe(1_025);
    expect(text).toContain('"text":"done"');
    expect(logged).toEqual([]);
  });

  test('1,026 notifications written in one turn cut the stream at the 1,026th', async () => {
    const logged: unknown[] = [];
    const mounted = await closeLater(
      mount(
        createHttpHandler(loggingServer(1_026, 10), { ...ADMIT_ALL, onLog: (event) => logged.push(event) }),
      ),
    );
    const client = new RawClient(mounted.port);
    client.send(post(LOG_CALL.body, LOG_CALL.headers));
    await client.closed;
    // Cut within the turn that wrote them: nothing of the stream, and no result, went out.
    expect(client.text()).not.toContain('"result"');
    expect(logged).toEqual([{ kind: 'refusal', rule: 'sse-events-queued', status: 200 }]);
  });
});
