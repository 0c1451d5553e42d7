/**
 * The stdio transport run in this process over real unix-socket pipes (test/support/
 * stdio-sockets.ts), byte for byte. The spawned tests in stdio.test.ts hold the same rules across
 * a process boundary; these hold the transport's own decisions where mutation testing can see
 * them: framing of each answer, in-flight ids, cancels, change notifications, faults, backpressure
 * and shutdown.
 */
import type { Socket } from 'node:net';
import { PassThrough, Writable } from 'node:stream';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createServer, defineTool, type Server } from '../../src/index.js';
import { MAX_SSE_QUEUED_BYTES } from '../../src/limits.js';
import { STDIO_SHUTDOWN_GRACE_MS, serveStdio } from '../../src/transports/stdio.js';
import { catalogs } from '../fixtures/catalogs.js';
import { basicServer } from '../support/http-peer.js';
import { rejectionsDuring } from '../support/rejections.js';
import { INITIALIZE, modern } from '../support/stdio-peer.js';
import { connectedPair, runOverSockets, type SocketPeer } from '../support/stdio-sockets.js';

const peers: SocketPeer[] = [];
afterEach(() => {
  for (const peer of peers.splice(0)) peer.destroy();
  vi.restoreAllMocks();
});

async function start(
  server: Server,
  onFault: (d: string, c: unknown) => void = () => {},
): Promise<SocketPeer> {
  const peer = await runOverSockets(server, { onFault });
  peers.push(peer);
  return peer;
}

function basic(): Server {
  return createServer(catalogs['basic']!());
}

/** A tool whose handler the test controls: it reports its signal and settles when told. */
function gated() {
  const calls: Array<{ signal: AbortSignal; finish: (text: string) => void }> = [];
  const server = createServer({
    name: 'gated',
    version: '1',
    tools: [
      defineTool({
        name: 'gate',
        inputSchema: { type: 'object' },
        handler: (_args, ctx) =>
          new Promise((resolve) => {
            calls.push({
              signal: ctx.signal,
              finish: (text) => resolve({ content: [{ type: 'text', text }] }),
            });
          }),
      }),
      defineTool({
        name: 'loud',
        inputSchema: { type: 'object' },
        handler: (_args, ctx) => {
          ctx.log('info', { big: 10n } as never);
          return { content: [{ type: 'text', text: 'logged' }] };
        },
      }),
      defineTool({
        name: 'meta_bigint',
        inputSchema: { type: 'object' },
        // _meta is the host's to fill and goes out as it is: only the encoder finds the BigInt.
        handler: () => ({ content: [], _meta: { big: 10n } }) as never,
      }),
    ],
  });
  return { server, calls };
}

/** A 2025-11-25 server that announces changes, for the connection-is-the-session rules. */
const FLOOD = 60_000;

function announcing(): Server {
  const server: Server = createServer({
    name: 'announcing',
    version: '1',
    tools: [
      defineTool({
        name: 'flood',
        inputSchema: { type: 'object' },
        // Announces FLOOD changes, then answers at once: the answer is written while they are queued.
        handler: () => {
          for (let sent = 0; sent < FLOOD; sent += 1) server.notifyListChanged('tools');
          return { content: [{ type: 'text', text: 'flooded' }] };
        },
      }),
    ],
    resources: [{ uri: 'test://watched', name: 'w', read: () => [{ uri: 'test://watched', text: 'w' }] }],
    notifications: { toolsListChanged: true, promptsListChanged: true, resourceSubscriptions: true },
  });
  return server;
}

const PING = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"ping"}\n`;

async function initialize(peer: SocketPeer): Promise<void> {
  peer.sendJson(INITIALIZE);
  expect((await peer.nextMessage())['id']).toBe(0);
  peer.sendJson({ jsonrpc: '2.0', method: 'notifications/initialized' });
  // Once this is answered the transport has read the line before it: the client is initialized.
  peer.send(PING(1_000));
  expect((await peer.nextMessage())['id']).toBe(1_000);
}

describe('stdio framing of answers', () => {
  test('a line request is answered by one JSON line ending in a single newline', async () => {
    const peer = await start(basic());
    peer.sendJson(modern(1, 'tools/call', { name: 'echo', arguments: { text: 'é' } }));
    const line = await peer.nextLine();
    expect(line.endsWith('}\n')).toBe(true);
    expect(line.slice(0, -1)).not.toContain('\n');
    expect(JSON.parse(line)).toMatchObject({ id: 1, result: { content: [{ type: 'text', text: 'é' }] } });
  });

  test('a Content-Length request is answered in a Content-Length frame that counts UTF-8 bytes', async () => {
    const peer = await start(basic());
    const body = JSON.stringify(modern(2, 'tools/call', { name: 'echo', arguments: { text: 'ééé' } }));
    peer.send(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    const header = await peer.nextLine();
    expect(header).toMatch(/^Content-Length: \d+\r\n$/);
    expect(await peer.take(2)).toBe('\r\n');
    const declared = Number(header.slice('Content-Length: '.length, -2));
    const answer = await peer.take(declared);
    expect(Buffer.byteLength(answer)).toBe(declared);
    expect(answer.length).toBeLessThan(declared);
    expect(JSON.parse(answer)).toMatchObject({ id: 2, result: { content: [{ text: 'ééé' }] } });
  });

  test('a line the framer refuses is answered with its refusal and the next line is answered', async () => {
    const peer = await start(basic());
    peer.send(`${'x'.repeat(1_048_577)}\n${PING(3)}`);
    expect(await peer.nextLine()).toBe(
      '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request: line exceeds 1048576 bytes"}}\n',
    );
    expect(JSON.parse(await peer.nextLine())).toMatchObject({ id: 3, result: {} });
  });

  test('a line that is not JSON is answered with -32700 and no id, and the next line is answered', async () => {
    const peer = await start(basic());
    peer.send(`{"jsonrpc":\n${PING(4)}`);
    expect(await peer.nextLine()).toBe(
      '{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error: message is not valid JSON"}}\n',
    );
    expect(JSON.parse(await peer.nextLine())).toMatchObject({ id: 4 });
  });

  test('a final line without a newline is answered when input ends', async () => {
    const peer = await start(basic());
    peer.stdin.end(PING(5).trimEnd());
    expect(JSON.parse(await peer.nextLine())).toMatchObject({ id: 5, result: {} });
    await peer.handle.closed;
  });

  test('an input stream that yields strings is read as its UTF-8 bytes', async () => {
    const peer = await start(basic());
    peer.input.setEncoding('utf8');
    peer.sendJson(modern(6, 'tools/call', { name: 'echo', arguments: { text: 'ü€' } }));
    expect(await peer.nextMessage()).toMatchObject({ id: 6, result: { content: [{ text: 'ü€' }] } });
  });
});

describe('stdio requests in flight', () => {
  test('a second request under an id still in flight is refused without an id', async () => {
    const { server, calls } = gated();
    const peer = await start(server);
    const call = `${JSON.stringify(modern(7, 'tools/call', { name: 'gate' }))}\n`;
    peer.send(call + call);
    expect(await peer.nextLine()).toBe(
      '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request: id is already used by a request in flight"}}\n',
    );
    expect(calls).toHaveLength(1);
  });

  test('with a logger, a second request under an id in flight is logged as refusal id-in-flight with -32600', async () => {
    const { server, calls } = gated();
    const records: unknown[] = [];
    const peer = await runOverSockets(server, {
      logger: { warn: (record) => records.push(record), error: () => {} },
    });
    peers.push(peer);
    const call = `${JSON.stringify(modern(43, 'tools/call', { name: 'gate' }))}\n`;
    peer.send(call + call);
    await peer.nextLine();
    expect(calls).toHaveLength(1);
    expect(records).toEqual([
      { event: 'palisade.refusal', transport: 'stdio', rule: 'id-in-flight', code: -32600 },
    ]);
  });

  test('an id may be used again once its request was answered', async () => {
    const { server, calls } = gated();
    const peer = await start(server);
    peer.sendJson(modern(8, 'tools/call', { name: 'gate' }));
    await expect.poll(() => calls.length).toBe(1);
    calls[0]!.finish('first');
    expect(await peer.nextMessage()).toMatchObject({ id: 8, result: { content: [{ text: 'first' }] } });
    peer.sendJson(modern(8, 'tools/call', { name: 'gate' }));
    await expect.poll(() => calls.length).toBe(2);
    calls[1]!.finish('second');
    expect(await peer.nextMessage()).toMatchObject({ id: 8, result: { content: [{ text: 'second' }] } });
  });

  test('a message without a method is not counted as a request in flight under its id', async () => {
    const { server, calls } = gated();
    const peer = await start(server);
    peer.sendJson({ jsonrpc: '2.0', id: 9 });
    peer.sendJson(modern(9, 'tools/call', { name: 'gate' }));
    await expect.poll(() => calls.length).toBe(1);
    calls[0]!.finish('answered');
    // Whatever the method-less message earns, the request under its id is answered, not refused.
    const answers = [await peer.nextMessage(), await peer.nextMessage()];
    expect(answers).toContainEqual(expect.objectContaining({ id: 9, result: expect.anything() }));
    expect(JSON.stringify(answers)).not.toContain('already used');
  });

  test('a client response carrying the id of a request in flight is not refused as a duplicate', async () => {
    const { server, calls } = gated();
    const peer = await start(server);
    peer.sendJson(modern(10, 'tools/call', { name: 'gate' }));
    await expect.poll(() => calls.length).toBe(1);
    peer.sendJson({ jsonrpc: '2.0', id: 10, result: {} });
    peer.send(PING(11));
    expect(await peer.nextLine()).toBe(
      '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request: a JSON-RPC response is not accepted from the client"}}\n',
    );
    expect(await peer.nextMessage()).toMatchObject({ id: 11, result: {} });
  });

  test('a cancel aborts the handler and its response is never sent', async () => {
    const { server, calls } = gated();
    const peer = await start(server);
    peer.sendJson(modern(12, 'tools/call', { name: 'gate' }));
    await expect.poll(() => calls.length).toBe(1);
    peer.sendJson({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 12 } });
    await expect.poll(() => calls[0]!.signal.aborted).toBe(true);
    calls[0]!.finish('too late');
    peer.send(PING(13));
    expect(await peer.nextMessage()).toMatchObject({ id: 13 });
    expect(peer.unread()).toBe('');
    expect(peer.received.toString()).not.toContain('too late');
  });

  test('a notification from the client is answered with nothing and leaves no rejected promise', async () => {
    const rejections = await rejectionsDuring(async () => {
      const peer = await start(basic());
      peer.sendJson({ jsonrpc: '2.0', method: 'notifications/initialized' });
      peer.send(PING(45));
      expect(await peer.nextLine()).toMatch(/^\{"jsonrpc":"2\.0","id":45,/);
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(rejections).toEqual([]);
  });

  test('a cancel for an id not in flight is ignored', async () => {
    const peer = await start(basic());
    peer.sendJson({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'nope' } });
    peer.send(PING(14));
    expect(await peer.nextLine()).toMatch(/^\{"jsonrpc":"2\.0","id":14,/);
  });

  test('progress a handler reports after its cancel is not sent', async () => {
    const peer = await start(basic());
    peer.sendJson(modern(15, 'tools/call', { name: 'wait_for_abort', _meta: { progressToken: 'p' } }));
    expect(await peer.nextMessage()).toMatchObject({
      method: 'notifications/progress',
      params: { progress: 1 },
    });
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    peer.sendJson({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 15 } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    peer.send(PING(16));
    expect(await peer.nextMessage()).toMatchObject({ id: 16 });
    expect(peer.received.toString()).not.toContain('"progress":2');
  });
});

describe('stdio faults', () => {
  test('a result that cannot be serialized is answered -32603 under its id and reported to the host', async () => {
    const faults: Array<[string, unknown]> = [];
    const peer = await start(gated().server, (description, cause) => faults.push([description, cause]));
    peer.sendJson(modern(17, 'tools/call', { name: 'meta_bigint' }));
    expect(await peer.nextLine()).toBe(
      '{"jsonrpc":"2.0","id":17,"error":{"code":-32603,"message":"Internal error"}}\n',
    );
    expect(faults).toHaveLength(1);
    expect(faults[0]![0]).toMatch(/^an outgoing message could not be serialized: ./);
    expect(faults[0]![1]).toBeUndefined();
  });

  test('a notification that cannot be serialized is dropped and reported to the host', async () => {
    const faults: string[] = [];
    const { server } = gated();
    const peer = await start(server, (description) => faults.push(description));
    peer.sendJson(
      modern(18, 'tools/call', { name: 'loud', _meta: { 'io.modelcontextprotocol/logLevel': 'info' } }),
    );
    expect(await peer.nextMessage()).toMatchObject({ id: 18, result: { content: [{ text: 'logged' }] } });
    expect(peer.received.toString()).not.toContain('notifications/message');
    expect(faults).toEqual([expect.stringMatching(/^an outgoing message could not be serialized: ./)]);
  });

  test('with no onFault, a host fault is one line on stderr with the cause and its stack', async () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const peer = await runOverSockets(basic());
    peers.push(peer);
    peer.sendJson(modern(19, 'tools/call', { name: 'throws' }));
    expect(await peer.nextMessage()).toMatchObject({ id: 19, error: { code: -32603 } });
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(
      /^palisade: host fault: tool "throws" [^\n]*\nError: host secret .*\n {4}at /s,
    );
    expect(written[0]!.endsWith('\n')).toBe(true);
  });

  test('with no onFault, a fault with no error as its cause is one line with nothing after it', async () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const peer = await runOverSockets(gated().server);
    peers.push(peer);
    peer.sendJson(modern(20, 'tools/call', { name: 'meta_bigint' }));
    expect(await peer.nextMessage()).toMatchObject({ id: 20, error: { code: -32603 } });
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(
      /^palisade: host fault: an outgoing message could not be serialized: [^\n]+\n$/,
    );
  });
  test('with no onFault, an error cause without a string stack adds nothing after the description', async () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const stackless = createServer({
      name: 'stackless',
      version: '1',
      tools: [
        defineTool({
          name: 'stackless',
          inputSchema: { type: 'object' },
          handler: () => {
            const error = new Error('no stack');
            Object.defineProperty(error, 'stack', { value: 42 });
            throw error;
          },
        }),
      ],
    });
    const peer = await runOverSockets(stackless);
    peers.push(peer);
    peer.sendJson(modern(41, 'tools/call', { name: 'stackless' }));
    expect(await peer.nextMessage()).toMatchObject({ id: 41, error: { code: -32603 } });
    expect(written).toEqual(['palisade: host fault: tool "stackless" handler threw\n']);
  });

  test('a logger without a warn method is refused by name', () => {
    expect(() => serveStdio(basic(), { logger: { error: () => {} } as never })).toThrow(
      'option "logger.warn" must be a function taking (object, message)',
    );
  });

  test('with a logger and no onFault, a host fault goes to logger.error as a stdio fault record', async () => {
    const records: unknown[] = [];
    const logger = { warn: () => {}, error: (record: object) => records.push(record) };
    const peer = await runOverSockets(basic(), { logger });
    peers.push(peer);
    peer.sendJson(modern(42, 'tools/call', { name: 'throws' }));
    expect(await peer.nextMessage()).toMatchObject({ id: 42, error: { code: -32603 } });
    expect(records).toEqual([
      {
        event: 'palisade.fault',
        transport: 'stdio',
        description: 'tool "throws" handler threw',
        error: { name: 'Error' },
      },
    ]);
  });
});

describe('stdio change notifications for a 2025-11-25 client', () => {
  test('an initialized client hears a declared list change as one exact line', async () => {
    const server = announcing();
    const peer = await start(server);
    await initialize(peer);
    peer.send(PING(21));
    expect((await peer.nextMessage())['id']).toBe(21);
    server.notifyListChanged('tools');
    expect(await peer.nextLine()).toBe('{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}\n');
  });

  test('between initialize and notifications/initialized no change is sent', async () => {
    const server = announcing();
    const peer = await start(server);
    peer.sendJson(INITIALIZE);
    expect((await peer.nextMessage())['id']).toBe(0);
    server.notifyListChanged('tools');
    peer.send(PING(44));
    expect((await peer.nextMessage())['id']).toBe(44);
    expect(server.changes.open).toBe(0);
    expect(peer.unread()).toBe('');
  });

  test('a list change for a list the server does not serve is not sent', async () => {
    const server = announcing();
    const peer = await start(server);
    await initialize(peer);
    server.notifyListChanged('prompts');
    peer.send(PING(22));
    expect((await peer.nextMessage())['id']).toBe(22);
    expect(peer.unread()).toBe('');
  });

  test('a client that never initialized hears no change', async () => {
    const server = announcing();
    const peer = await start(server);
    peer.send(PING(23));
    expect((await peer.nextMessage())['id']).toBe(23);
    server.notifyListChanged('tools');
    peer.send(PING(24));
    expect(await peer.nextMessage()).toMatchObject({ id: 24 });
    expect(server.changes.open).toBe(0);
  });

  test('a resource update reaches the client for a URI it subscribed to, as one exact line', async () => {
    const server = announcing();
    const peer = await start(server);
    await initialize(peer);
    peer.sendJson({
      jsonrpc: '2.0',
      id: 25,
      method: 'resources/subscribe',
      params: { uri: 'test://watched' },
    });
    expect(await peer.nextMessage()).toEqual({ jsonrpc: '2.0', id: 25, result: {} });
    server.notifyResourceUpdated('test://watched');
    expect(await peer.nextLine()).toBe(
      '{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"test://watched"}}\n',
    );
  });

  test('a resource update is not sent to a client that subscribed to nothing', async () => {
    const server = announcing();
    const peer = await start(server);
    await initialize(peer);
    server.notifyResourceUpdated('test://watched');
    peer.send(PING(26));
    expect((await peer.nextMessage())['id']).toBe(26);
    expect(peer.unread()).toBe('');
  });

  test('a resource update for a URI the client did not subscribe to is not sent', async () => {
    const server = announcing();
    const peer = await start(server);
    await initialize(peer);
    peer.sendJson({
      jsonrpc: '2.0',
      id: 27,
      method: 'resources/subscribe',
      params: { uri: 'test://watched' },
    });
    await peer.nextMessage();
    server.notifyResourceUpdated('test://other');
    peer.send(PING(28));
    expect((await peer.nextMessage())['id']).toBe(28);
    expect(peer.unread()).toBe('');
  });

  test('one connection listens once however many messages follow initialize, and stops at close', async () => {
    const server = announcing();
    const peer = await start(server);
    await initialize(peer);
    peer.send(PING(29) + PING(30));
    await peer.nextMessage();
    await peer.nextMessage();
    expect(server.changes.open).toBe(1);
    server.notifyListChanged('tools');
    peer.send(PING(31));
    expect(await peer.nextLine()).toBe('{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}\n');
    expect((await peer.nextMessage())['id']).toBe(31);
    await peer.end();
    expect(server.changes.open).toBe(0);
  });
});

describe('stdio backpressure', () => {
  test('while the client does not read, input pauses; each time output drains it is read again', async () => {
    const peer = await start(basic());
    const big = { name: 'echo', arguments: { text: 'b'.repeat(1_000_000) } };
    for (const id of [32, 33]) {
      peer.stdout.pause();
      peer.sendJson(modern(id, 'tools/call', big));
      await expect.poll(() => peer.input.isPaused()).toBe(true);
      peer.stdout.resume();
      await expect.poll(() => peer.input.isPaused()).toBe(false);
      expect(JSON.parse(await peer.nextLine())).toMatchObject({ id });
    }
  });

  test('change notifications past the queue bound are dropped while the client does not read; responses are not', async () => {
    const server = announcing();
    const peer = await start(server);
    await initialize(peer);
    peer.stdout.pause();
    peer.sendJson({ jsonrpc: '2.0', id: 34, method: 'tools/call', params: { name: 'flood' } });
    await expect.poll(() => peer.output.writableLength).toBeGreaterThan(1_000_000);
    peer.stdout.resume();
    let changes = 0;
    for (;;) {
      const line = await peer.nextLine();
      if (line.includes('"id":34')) break;
      expect(line).toBe('{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}\n');
      changes += 1;
    }
    // 62 bytes a line: the 1,114,112-byte bound holds 17,969, and the socket's kernel buffers some
    // thousands more; far fewer than the FLOOD announced.
    expect(changes).toBeGreaterThan(1_000);
    expect(changes).toBeLessThan(40_000);
  });
  test('a notification is still queued at exactly 1,114,112 unsent bytes and dropped only past them', async () => {
    // An output that never finishes a write: its writableLength is every byte handed to it, to
    // the byte, which no kernel pipe (it takes a varying share) would show.
    const output = new Writable({ highWaterMark: 8 * 1024 * 1024, write: () => {} });
    const stdin = await connectedPair();
    const server = createServer({
      name: 'bound',
      version: '1',
      tools: [
        defineTool({ name: 'noop', inputSchema: { type: 'object' }, handler: () => ({ content: [] }) }),
      ],
      prompts: [{ name: 'p', get: () => ({ messages: [] }) }],
      notifications: { toolsListChanged: true, promptsListChanged: true },
    });
    const handle = serveStdio(server, { input: stdin.far, output, onFault: () => {} });
    try {
      stdin.near.write(
        `${JSON.stringify(INITIALIZE)}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n`,
      );
      await expect.poll(() => server.changes.open).toBe(1);
      await expect.poll(() => output.writableLength).toBeGreaterThan(0);
      // Every list-change line is of even length: an odd remainder is evened by a 37-byte ping answer.
      if ((MAX_SSE_QUEUED_BYTES - output.writableLength) % 2 === 1) {
        const before = output.writableLength;
        stdin.near.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
        await expect.poll(() => output.writableLength).toBe(before + 37);
      }
      const TOOLS = 62; // {"jsonrpc":"2.0","method":"notifications/tools/list_changed"} and its newline
      const PROMPTS = 64;
      let left = MAX_SSE_QUEUED_BYTES - output.writableLength;
      let prompts = 0;
      while (left % TOOLS !== 0) {
        left -= PROMPTS;
        prompts += 1;
      }
      for (let sent = 0; sent < prompts; sent += 1) server.notifyListChanged('prompts');
      for (let sent = 0; sent < left / TOOLS; sent += 1) server.notifyListChanged('tools');
      expect(output.writableLength).toBe(MAX_SSE_QUEUED_BYTES);
      server.notifyListChanged('tools');
      expect(output.writableLength).toBe(MAX_SSE_QUEUED_BYTES + TOOLS);
      server.notifyListChanged('tools');
      expect(output.writableLength).toBe(MAX_SSE_QUEUED_BYTES + TOOLS);
    } finally {
      stdin.near.destroy();
      stdin.far.destroy();
      output.destroy();
      await handle.closed;
    }
  });

  test('while the client does not read its output, input is paused; once output drains it is read again', async () => {
    const input = new PassThrough();
    // A 1-byte buffer: the first response already exceeds it, as a full pipe would.
    const output = new PassThrough({ highWaterMark: 1 });
    const handle = serveStdio(basicServer(), { input, output, exitOnClose: false, onFault: () => {} });
    input.write(`${JSON.stringify(modern(1, 'tools/list'))}\n`);
    await expect.poll(() => output.readableLength).toBeGreaterThan(0);
    expect(input.isPaused()).toBe(true);

    output.resume();
    await expect.poll(() => input.isPaused()).toBe(false);
    input.end();
    await handle.closed;
  });
});

describe('stdio shutdown', () => {
  test('when input ends, a handler in flight is aborted and closed settles after its answer', async () => {
    const { server, calls } = gated();
    const peer = await start(server);
    peer.sendJson(modern(35, 'tools/call', { name: 'gate' }));
    await expect.poll(() => calls.length).toBe(1);
    calls[0]!.signal.addEventListener('abort', () => calls[0]!.finish('aborted'));
    await peer.end();
    expect(calls[0]!.signal.aborted).toBe(true);
    expect(JSON.parse(await peer.nextLine())).toMatchObject({
      id: 35,
      result: { content: [{ text: 'aborted' }] },
    });
  });

  test('a handler that ignores the abort holds closed for the grace period, and its late answer is never sent', async () => {
    const { server, calls } = gated();
    const peer = await start(server);
    peer.sendJson(modern(36, 'tools/call', { name: 'gate' }));
    await expect.poll(() => calls.length).toBe(1);
    const started = Date.now();
    await peer.end();
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(STDIO_SHUTDOWN_GRACE_MS - 50);
    calls[0]!.finish('late');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(peer.received.length).toBe(0);
  });

  test('closed settles only once every queued byte was handed to the pipe', async () => {
    const peer = await start(basic());
    peer.stdout.pause();
    peer.sendJson(modern(37, 'tools/call', { name: 'echo', arguments: { text: 'q'.repeat(1_000_000) } }));
    await expect.poll(() => peer.output.writableLength).toBeGreaterThan(0);
    peer.stdin.end();
    let settled = false;
    void peer.handle.closed.then(() => {
      settled = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(settled).toBe(false);
    peer.stdout.resume();
    await peer.handle.closed;
    expect(peer.output.writableLength).toBe(0);
  });

  test('input closing without an end closes the transport', async () => {
    const peer = await start(basic());
    peer.input.destroy();
    await peer.handle.closed;
  });

  test('an input error closes the transport', async () => {
    const peer = await start(basic());
    peer.input.destroy(new Error('read failed'));
    await peer.handle.closed;
  });

  test('an output error closes the transport and no later input is read', async () => {
    const { server, calls } = gated();
    const peer = await start(server);
    peer.output.destroy(new Error('write failed'));
    await peer.handle.closed;
    peer.sendJson(modern(38, 'tools/call', { name: 'gate' }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(calls).toHaveLength(0);
  });

  test('a transport whose output was already ended still settles closed', async () => {
    const peer = await start(basic());
    peer.output.end();
    await peer.end();
  });
});

describe('stdio ownership of the process', () => {
  test('over streams other than stdin the process does not exit when input ends', async () => {
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    const peer = await start(basic());
    await peer.end();
    expect(exit).not.toHaveBeenCalled();
  });

  test('exitOnClose exits the process with 0 once output is flushed', async () => {
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    const peer = await runOverSockets(basic(), { exitOnClose: true, onFault: () => {} });
    peers.push(peer);
    peer.send(PING(39));
    await peer.nextLine();
    await peer.end();
    expect(exit).toHaveBeenCalledWith(0);
  });

  test('over another output stream process.stdout is left as it was, a host replacement included', async () => {
    const original = process.stdout.write;
    const peer = await start(basic());
    expect(process.stdout.write).toBe(original);
    const hosts = ((...args: Parameters<typeof original>) =>
      original.apply(process.stdout, args)) as typeof original;
    process.stdout.write = hosts;
    try {
      await peer.end();
      expect(process.stdout.write).toBe(hosts);
    } finally {
      process.stdout.write = original;
    }
  });
});

/** Stands a socket in for one of the process's standard streams for the length of `body`. */
async function withStandardStream<T>(
  name: 'stdin' | 'stdout' | 'stderr',
  stream: Socket,
  body: () => Promise<T>,
): Promise<T> {
  const own = Object.getOwnPropertyDescriptor(process, name);
  Object.defineProperty(process, name, { configurable: true, enumerable: true, get: () => stream });
  try {
    return await body();
  } finally {
    if (own === undefined) Reflect.deleteProperty(process, name);
    else Object.defineProperty(process, name, own);
  }
}

/** Reads everything that arrives on a socket into a growing string. */
function collect(socket: Socket): { text: string } {
  const sink = { text: '' };
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    sink.text += chunk;
  });
  return sink;
}

describe('stdio on the process standard streams', () => {
  test('while it owns process.stdout, other writes to stdout go to stderr, and stdout is given back at close', async () => {
    const stdin = await connectedPair();
    const stdout = await connectedPair();
    const stderr = await connectedPair();
    const sockets = [stdin, stdout, stderr].flatMap((pair) => [pair.near, pair.far]);
    const protocol = collect(stdout.near);
    const diverted = collect(stderr.near);
    const stray = createServer({
      name: 'stray',
      version: '1',
      tools: [
        defineTool({
          name: 'stray',
          inputSchema: { type: 'object' },
          handler: () => {
            process.stdout.write('stray bytes\n');
            return { content: [{ type: 'text', text: 'done' }] };
          },
        }),
      ],
    });
    try {
      await withStandardStream('stderr', stderr.far, () =>
        withStandardStream('stdout', stdout.far, async () => {
          const ownWrite = process.stdout.write;
          const handle = serveStdio(stray, { input: stdin.far, exitOnClose: false, onFault: () => {} });
          expect(process.stdout.write).not.toBe(ownWrite);
          stdin.near.write(`${JSON.stringify(modern(40, 'tools/call', { name: 'stray' }))}\n`);
          await expect.poll(() => protocol.text).toContain('\n');
          await expect.poll(() => diverted.text).toBe('stray bytes\n');
          expect(JSON.parse(protocol.text)).toMatchObject({
            id: 40,
            result: { content: [{ text: 'done' }] },
          });
          stdin.near.end();
          await handle.closed;
          expect(process.stdout.write).toBe(ownWrite);
        }),
      );
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });

  test('reading process.stdin, the transport exits the process with 0 once input ends', async () => {
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    const stdin = await connectedPair();
    const stdout = await connectedPair();
    try {
      await withStandardStream('stdin', stdin.far, async () => {
        const handle = serveStdio(basic(), { output: stdout.far, onFault: () => {} });
        stdin.near.end();
        await handle.closed;
      });
      expect(exit).toHaveBeenCalledWith(0);
    } finally {
      for (const socket of [stdin.near, stdin.far, stdout.near, stdout.far]) socket.destroy();
    }
  });
});
