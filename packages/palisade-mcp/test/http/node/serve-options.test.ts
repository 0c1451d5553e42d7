/**
 * `serve()`'s options as a host sees them: each refusal with its exact code and message, the binds
 * that go through (loopback names in any letter case, IPv6 with its URL bracketed, an explicit
 * port, deadlines that agree), and the Host names a loopback bind serves by default.
 */
import { describe, expect, test } from 'vitest';
import { type ServeOptions, type Serving, serve } from '../../../src/http/node/serve.js';
import { closeAfterEach } from '../../support/close-after-each.js';
import { ADMIT_ALL, basicServer, exchange, LIST, post } from '../../support/http-peer.js';

const { allowedHosts: _unused, ...ADMIT } = ADMIT_ALL;
const INVALID = 'PALISADE_ERR_INVALID_OPTION';

const closeLater = closeAfterEach();
/** The `serve()` the running test started, closed once it ends. */
let served: Serving | undefined;

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
    served = await closeLater(serve(basicServer(), { ...ADMIT, port }));
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
    served = await closeLater(serve(basicServer(), { ...ADMIT }));
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
    served = await closeLater(serve(basicServer(), { ...ADMIT }));
    const reply = await exchange(
      served.port,
      post(LIST.body, { ...LIST.headers, Host: `${name}:${served.port}` }),
    );
    expect(reply.status).toBe(200);
    reply.client.end();
  });
});
