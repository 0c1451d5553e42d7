/**
 * The first bytes of a plaintext connection to `serve()`: the sniffer holds only a prefix of the
 * HTTP/2 preface and hands anything else to the HTTP/1.1 parser, so every first byte gets an
 * answer: served, or refused by name. RFC 9112 §2.2: a server SHOULD ignore at least one empty
 * line (CRLF) before the request line; llhttp ignores any number, and a bare LF too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { afterEach, describe, expect, test } from 'vitest';
import { call, type EdgeMount, mountAt, newRecord, publishedDuring } from '../../support/edge-mounts.js';
import { RawClient } from '../../support/http-peer.js';
import { makeCertificate } from '../../support/tls-certificate.js';

let mounted: EdgeMount | undefined;
afterEach(async () => {
  await mounted?.close();
  mounted = undefined;
});

const MALFORMED_BODY =
  '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request: malformed HTTP request"}}';

async function readAll(port: number, bytes: string | Buffer): Promise<string> {
  const client = new RawClient(port);
  client.send(bytes);
  await client.until((text) => text.includes('"jsonrpc"'));
  client.end();
  return client.text();
}

describe.each(['serve()', 'node:http'] as const)('mounted as %s', (mount) => {
  test.each([
    ['one empty line (CRLF)', '\r\n'],
    ['a bare LF', '\n'],
    ['three empty lines', '\r\n\r\n\r\n'],
  ])('a call after %s is served', { tags: ['threat-model'] }, async (_name, lead) => {
    const record = newRecord();
    mounted = await mountAt(mount, record);
    const text = await readAll(mounted.port, lead + call(1, 'record', { n: 1 }));
    expect(text.startsWith('HTTP/1.1 200 OK\r\n')).toBe(true);
    expect(record.ran).toEqual(['record 1']);
  });

  test.each([
    ['a lower-case method', 'post /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'],
    ['a space before the method', ' POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'],
    ['a TLS ClientHello', Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01])],
    ['a preface with another tail', 'PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n'],
  ])(
    '%s is answered 400 malformed-request by name, never closed unanswered',
    {
      tags: ['threat-model'],
    },
    async (_name, bytes) => {
      const record = newRecord();
      mounted = await mountAt(mount, record);
      const port = mounted.port;
      let text = '';
      const published = await publishedDuring(async () => {
        const client = new RawClient(port);
        client.send(bytes);
        await client.closed;
        text = client.text();
      });
      expect(text.startsWith('HTTP/1.1 400 Bad Request\r\n')).toBe(true);
      expect(text.endsWith(`\r\n\r\n${MALFORMED_BODY}`)).toBe(true);
      expect(published).toEqual([{ rule: 'malformed-request', status: 400, code: -32600 }]);
      expect(record.logged).toEqual([{ kind: 'refusal', rule: 'malformed-request', status: 400 }]);
    },
  );
});

describe('serve({ http2: false })', () => {
  test('the HTTP/2 preface is answered SETTINGS then GOAWAY(HTTP_1_1_REQUIRED), named http2-not-served, and HTTP/1.1 is still served', {
    tags: ['threat-model'],
  }, async () => {
    const record = newRecord();
    mounted = await mountAt('serve()', record, {}, { http2: false });
    const port = mounted.port;
    let received = Buffer.alloc(0);
    const published = await publishedDuring(async () => {
      const client = new RawClient(port);
      client.send('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');
      await client.closed;
      received = Buffer.from(client.text(), 'latin1');
    });
    // An empty SETTINGS frame; then GOAWAY: 8 bytes, last stream 0, error code 0xd.
    expect(received.toString('hex')).toBe(
      '000000040000000000' + '000008070000000000' + '00000000' + '0000000d',
    );
    expect(published).toEqual([{ rule: 'http2-not-served', status: 505, code: 0 }]);
    expect(record.logged).toEqual([{ kind: 'refusal', rule: 'http2-not-served', status: 505 }]);
    const text = await readAll(port, call(1, 'record', { n: 1 }));
    expect(text.startsWith('HTTP/1.1 200 OK\r\n')).toBe(true);
  });
});

describe('serve({ tls }): ALPN decides, not the first bytes', () => {
  test.each([
    ['http2: false', false],
    ['http2: true', true],
  ] as const)(
    'with %s, the HTTP/2 preface on a connection ALPN settled as http/1.1 is answered 400 malformed-request by name',
    {
      tags: ['threat-model'],
    },
    async (_name, http2) => {
      const dir = mkdtempSync(join(tmpdir(), 'palisade-first-bytes-'));
      try {
        const { key, cert } = makeCertificate(dir, 'server');
        const record = newRecord();
        mounted = await mountAt('serve()', record, {}, { tls: { key, cert }, http2 });
        const port = mounted.port;
        let text = '';
        const published = await publishedDuring(async () => {
          const socket = tlsConnect({ host: '127.0.0.1', port, ca: cert, ALPNProtocols: ['http/1.1'] });
          socket.on('error', () => {});
          socket.setEncoding('latin1');
          socket.on('data', (chunk: string) => {
            text += chunk;
          });
          await new Promise((resolve) => socket.once('secureConnect', resolve));
          expect(socket.alpnProtocol).toBe('http/1.1');
          socket.write('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');
          await new Promise((resolve) => socket.once('close', resolve));
        });
        expect(text.startsWith('HTTP/1.1 400 Bad Request\r\n')).toBe(true);
        expect(text.endsWith(`\r\n\r\n${MALFORMED_BODY}`)).toBe(true);
        expect(published).toEqual([{ rule: 'malformed-request', status: 400, code: -32600 }]);
        expect(record.authorized).toEqual([]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
