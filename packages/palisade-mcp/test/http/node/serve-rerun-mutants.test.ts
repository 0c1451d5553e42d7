/**
 * `serve()` as a client sees it, for what the complete `http-serve` run left alive
 * (docs/mutation-testing.md): `Expect: 100-continue` through the HTTP/1.1 server `serve()` builds,
 * a TLS connection kept alive past the sniff deadline, TCP_NODELAY on the sockets it accepts, and
 * the floor of the HTTP/2 connection deadline's check.
 * Each test starts its own `serve()`: Stryker counts only what a test reaches itself, not a
 * `beforeAll`.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type TLSSocket, connect as tlsConnect } from 'node:tls';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { type Serving, serve } from '../../../src/http/node/serve.js';
import { H2Peer, TYPE } from '../../support/h2-frames.js';
import { ADMIT_ALL, basicServer, modernRequest, post, RawClient } from '../../support/http-peer.js';
import { makeCertificate } from '../../support/tls-certificate.js';

const { allowedHosts: _unused, ...ADMIT } = ADMIT_ALL;
const LIST = modernRequest(1, 'tools/list');

let served: Serving | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

let dir: string;
let key: string;
let cert: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'palisade-serve-rerun-'));
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

describe('Expect: 100-continue through serve()', () => {
  test('a request refused by its Host before its body gets the 421 and no 100 Continue', async () => {
    served = await serve(basicServer(), { ...ADMIT });
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
    served = await serve(basicServer(), { ...ADMIT });
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
    served = await serve(basicServer(), { ...ADMIT, tls: { key, cert }, sniffTimeoutMs: 300 });
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

describe('TCP_NODELAY on accepted sockets', () => {
  test('a plaintext answer is not held for the client to acknowledge the one before', async () => {
    served = await serve(basicServer(), { ...ADMIT });
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
    served = await serve(basicServer(), { ...ADMIT, tls: { key, cert } });
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
    served = await serve(basicServer(), { ...ADMIT, connectionTimeoutMs: 1, keepAliveTimeoutMs: 10_000 });
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
