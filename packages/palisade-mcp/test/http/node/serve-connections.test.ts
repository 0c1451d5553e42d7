/**
 * The connections `serve()` accepts, as a client sees them: the first byte that decides HTTP/1.1
 * or HTTP/2, the answer to what Node's parser refuses, a reset before the protocol is known,
 * `Expect: 100-continue`, TLS kept alive past the sniff deadline, TCP_NODELAY, and the header,
 * HTTP/2 connection and close() deadlines. Each test starts its own `serve()`: under per-test
 * coverage a server started in a hook is credited to no test.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type TLSSocket, connect as tlsConnect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Serving, serve } from '../../../src/http/node/serve.js';
import { closeAfterEach } from '../../support/close-after-each.js';
import {
  dataFrame,
  H2Peer,
  headersFrame,
  postFields,
  SETTING,
  TYPE,
  windowUpdateFrame,
} from '../../support/h2-frames.js';
import {
  ADMIT_ALL,
  basicServer,
  exchange,
  LIST,
  modernRequest,
  post,
  RawClient,
} from '../../support/http-peer.js';
import { makeCertificate } from '../../support/tls-certificate.js';

const { allowedHosts: _unused, ...ADMIT } = ADMIT_ALL;
const ECHO = modernRequest(7, 'tools/call', { name: 'echo', arguments: { text: 'hi' } });
const ECHO_FIELDS = postFields([
  ['mcp-protocol-version', '2026-07-28'],
  ['mcp-method', 'tools/call'],
  ['mcp-name', 'echo'],
]);
const MALFORMED_BODY =
  '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request: malformed HTTP request"}}';

const closeLater = closeAfterEach();
/** The `serve()` the running test started, closed once it ends. */
let served: Serving | undefined;

/** Every byte the server sends on one connection given `bytes`, up to its closing the connection. */
async function untilClosed(bytes: string): Promise<string> {
  served = await closeLater(serve(basicServer(), { ...ADMIT }));
  const client = new RawClient(served.port);
  client.send(bytes);
  await client.closed;
  return client.text();
}

let dir: string;
let key: string;
let cert: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'palisade-serve-connections-'));
  ({ key, cert } = makeCertificate(dir, 'server'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** How many complete `200` answers `text` holds. */
const answered = (text: string): number => text.split('HTTP/1.1 200 ').length - 1;

interface TlsPeer {
  readonly socket: TLSSocket;
  /** Every byte received so far, as latin1. */
  text(): string;
  /** Waits until `count` 200 answers have arrived or the connection closes. */
  until(count: number): Promise<void>;
}

/** An HTTPS client speaking HTTP/1.1 by ALPN. */
async function tlsClient(port: number): Promise<TlsPeer> {
  const socket = tlsConnect({
    host: '127.0.0.1',
    port,
    ca: cert,
    servername: 'localhost',
    ALPNProtocols: ['http/1.1'],
  });
  socket.on('error', () => {});
  let received = '';
  const wake: Array<() => void> = [];
  const woken = (): void => {
    for (const resolve of wake.splice(0)) resolve();
  };
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
    woken();
  });
  socket.once('close', woken);
  await once(socket, 'secureConnect');
  const until = async (count: number): Promise<void> => {
    while (answered(received) < count && !socket.destroyed) {
      await new Promise<void>((resolve) => wake.push(resolve));
    }
  };
  return { socket, text: () => received, until };
}

/**
 * Two requests sent at once on a kept-alive connection: the second answer goes out while the first
 * is not yet acknowledged, and the client delays its ACK (40 ms at least on Linux) having nothing to
 * send. Under Nagle the second answer waits for that ACK; with TCP_NODELAY it leaves at once. The
 * first rounds are not counted: a new connection acknowledges at once for a while.
 */
/** Under Nagle no round is faster than the 40 ms delayed ACK; without it one takes a few ms. */
const FASTEST_BOUND_MS = 38;

async function fastestPipelinedRound(
  send: (bytes: string) => void,
  until: (count: number) => Promise<void>,
): Promise<number> {
  const rounds: number[] = [];
  for (let round = 0; round < 12; round += 1) {
    const started = performance.now();
    send(post(LIST.body, LIST.headers) + post(LIST.body, LIST.headers));
    await until(2 * (round + 1));
    if (round >= 4) rounds.push(performance.now() - started);
  }
  return Math.min(...rounds);
}

describe('the first byte of a plaintext connection', () => {
  test('a request line starting with A (ACL) is HTTP/1.1 and is answered', async () => {
    const reply = await untilClosed('ACL /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    expect(reply).toMatch(/^HTTP\/1\.1 405 /);
  });

  test('a request line starting with Z is HTTP/1.1 to the parser, which refuses it 400', async () => {
    const reply = await untilClosed('ZZZ /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect(reply).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(reply.slice(reply.indexOf('\r\n\r\n') + 4)).toBe(MALFORMED_BODY);
  });
});

describe("the answer to what Node's parser refuses", () => {
  test('a malformed request is answered with content-type, content-length and connection: close', async () => {
    const reply = await untilClosed('POST /mcp HTTP/1.1 EXTRA\r\nHost: 127.0.0.1\r\n\r\n');
    expect(reply).toBe(
      'HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\n' +
        `content-length: ${MALFORMED_BODY.length}\r\nconnection: close\r\n\r\n${MALFORMED_BODY}`,
    );
  });
});

describe('a connection reset before its protocol is known', () => {
  test('is dropped without an uncaught error, and the port goes on serving', async () => {
    // An 'error' on the socket with no listener would throw out of the host's process.
    const uncaught: unknown[] = [];
    const record = (error: unknown): void => {
      uncaught.push(error);
    };
    process.on('uncaughtException', record);
    served = await closeLater(serve(basicServer(), { ...ADMIT }));
    const socket = tcpConnect(served.port, '127.0.0.1');
    socket.on('error', () => {});
    await once(socket, 'connect');
    // A prefix of the preface: the sniffer is still holding it when the reset arrives.
    socket.write('PRI');
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.resetAndDestroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const reply = await exchange(served.port, post(LIST.body, LIST.headers));
    process.off('uncaughtException', record);
    expect(uncaught).toEqual([]);
    expect(reply.status).toBe(200);
    reply.client.end();
  });
});

describe('serve() deadlines and close()', () => {
  test("headersTimeoutMs: 50 is checked on its own tick: the 408 comes well before Node's 1 s check", async () => {
    const start = performance.now();
    served = await closeLater(serve(basicServer(), { ...ADMIT, headersTimeoutMs: 50 }));
    const client = new RawClient(served.port);
    client.send('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    await client.closed;
    // On a 1 s tick the first check could not come before 1,000 ms after serve(): anything sooner
    // is our own tick, whatever the machine's load added to the 50 ms.
    expect(performance.now() - start).toBeLessThan(1_000);
    expect(client.text()).toMatch(/^HTTP\/1\.1 408 /);
  });

  test('close() ends a connection that has sent nothing yet and resolves without waiting for it', async () => {
    const open = await serve(basicServer(), { ...ADMIT, sniffTimeoutMs: 60_000 });
    const client = new RawClient(open.port);
    await once(client.socket, 'connect');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const outcome = await Promise.race([
      open.close().then(() => 'closed'),
      new Promise((resolve) => setTimeout(resolve, 3_000, 'still open')),
    ]);
    expect(outcome).toBe('closed');
    await client.closed;
    expect(client.text()).toBe('');
  });
});

describe('the HTTP/2 connection deadline', () => {
  test('a stream answered and closed long before its read deadline does not keep the session', async () => {
    served = await closeLater(
      serve(basicServer(), {
        ...ADMIT,
        readTimeoutMs: 8_000,
        connectionTimeoutMs: 300,
        keepAliveTimeoutMs: 10_000,
      }),
    );
    const client = new H2Peer(served.port);
    try {
      await client.ready();
      client.send(headersFrame(1, ECHO_FIELDS));
      client.send(dataFrame(1, Buffer.from(ECHO.body), { endStream: true }));
      await client.streamEnd(1);
      const closed = performance.now();
      expect(client.statuses(1)).toEqual([200]);
      const away = await client.waitFor((f) => f.type === TYPE.GOAWAY, 4_000);
      expect(client.goaway()?.code).toBe(0);
      // Not the 8 s read deadline of a stream already gone.
      expect((away?.at ?? Number.POSITIVE_INFINITY) - closed).toBeLessThan(3_000);
    } finally {
      client.end();
    }
  });

  test('an answer taken late restarts the count: no GOAWAY within connectionTimeoutMs of its stream closing', async () => {
    served = await closeLater(
      serve(basicServer(), {
        ...ADMIT,
        readTimeoutMs: 100,
        connectionTimeoutMs: 1_000,
        keepAliveTimeoutMs: 10_000,
      }),
    );
    const client = new H2Peer(served.port, { settings: [[SETTING.INITIAL_WINDOW_SIZE, 0]] });
    try {
      await client.ready();
      client.send(headersFrame(1, ECHO_FIELDS));
      client.send(dataFrame(1, Buffer.from(ECHO.body), { endStream: true }));
      // The answer waits on a zero window, past its 100 ms read deadline, then is taken.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const taken = performance.now();
      client.send(windowUpdateFrame(1, 65_535));
      await client.streamEnd(1);
      expect(JSON.parse(client.body(1))).toMatchObject({ id: 7, result: { content: [{ text: 'hi' }] } });
      const away = await client.waitFor((f) => f.type === TYPE.GOAWAY, 4_000);
      expect(client.goaway()?.code).toBe(0);
      expect((away?.at ?? 0) - taken).toBeGreaterThanOrEqual(900);
    } finally {
      client.end();
    }
  });
});

describe('Expect: 100-continue through serve()', () => {
  test('a request refused by its Host before its body gets the 421 and no 100 Continue', async () => {
    served = await closeLater(serve(basicServer(), { ...ADMIT }));
    const client = new RawClient(served.port);
    client.send(
      post('', { ...LIST.headers, Host: 'evil.example', Expect: '100-continue', 'Content-Length': 10 }),
    );
    const reply = await client.response();
    expect(reply.status).toBe(421);
    expect(client.text()).toMatch(/^HTTP\/1\.1 421 /);
    client.end();
  });

  test('an admitted request is invited with 100 Continue, then answered', async () => {
    served = await closeLater(serve(basicServer(), { ...ADMIT }));
    const client = new RawClient(served.port);
    client.send(
      post('', { ...LIST.headers, Expect: '100-continue', 'Content-Length': Buffer.byteLength(LIST.body) }),
    );
    await client.until((text) => text.includes('\r\n\r\n'));
    expect(client.text()).toBe('HTTP/1.1 100 Continue\r\n\r\n');
    client.send(LIST.body);
    expect((await client.response()).status).toBe(200);
    client.end();
  });
});

describe('serve() over TLS past the sniff deadline', () => {
  test('a kept-alive HTTPS connection is still served after sniffTimeoutMs has lapsed', async () => {
    // The sniffer is for plaintext only: on a TLS socket it would see nothing and end it at its deadline.
    served = await closeLater(serve(basicServer(), { ...ADMIT, tls: { key, cert }, sniffTimeoutMs: 300 }));
    const client = await tlsClient(served.port);
    try {
      client.socket.write(post(LIST.body, LIST.headers));
      await client.until(1);
      await new Promise((resolve) => setTimeout(resolve, 900));
      client.socket.write(post(LIST.body, LIST.headers));
      await client.until(2);
      expect(answered(client.text())).toBe(2);
    } finally {
      client.socket.destroy();
    }
  });
});

describe('TCP_NODELAY on accepted sockets', () => {
  test('a plaintext answer is not held for the client to acknowledge the one before', async () => {
    served = await closeLater(serve(basicServer(), { ...ADMIT }));
    const client = new RawClient(served.port);
    client.socket.setNoDelay(true);
    try {
      const fastest = await fastestPipelinedRound(
        (bytes) => client.send(bytes),
        (count) => client.until((text) => answered(text) >= count),
      );
      expect(fastest).toBeLessThan(FASTEST_BOUND_MS);
    } finally {
      client.end();
    }
  });

  test('an HTTPS answer is not held for the client to acknowledge the one before', async () => {
    served = await closeLater(serve(basicServer(), { ...ADMIT, tls: { key, cert } }));
    const client = await tlsClient(served.port);
    client.socket.setNoDelay(true);
    try {
      const fastest = await fastestPipelinedRound((bytes) => client.socket.write(bytes), client.until);
      expect(fastest).toBeLessThan(FASTEST_BOUND_MS);
    } finally {
      client.socket.destroy();
    }
  });
});

describe('the HTTP/2 connection deadline checks no more often than every 25 ms', () => {
  test('connectionTimeoutMs: 1 sends GOAWAY at the first 25 ms tick, not within a millisecond', async () => {
    // The floor bounds what an idle session costs: a check every millisecond would be 1,000 timers a second.
    served = await closeLater(
      serve(basicServer(), { ...ADMIT, connectionTimeoutMs: 1, keepAliveTimeoutMs: 10_000 }),
    );
    const started = performance.now();
    const client = new H2Peer(served.port);
    try {
      const away = await client.waitFor((f) => f.type === TYPE.GOAWAY, 4_000);
      expect(client.goaway()?.code).toBe(0);
      // Load only makes the tick later; 20 leaves room for timer rounding.
      expect((away?.at ?? 0) - started).toBeGreaterThanOrEqual(20);
    } finally {
      client.end();
    }
  });
});
