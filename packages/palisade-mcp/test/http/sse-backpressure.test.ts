/**
 * A streamed (SSE) answer to a client that does not read it: `res.write` never blocks, so without a
 * bound the server would queue every event a handler emits. Real sockets throughout; the bounds
 * are pinned as literals (limits.ts: MAX_SSE_QUEUED_BYTES 1,114,112, SSE_DRAIN_TIMEOUT_MS 15,000).
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { once } from 'node:events';
import {
  connect as connectHttp2,
  createServer as createHttp2Server,
  constants as http2Constants,
} from 'node:http2';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createHttpHandler } from '../../src/http/node/handler.js';
import { createServer, defineTool, type Server } from '../../src/index.js';
import { closeAfterEach } from '../support/close-after-each.js';
import { ADMIT_ALL, exchange, modernRequest, mount, post } from '../support/http-peer.js';
import { floodCall, floodServer, silentClient } from '../support/sse-flood.js';

const closeLater = closeAfterEach();

const QUEUE_BOUND = 1_114_112;
const DRAIN_TIMEOUT_MS = 15_000;

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function listenRefusals(): unknown[] {
  const events: unknown[] = [];
  const listener = (message: unknown): void => {
    events.push(message);
  };
  subscribe('palisade:http-refusal', listener);
  cleanups.push(() => unsubscribe('palisade:http-refusal', listener));
  return events;
}

const MODERN = floodCall(1);
const LEGACY = {
  body: JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'flood', arguments: {}, _meta: { progressToken: 'p' } },
  }),
  headers: { 'MCP-Protocol-Version': '2025-11-25' },
};

/** Mounts `server` on HTTP/1.1 and hands back the server's side of the next connection. */
async function mountH1(server: Server): Promise<{ port: number; serverSocket: Promise<Socket> }> {
  const mounted = await closeLater(mount(createHttpHandler(server, ADMIT_ALL)));
  const serverSocket = once(mounted.server, 'connection').then(([socket]) => socket as Socket);
  return { port: mounted.port, serverSocket };
}

/**
 * A server whose `big` tool answers 16 MiB of text: more than loopback's buffers take, so Node
 * still holds some when `end` returns.
 */
function bigAnswerServer(): Server {
  const big = 'y'.repeat(16 * 1_048_576);
  return createServer({
    name: 'big',
    version: '1',
    tools: [
      defineTool({
        name: 'big',
        inputSchema: { type: 'object' },
        handler: () => ({ content: [{ type: 'text', text: big }] }),
      }),
    ],
  });
}

/**
 * Polls on real time (`node:timers/promises`, which fake timers leave alone); unlike
 * `vi.waitUntil`, it does not advance fake timers while it waits.
 */
async function until(predicate: () => boolean, timeoutMs = 2_500): Promise<void> {
  const start = performance.now();
  while (!predicate()) {
    if (performance.now() - start > timeoutMs) throw new Error('condition not reached');
    await sleep(5);
  }
}

/** A raw client that sends one request and reads nothing until told to; destroyed after the test. */
function quietClient(port: number, bytes: string): Socket {
  const socket = silentClient(port, bytes);
  cleanups.push(() => socket.destroy());
  return socket;
}

/** Reads everything left on `socket` until the server's close reaches it. */
async function drain(socket: Socket): Promise<string> {
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.resume();
  await once(socket, 'close');
  return Buffer.concat(chunks).toString('latin1');
}

describe('a client that stops reading a stream over HTTP/1.1', () => {
  test.each([
    ['2026-07-28', MODERN],
    ['2025-11-25', LEGACY],
  ])(
    'on %s, the queue bound closes the connection and aborts the handler',
    { tags: ['threat-model'] },
    async (_revision, call) => {
      const events = listenRefusals();
      let socket: Socket | undefined;
      // Paced past the progress rate limit (one per 10 ms once the burst is spent), so every
      // emit is written.
      const flood = floodServer({ queued: () => socket?.writableLength ?? 0, limit: 400 });
      const { port, serverSocket } = await mountH1(flood.server);
      const client = quietClient(port, post(call.body, call.headers));
      socket = await serverSocket;
      const closed = once(socket, 'close');

      const outcome = await flood.finished;
      await closed;
      // 400 x 64 KiB (25 MiB) were on offer; the handler was stopped long before.
      expect(outcome.aborted).toBe(true);
      expect(outcome.emitted).toBeLessThan(400);
      expect(flood.maxQueued()).toBeLessThanOrEqual(QUEUE_BOUND);
      expect(events).toEqual([{ rule: 'sse-queue-full', status: 200, code: 0 }]);

      // What reached the client is a cut stream: no result, no chunked terminator.
      const received = await drain(client);
      expect(received.startsWith('HTTP/1.1 200 OK\r\n')).toBe(true);
      expect(received).not.toContain('"result"');
      expect(received.endsWith('0\r\n\r\n')).toBe(false);
    },
  );

  test('a stall past the drain deadline closes the connection, though the queue is under its bound', {
    tags: ['threat-model'],
  }, async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const events = listenRefusals();
    let socket: Socket | undefined;
    // Stop emitting once the kernel's buffers are full: Node still holds a write's worth after a turn.
    const flood = floodServer({
      queued: () => socket?.writableLength ?? 0,
      limit: 400,
      enough: () => (socket?.writableLength ?? 0) > 16_384,
      pace: () => sleep(2),
    });
    const { port, serverSocket } = await mountH1(flood.server);
    quietClient(port, post(MODERN.body, MODERN.headers));
    socket = await serverSocket;
    const closed = once(socket, 'close');
    await until(() => (socket?.writableLength ?? 0) > 16_384);

    vi.advanceTimersByTime(DRAIN_TIMEOUT_MS - 1);
    expect(socket.destroyed).toBe(false);
    vi.advanceTimersByTime(1);
    await closed;
    expect((await flood.finished).aborted).toBe(true);
    expect(flood.maxQueued()).toBeLessThanOrEqual(QUEUE_BOUND);
    expect(events).toEqual([{ rule: 'sse-drain-timeout', status: 200, code: 0 }]);
  });

  test('a JSON answer the client never reads is cut at the drain deadline', {
    tags: ['threat-model'],
  }, async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const events = listenRefusals();
    const { port, serverSocket } = await mountH1(bigAnswerServer());
    const call = modernRequest(1, 'tools/call', { name: 'big', arguments: {} });
    quietClient(port, post(call.body, { ...call.headers, Accept: 'application/json' }));
    const socket = await serverSocket;
    const closed = once(socket, 'close');
    await until(() => socket.writableLength > 0);

    vi.advanceTimersByTime(DRAIN_TIMEOUT_MS - 1);
    expect(socket.destroyed).toBe(false);
    // The answer goes out in 64 KiB slices (respond.ts), and the kernel's own buffers take the
    // first of them: a window in which bytes were taken starts another. Once 15 s pass with none
    // taken it is cut, here within a few windows.
    for (let window = 0; window < 4 && !socket.destroyed; window++) {
      await sleep(50);
      vi.advanceTimersByTime(DRAIN_TIMEOUT_MS);
    }
    await closed;
    expect(events).toEqual([{ rule: 'json-drain-timeout', status: 200, code: 0 }]);
  });
});

describe('on a session (2025-11-25)', () => {
  test('a JSON answer on a session the client never reads is cut at the drain deadline, and told of as json-drain-timeout', {
    tags: ['threat-model'],
  }, async () => {
    const events = listenRefusals();
    const mounted = await closeLater(
      mount(createHttpHandler(bigAnswerServer(), { ...ADMIT_ALL, sessions: {} })),
    );
    const handshake = { 'MCP-Protocol-Version': '2025-11-25' };
    const opened = await exchange(
      mounted.port,
      post(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 't', version: '1' },
          },
        }),
      ),
    );
    opened.client.end();
    const session = { ...handshake, 'Mcp-Session-Id': opened.headers['mcp-session-id'] };
    const initialized = await exchange(
      mounted.port,
      post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), session),
    );
    initialized.client.end();
    expect(initialized.status).toBe(202);

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const serverSocket = once(mounted.server, 'connection').then(([socket]) => socket as Socket);
    const call = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'big', arguments: {} },
    });
    quietClient(mounted.port, post(call, { ...session, Accept: 'application/json' }));
    const socket = await serverSocket;
    const closed = once(socket, 'close');
    await until(() => socket.writableLength > 0);
    for (let window = 0; window < 4 && !socket.destroyed; window++) {
      await sleep(50);
      vi.advanceTimersByTime(DRAIN_TIMEOUT_MS);
    }
    await closed;
    expect(events).toEqual([{ rule: 'json-drain-timeout', status: 200, code: 0 }]);
  });
});

describe('behind a front that replaces write and end (as compression middleware does)', () => {
  test('a JSON answer the client never reads is still cut at the drain deadline', {
    tags: ['threat-model'],
  }, async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const events = listenRefusals();
    const handler = createHttpHandler(bigAnswerServer(), ADMIT_ALL);
    const mounted = await closeLater(
      mount((req, res) => {
        // The front keeps what it is handed and writes it on a later turn, so when the handler's
        // `end` returns nothing is queued on the response and it has not ended.
        const held: Array<string | Buffer> = [];
        const write = res.write.bind(res);
        const end = res.end.bind(res);
        res.write = ((chunk: string | Buffer) => {
          held.push(chunk);
          return true;
        }) as typeof res.write;
        res.end = ((chunk?: string | Buffer) => {
          if (chunk !== undefined) held.push(chunk);
          setImmediate(() => {
            for (const part of held) write(part);
            end();
          });
          return res;
        }) as typeof res.end;
        handler(req, res);
      }),
    );
    const serverSocket = once(mounted.server, 'connection').then(([socket]) => socket as Socket);
    const call = modernRequest(1, 'tools/call', { name: 'big', arguments: {} });
    quietClient(mounted.port, post(call.body, { ...call.headers, Accept: 'application/json' }));
    const socket = await serverSocket;
    const closed = once(socket, 'close');
    await until(() => socket.writableLength > 0);

    for (let window = 0; window < 5 && !socket.destroyed; window++) {
      await sleep(50);
      vi.advanceTimersByTime(DRAIN_TIMEOUT_MS);
    }
    await Promise.race([closed, sleep(1_000)]);
    expect(socket.destroyed).toBe(true);
    expect(events).toEqual([{ rule: 'json-drain-timeout', status: 200, code: 0 }]);
  });
});

describe('a client that reads slowly but steadily', () => {
  test('is served the whole stream, more bytes than the queue bound', {
    tags: ['threat-model'],
  }, async () => {
    const events = listenRefusals();
    let socket: Socket | undefined;
    // 64 events of 64 KiB (4 MiB), one every 11 ms or more (past the progress rate limit of one
    // per 10 ms); the client takes about 64 KiB every 5 ms.
    const flood = floodServer({ queued: () => socket?.writableLength ?? 0, limit: 64 });
    const { port, serverSocket } = await mountH1(flood.server);
    const client = quietClient(port, post(MODERN.body, MODERN.headers));
    socket = await serverSocket;
    const chunks: Buffer[] = [];
    let tail = '';
    const reader = setInterval(() => {
      let taken = 0;
      for (
        let chunk = client.read() as Buffer | null;
        chunk !== null;
        chunk = client.read() as Buffer | null
      ) {
        chunks.push(chunk);
        tail = (tail + chunk.subarray(-16).toString('latin1')).slice(-16);
        taken += chunk.length;
        if (taken >= 65_536) break;
      }
    }, 5);
    cleanups.push(() => clearInterval(reader));
    // The stream takes at least 64 x 11 ms; the bound is generous because a loaded machine (four
    // workers on two cores, or a slower Node) stretches it, and only a stall should fail here.
    // The check looks at the last bytes alone: concatenating 4 MiB every 5 ms was itself the load.
    await until(() => tail.endsWith('0\r\n\r\n'), 15_000);

    const text = Buffer.concat(chunks).toString('latin1');
    expect(text.split('"method":"notifications/progress"').length - 1).toBe(64);
    expect(text).toContain('"result":{"content":[{"type":"text","text":"done"}]');
    expect(await flood.finished).toEqual({ aborted: false, emitted: 64 });
    expect(events).toEqual([]);
  });
});

/**
 * Waits for the server to start writing, then reads like a slow but steady client through six
 * windows of the drain deadline (90 s, fake timers): in each it takes 2 MiB first (the kernel wakes
 * a writer only once a good part of its send buffer is free, not for every byte read). Resolves with
 * the first chunks read, where the head is.
 */
async function readSteadily(socket: Socket, client: Socket): Promise<Buffer[]> {
  while (socket.writableLength === 0) await sleep(5);
  const first: Buffer[] = [];
  for (let window = 0; window < 6; window++) {
    let taken = 0;
    while (taken < 2_097_152 && !socket.destroyed) {
      for (
        let chunk = client.read() as Buffer | null;
        chunk !== null;
        chunk = client.read() as Buffer | null
      ) {
        taken += chunk.length;
        if (first.length < 4) first.push(chunk);
      }
      await sleep(5);
    }
    vi.advanceTimersByTime(DRAIN_TIMEOUT_MS);
    await sleep(20);
  }
  return first;
}

describe('a client that reads one large JSON answer slowly but steadily', () => {
  // Written as one chunk, a JSON answer showed no progress until its last byte, and such a client
  // was cut with json-drain-timeout (found 2026-11-30 by a mutation-testing review).
  test('is not cut while it takes bytes in every drain window', {
    tags: ['threat-model'],
  }, async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    cleanups.push(() => vi.useRealTimers());
    const events = listenRefusals();
    const { port, serverSocket } = await mountH1(bigAnswerServer());
    const call = modernRequest(1, 'tools/call', { name: 'big', arguments: {} });
    const client = quietClient(port, post(call.body, { ...call.headers, Accept: 'application/json' }));
    const socket = await serverSocket;
    await readSteadily(socket, client);
    expect(events).toEqual([]);
    expect(socket.destroyed).toBe(false);
  });
});

describe('a client that reads a stream ending in one large result slowly but steadily', () => {
  // The result event of a stream was written as one chunk, as a JSON answer once was: such a
  // client showed no progress until its last byte and was cut with sse-drain-timeout.
  test('is not cut while it takes bytes in every drain window', {
    tags: ['threat-model'],
  }, async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    cleanups.push(() => vi.useRealTimers());
    const events = listenRefusals();
    const big = 'y'.repeat(16 * 1_048_576);
    const server = createServer({
      name: 'big',
      version: '1.0.0',
      tools: [
        defineTool({
          name: 'big',
          inputSchema: { type: 'object' },
          handler: (_args, ctx) => {
            // One notification first, so the answer is a stream and the result its last event.
            ctx.progress(1, undefined, 'started');
            return { content: [{ type: 'text', text: big }] };
          },
        }),
      ],
    });
    const { port, serverSocket } = await mountH1(server);
    const call = modernRequest(1, 'tools/call', {
      name: 'big',
      arguments: {},
      _meta: { progressToken: 'p' },
    });
    const client = quietClient(port, post(call.body, call.headers));
    const socket = await serverSocket;
    const chunks = await readSteadily(socket, client);
    expect(Buffer.concat(chunks).toString('latin1')).toContain('content-type: text/event-stream');
    expect(events).toEqual([]);
    expect(socket.destroyed).toBe(false);
  });
});

describe('a client that stops reading a stream over HTTP/2', () => {
  test('the queue bound resets the stream with CANCEL, and the session goes on', {
    tags: ['threat-model'],
  }, async () => {
    const events = listenRefusals();
    let serverResponse: { writableLength: number } | undefined;
    const flood = floodServer({ queued: () => serverResponse?.writableLength ?? 0, limit: 400 });
    const handler = createHttpHandler(flood.server, ADMIT_ALL);
    const h2 = createHttp2Server((req, res) => {
      serverResponse ??= res;
      handler(req, res);
    });
    h2.listen(0, '127.0.0.1');
    await once(h2, 'listening');
    const { port } = h2.address() as AddressInfo;
    const session = connectHttp2(`http://127.0.0.1:${port}`);
    session.on('error', () => {});
    cleanups.push(async () => {
      session.destroy();
      h2.close();
      await once(h2, 'close');
    });

    const headers = {
      ':method': 'POST',
      ':path': '/mcp',
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...MODERN.headers,
    };
    const stream = session.request(headers);
    stream.on('error', () => {});
    stream.pause();
    stream.end(MODERN.body);
    const closed = once(stream, 'close');

    const outcome = await flood.finished;
    await closed;
    expect(outcome.aborted).toBe(true);
    expect(outcome.emitted).toBeLessThan(400);
    expect(flood.maxQueued()).toBeLessThanOrEqual(QUEUE_BOUND);
    expect(stream.rstCode).toBe(http2Constants.NGHTTP2_CANCEL);
    expect(events).toEqual([{ rule: 'sse-queue-full', status: 200, code: 0 }]);

    // Another request on the same session is answered.
    const list = modernRequest(2, 'tools/list');
    const next = session.request({ ...headers, ...list.headers });
    next.setEncoding('utf8');
    let body = '';
    next.on('data', (chunk: string) => {
      body += chunk;
    });
    next.end(list.body);
    await once(next, 'end');
    expect(JSON.parse(body)).toMatchObject({ id: 2, result: { tools: [{ name: 'flood' }] } });
  });
});
