/**
 * The key material `serve()` takes for HTTPS: strings, Buffers, arrays and PKCS#12 with its
 * passphrase; each malformed shape refused naming its option, OpenSSL's reason passed on; the TLS
 * versions admitted; ALPN settling http/1.1 for a client that offers only it. The certificate is
 * made for this run by `openssl` in a temporary directory: no key is kept in the repository.
 */
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type ServeOptions, type Serving, serve } from '../../../src/http/node/serve.js';
import { closeAfterEach } from '../../support/close-after-each.js';
import { ADMIT_ALL, basicServer } from '../../support/http-peer.js';
import { makeCertificate } from '../../support/tls-certificate.js';

const { allowedHosts: _unused, ...ADMIT } = ADMIT_ALL;
const INVALID = 'PALISADE_ERR_INVALID_OPTION';

const closeLater = closeAfterEach();
/** The `serve()` the running test started, closed once it ends. */
let served: Serving | undefined;

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
    served = await closeLater(serve(basicServer(), { ...ADMIT, tls: { key, cert } }));
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
