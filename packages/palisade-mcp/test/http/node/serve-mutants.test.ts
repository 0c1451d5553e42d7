/**
 * `serve()` (node/serve.ts, serve-tls.ts, protocol-sniff.ts, session-guard.ts, client-error.ts) as a
 * host and a client see it: refusals at `serve()` with their exact code and message, and exchanges
 * over real sockets on loopback. Written for the mutants the `http-serve` group left alive
 * (docs/mutation-testing.md). The certificate is made for this run by `openssl` in a temporary
 * directory, as in serve-tls.test.ts: no key is kept in the repository.
 */
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { connect as tlsConnect } from 'node:tls';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { type ServeOptions, type Serving, serve } from '../../../src/http/node/serve.js';
import {
  dataFrame,
  H2Peer,
  headersFrame,
  postFields,
  SETTING,
  TYPE,
  windowUpdateFrame,
} from '../../support/h2-frames.js';
import { ADMIT_ALL, basicServer, exchange, modernRequest, post, RawClient } from '../../support/http-peer.js';
import { makeCertificate } from '../../support/tls-certificate.js';

const { allowedHosts: _unused, ...ADMIT } = ADMIT_ALL;
const INVALID = 'PALISADE_ERR_INVALID_OPTION';
const LIST = modernRequest(1, 'tools/list');
const ECHO = modernRequest(7, 'tools/call', { name: 'echo', arguments: { text: 'hi' } });
const ECHO_FIELDS = postFields([
  ['mcp-protocol-version', '2026-07-28'],
  ['mcp-method', 'tools/call'],
  ['mcp-name', 'echo'],
]);
const MALFORMED_BODY =
  '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request: malformed HTTP request"}}';

let served: Serving | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** Every byte the server sends on one connection given `bytes`, up to its closing the connection. */
async function untilClosed(bytes: string): Promise<string> {
  served = await serve(basicServer(), { ...ADMIT });
  const client = new RawClient(served.port);
  client.send(bytes);
  await client.closed;
  return client.text();
}

let dir: string;
let key: string;
let cert: string;
let pfx: Buffer;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'palisade-serve-'));
  const made = makeCertificate(dir, 'server');
  ({ key, cert } = made);
  const { keyPath, certPath } = made;
  const pfxPath = join(dir, 'server.pfx');
  execFileSync(
    'openssl',
    ['pkcs12', '-export', '-inkey', keyPath, '-in', certPath, '-out', pfxPath, '-passout', 'pass:sealed'],
    { stdio: 'ignore' },
  );
  pfx = readFileSync(pfxPath);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** What `serve()` rejects with, as `{ code, message }`; the url when it binds (then closed). */
function outcome(options: unknown): Promise<unknown> {
  return serve(basicServer(), options as ServeOptions).then(
    async (served) => {
      await served.close();
      return served.url.replace(/:\d+$/, ':port');
    },
    (error: unknown) => ({ code: (error as { code?: unknown }).code, message: (error as Error).message }),
  );
}

describe('serve() options refused by name', () => {
  test('options that are not a plain object are refused as the serve options', async () => {
    expect(await outcome(null)).toEqual({
      code: INVALID,
      message: 'option "serve options" must be a plain object',
    });
  });

  test("http2: 'yes' is refused: it must be a boolean", async () => {
    expect(await outcome({ ...ADMIT, http2: 'yes' })).toEqual({
      code: INVALID,
      message: 'option "http2" must be a boolean',
    });
  });

  test('a tls that is not a plain object is refused naming tls', async () => {
    expect(await outcome({ ...ADMIT, tls: 'cert.pem' })).toEqual({
      code: INVALID,
      message: 'option "tls" must be a plain object',
    });
  });
});

describe('serve() on an IPv6 loopback', () => {
  test("host '::1' binds without allowedHosts and its url brackets the address", async () => {
    expect(await outcome({ ...ADMIT, host: '::1' })).toBe('http://[::1]:port');
  });
});

describe('serve() tls key material', () => {
  test('an empty key string is refused naming tls.key', async () => {
    expect(await outcome({ ...ADMIT, tls: { key: '', cert } })).toEqual({
      code: INVALID,
      message: 'option "tls.key" must be a non-empty string or Buffer, or an array of them',
    });
  });

  test('an empty key Buffer is refused naming tls.key', async () => {
    expect(await outcome({ ...ADMIT, tls: { key: Buffer.alloc(0), cert } })).toEqual({
      code: INVALID,
      message: 'option "tls.key" must be a non-empty string or Buffer, or an array of them',
    });
  });

  test('a key and certificate passed as Buffers serve HTTPS', async () => {
    expect(await outcome({ ...ADMIT, tls: { key: Buffer.from(key), cert: Buffer.from(cert) } })).toBe(
      'https://127.0.0.1:port',
    );
  });

  test('a key and certificate passed as one-entry arrays serve HTTPS', async () => {
    expect(await outcome({ ...ADMIT, tls: { key: [key], cert: [cert] } })).toBe('https://127.0.0.1:port');
  });

  test('a key array holding an array is refused naming tls.key', async () => {
    expect(await outcome({ ...ADMIT, tls: { key: [[key]], cert } })).toEqual({
      code: INVALID,
      message: 'option "tls.key" must be a non-empty string or Buffer, or an array of them',
    });
  });

  test('a certificate without its key is refused, naming what tls needs', async () => {
    expect(await outcome({ ...ADMIT, tls: { cert } })).toEqual({
      code: INVALID,
      message: 'option "tls" needs key and cert, or pfx',
    });
  });

  test('an empty certificate array is refused naming tls.cert', async () => {
    expect(await outcome({ ...ADMIT, tls: { key, cert: [] } })).toEqual({
      code: INVALID,
      message: 'option "tls.cert" must be a non-empty string or Buffer, or an array of them',
    });
  });

  test('a ca array with one empty entry is refused naming tls.ca', async () => {
    expect(await outcome({ ...ADMIT, tls: { key, cert, ca: [cert, ''] } })).toEqual({
      code: INVALID,
      message: 'option "tls.ca" must be a non-empty string or Buffer, or an array of them',
    });
  });

  test('an empty pfx is refused naming tls.pfx', async () => {
    expect(await outcome({ ...ADMIT, tls: { pfx: '' } })).toEqual({
      code: INVALID,
      message: 'option "tls.pfx" must be a non-empty string or Buffer',
    });
  });

  test('key material whose loading throws something other than an Error is refused as an unknown error', async () => {
    // Node reads a `pem` field off each entry of a key array; a getter there may throw anything.
    const odd = Buffer.from(key);
    Object.setPrototypeOf(
      odd,
      Object.create(Buffer.prototype, {
        pem: {
          get() {
            throw 'not an Error';
          },
        },
      }),
    );
    expect(await outcome({ ...ADMIT, tls: { key: [odd], cert } })).toEqual({
      code: INVALID,
      message: 'option "tls" could not be loaded: unknown error',
    });
  });

  test("a certificate that is not PEM is refused with OpenSSL's reason", async () => {
    expect(await outcome({ ...ADMIT, tls: { key, cert: 'not a certificate' } })).toEqual({
      code: INVALID,
      message: expect.stringMatching(/^option "tls" could not be loaded: .*no start line/),
    });
  });

  test("minVersion: 'TLSv1.3' serves HTTPS", async () => {
    expect(await outcome({ ...ADMIT, tls: { key, cert, minVersion: 'TLSv1.3' } })).toBe(
      'https://127.0.0.1:port',
    );
  });

  test("minVersion: 'TLSv1.1' is refused with the exact message", async () => {
    expect(await outcome({ ...ADMIT, tls: { key, cert, minVersion: 'TLSv1.1' } })).toEqual({
      code: INVALID,
      message: "option \"tls.minVersion\" must be 'TLSv1.2' or 'TLSv1.3'",
    });
  });

  test('a client offering only http/1.1 by ALPN settles http/1.1', async () => {
    served = await serve(basicServer(), { ...ADMIT, tls: { key, cert } });
    const socket = tlsConnect({
      host: '127.0.0.1',
      port: served.port,
      ca: cert,
      servername: 'localhost',
      ALPNProtocols: ['http/1.1'],
    });
    socket.on('error', () => {});
    try {
      await once(socket, 'secureConnect');
      expect(socket.alpnProtocol).toBe('http/1.1');
    } finally {
      socket.destroy();
    }
  });

  test('a PKCS#12 pfx with its passphrase serves HTTPS', async () => {
    expect(await outcome({ ...ADMIT, tls: { pfx, passphrase: 'sealed' } })).toBe('https://127.0.0.1:port');
  });

  test('a passphrase that is not a string is refused naming tls.passphrase', async () => {
    expect(await outcome({ ...ADMIT, tls: { key, cert, passphrase: 1234 } })).toEqual({
      code: INVALID,
      message: 'option "tls.passphrase" must be a string',
    });
  });

  test('a string passphrase beside an unencrypted key serves HTTPS', async () => {
    expect(await outcome({ ...ADMIT, tls: { key, cert, passphrase: 'unused' } })).toBe(
      'https://127.0.0.1:port',
    );
  });
});

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

  test('a lower-case first byte is neither protocol: the connection is closed unanswered', async () => {
    expect(await untilClosed('get /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')).toBe('');
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

  test('a malformed request after an answered one on the same connection gets no second answer', async () => {
    served = await serve(basicServer(), { ...ADMIT });
    const client = new RawClient(served.port);
    client.send(post(LIST.body, LIST.headers));
    const first = await client.response();
    expect(first.status).toBe(200);
    const answered = client.text();
    client.send('POST /mcp HTTP/1.1 EXTRA\r\nHost: 127.0.0.1\r\n\r\n');
    await client.closed;
    expect(client.text()).toBe(answered);
  });
});

describe('serve() binding', () => {
  test("host 'localhost' binds without allowedHosts", async () => {
    expect(await outcome({ ...ADMIT, host: 'localhost' })).toMatch(/^http:\/\/(127\.0\.0\.1|\[::1\]):port$/);
  });

  test("host 'LOCALHOST' is loopback whatever its case", async () => {
    expect(await outcome({ ...ADMIT, host: 'LOCALHOST' })).toMatch(/^http:\/\/(127\.0\.0\.1|\[::1\]):port$/);
  });

  test("host '127.0.0.2' is loopback: it binds without allowedHosts", async () => {
    expect(await outcome({ ...ADMIT, host: '127.0.0.2' })).toBe('http://127.0.0.2:port');
  });

  test("host '0.0.0.0' without allowedHosts is refused with the exact message", async () => {
    expect(await outcome({ ...ADMIT, host: '0.0.0.0' })).toEqual({
      code: INVALID,
      message: 'option "allowedHosts" is required when binding 0.0.0.0, which is not loopback',
    });
  });

  test("a name starting '127.' that is no IPv4 address is not loopback", async () => {
    expect(await outcome({ ...ADMIT, host: '127.example' })).toEqual({
      code: INVALID,
      message: 'option "allowedHosts" is required when binding 127.example, which is not loopback',
    });
  });

  test('an explicit port is the one bound', async () => {
    const first = await serve(basicServer(), { ...ADMIT });
    const { port } = first;
    await first.close();
    served = await serve(basicServer(), { ...ADMIT, port });
    expect(served.port).toBe(port);
    expect(served.url).toBe(`http://127.0.0.1:${port}`);
  });

  test('a host that is not a string is refused naming host', async () => {
    expect(await outcome({ ...ADMIT, host: 5 })).toEqual({
      code: INVALID,
      message: 'option "host" must be a non-empty string',
    });
  });

  test('port 65,536 is refused as out of range', async () => {
    expect(await outcome({ ...ADMIT, port: 65_536 })).toEqual({
      code: INVALID,
      message: 'option "port" must be an integer from 0 to 65535',
    });
  });

  test('a port already in use rejects serve() with EADDRINUSE', async () => {
    served = await serve(basicServer(), { ...ADMIT });
    await expect(serve(basicServer(), { ...ADMIT, port: served.port })).rejects.toMatchObject({
      code: 'EADDRINUSE',
    });
  });

  test('requestTimeoutMs equal to headersTimeoutMs binds', async () => {
    expect(await outcome({ ...ADMIT, headersTimeoutMs: 1_000, requestTimeoutMs: 1_000 })).toBe(
      'http://127.0.0.1:port',
    );
  });

  test('requestTimeoutMs under headersTimeoutMs is refused with the exact message', async () => {
    expect(await outcome({ ...ADMIT, headersTimeoutMs: 1_000, requestTimeoutMs: 999 })).toEqual({
      code: INVALID,
      message: 'option "requestTimeoutMs" must be at least headersTimeoutMs',
    });
  });
});

describe('the default allowed hosts of a loopback bind', () => {
  test.each([['localhost'], ['[::1]']])('a request with Host %s is served', async (name) => {
    served = await serve(basicServer(), { ...ADMIT });
    const reply = await exchange(
      served.port,
      post(LIST.body, { ...LIST.headers, Host: `${name}:${served.port}` }),
    );
    expect(reply.status).toBe(200);
    reply.client.end();
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
    served = await serve(basicServer(), { ...ADMIT });
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
    served = await serve(basicServer(), { ...ADMIT, headersTimeoutMs: 50 });
    const client = new RawClient(served.port);
    client.send('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    await client.closed;
    // On a 1 s tick the first check could not come before 1,000 ms after serve().
    expect(performance.now() - start).toBeLessThan(900);
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
    served = await serve(basicServer(), {
      ...ADMIT,
      readTimeoutMs: 8_000,
      connectionTimeoutMs: 300,
      keepAliveTimeoutMs: 10_000,
    });
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
    served = await serve(basicServer(), {
      ...ADMIT,
      readTimeoutMs: 100,
      connectionTimeoutMs: 1_000,
      keepAliveTimeoutMs: 10_000,
    });
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
