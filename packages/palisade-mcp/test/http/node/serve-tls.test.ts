/**
 * `serve({ tls })`: HTTPS on one port with ALPN choosing HTTP/2 or HTTP/1.1, through real TLS
 * handshakes on 127.0.0.1. The certificate is made for this run by `openssl` in a temporary
 * directory: no key is kept in the repository.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect as h2Connect } from 'node:http2';
import { request as httpsRequest } from 'node:https';
import { connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { connect as tlsConnect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type ServeOptions, type Serving, serve } from '../../../src/http/node/serve.js';
import { ADMIT_ALL, basicServer, modernRequest } from '../../support/http-peer.js';
import { makeCertificate } from '../../support/tls-certificate.js';

const { allowedHosts: _unused, ...ADMIT } = ADMIT_ALL;
const ECHO = modernRequest(5, 'tools/call', { name: 'echo', arguments: { text: 'sealed' } });

let dir: string;
let key: string;
let cert: string;
let otherKey: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'palisade-tls-'));
  ({ key, cert } = makeCertificate(dir, 'server'));
  otherKey = makeCertificate(dir, 'other').key;
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function servingTls(options: Partial<ServeOptions> = {}): Promise<Serving> {
  return serve(basicServer(), { ...ADMIT, tls: { key, cert }, ...options });
}

function refusal(options: Record<string, unknown>): Promise<unknown> {
  return serve(basicServer(), { ...ADMIT, ...options } as unknown as ServeOptions).then(
    async (served) => {
      await served.close();
      return 'served';
    },
    (error: unknown) => ({ code: (error as { code?: unknown }).code, message: (error as Error).message }),
  );
}

describe('serve() over TLS', () => {
  test('its url is https and a client offering h2 by ALPN is served a tools/call over HTTP/2', {
    tags: ['threat-model'],
  }, async () => {
    const served = await servingTls();
    try {
      expect(served.url).toBe(`https://127.0.0.1:${served.port}`);
      const session = h2Connect(served.url, { ca: cert });
      session.on('error', () => {});
      const stream = session.request({
        ':method': 'POST',
        ':path': '/mcp',
        'content-type': 'application/json',
        accept: 'application/json',
        ...ECHO.headers,
      } as Record<string, string>);
      stream.end(ECHO.body);
      const [headers] = (await once(stream, 'response')) as [Record<string, unknown>];
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      expect(session.alpnProtocol).toBe('h2');
      expect(headers[':status']).toBe(200);
      expect(JSON.parse(Buffer.concat(chunks).toString('utf8'))).toMatchObject({
        id: 5,
        result: { content: [{ type: 'text', text: 'sealed' }] },
      });
      session.close();
    } finally {
      await served.close();
    }
  });

  test('a client offering only http/1.1 is served HTTP/1.1 on the same port', {
    tags: ['threat-model'],
  }, async () => {
    const served = await servingTls();
    try {
      const reply = await new Promise<{ status: number; version: string; body: string }>(
        (resolve, reject) => {
          const req = httpsRequest(
            `${served.url}/mcp`,
            {
              method: 'POST',
              ca: cert,
              headers: {
                'content-type': 'application/json',
                accept: 'application/json',
                ...(ECHO.headers as Record<string, string>),
              },
            },
            (res) => {
              let body = '';
              res.setEncoding('utf8').on('data', (text: string) => {
                body += text;
              });
              res.on('end', () => resolve({ status: res.statusCode ?? 0, version: res.httpVersion, body }));
            },
          );
          req.on('error', reject);
          req.end(ECHO.body);
        },
      );
      expect(reply.status).toBe(200);
      expect(reply.version).toBe('1.1');
      expect(JSON.parse(reply.body)).toMatchObject({ id: 5, result: { content: [{ text: 'sealed' }] } });
    } finally {
      await served.close();
    }
  });

  test('with http2: false the handshake settles http/1.1 even for a client preferring h2', {
    tags: ['threat-model'],
  }, async () => {
    const served = await servingTls({ http2: false });
    try {
      const socket = tlsConnect({
        host: '127.0.0.1',
        port: served.port,
        ca: cert,
        ALPNProtocols: ['h2', 'http/1.1'],
      });
      await once(socket, 'secureConnect');
      expect(socket.alpnProtocol).toBe('http/1.1');
      socket.destroy();
    } finally {
      await served.close();
    }
  });

  test('a connection that never completes its handshake is closed at sniffTimeoutMs: 300', {
    tags: ['threat-model'],
  }, async () => {
    const served = await servingTls({ sniffTimeoutMs: 300 });
    try {
      const socket = netConnect(served.port, '127.0.0.1');
      socket.on('error', () => {});
      await once(socket, 'connect');
      const start = performance.now();
      await once(socket, 'close');
      const elapsed = performance.now() - start;
      expect(elapsed).toBeGreaterThanOrEqual(250);
      expect(elapsed).toBeLessThan(5_000);
    } finally {
      await served.close();
    }
  });

  test('an :authority outside the loopback names is still answered 421 over TLS', {
    tags: ['threat-model'],
  }, async () => {
    const served = await servingTls();
    try {
      const session = h2Connect(served.url, { ca: cert, servername: 'localhost' });
      session.on('error', () => {});
      const stream = session.request({
        ':method': 'POST',
        ':path': '/mcp',
        ':authority': 'evil.example',
        'content-type': 'application/json',
        ...ECHO.headers,
      } as Record<string, string>);
      stream.end(ECHO.body);
      const [headers] = (await once(stream, 'response')) as [Record<string, unknown>];
      expect(headers[':status']).toBe(421);
      session.close();
    } finally {
      await served.close();
    }
  });
});

describe('serve() tls options', () => {
  test('a key that does not belong to the certificate is refused at serve(), naming tls', {
    tags: ['threat-model'],
  }, async () => {
    expect(await refusal({ tls: { key: otherKey, cert } })).toMatchObject({
      code: 'PALISADE_ERR_INVALID_OPTION',
      message: expect.stringMatching(/^option "tls" could not be loaded: /),
    });
  });

  test('tls without a certificate is refused, naming what it needs', { tags: ['threat-model'] }, async () => {
    expect(await refusal({ tls: { key } })).toMatchObject({
      code: 'PALISADE_ERR_INVALID_OPTION',
      message: 'option "tls" needs key and cert, or pfx',
    });
  });

  test('an unknown tls option is refused by name', { tags: ['threat-model'] }, async () => {
    expect(await refusal({ tls: { key, cert, rejectUnauthorised: true } })).toMatchObject({
      code: 'PALISADE_ERR_UNKNOWN_OPTION',
      message: expect.stringContaining('"tls.rejectUnauthorised"'),
    });
  });

  test('a minVersion below TLSv1.2 is refused', { tags: ['threat-model'] }, async () => {
    expect(await refusal({ tls: { key, cert, minVersion: 'TLSv1' } })).toMatchObject({
      code: 'PALISADE_ERR_INVALID_OPTION',
      message: expect.stringContaining('"tls.minVersion"'),
    });
  });
});
