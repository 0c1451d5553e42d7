/**
 * What `serve()`'s HTTP/2 server decides before any handler runs, with exact frames: malformed
 * requests (RFC 9113 §8.3), extended CONNECT, a broken session, streams opened after GOAWAY, and
 * the same server behind TLS. nghttp2 refuses the malformed ones itself with RST_STREAM or GOAWAY,
 * which no HTTP status or JSON-RPC body can travel in: no host code runs and nothing is published.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect as h2Connect } from 'node:http2';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { type EdgeMount, mountAt, newRecord, publishedDuring, wait } from '../../support/edge-mounts.js';
import {
  FLAG,
  frame,
  H2Peer,
  headersFrame,
  pingFrame,
  postFields,
  SETTING,
  TYPE,
} from '../../support/h2-frames.js';
import { modernRequest } from '../../support/http-peer.js';
import { makeCertificate } from '../../support/tls-certificate.js';

let mounted: EdgeMount | undefined;
afterEach(async () => {
  await mounted?.close();
  mounted = undefined;
});

const PROTOCOL_ERROR = 1;
const RECORD = modernRequest(1, 'tools/call', { name: 'record', arguments: { n: 1 } });

/** A whole `record` call on `streamId`: its HEADERS (with `fields`) and its one DATA frame. */
function recordCall(streamId: number, fields: Array<[string, string]> = postFields(headerFields())): Buffer {
  return Buffer.concat([
    headersFrame(streamId, fields),
    frame(TYPE.DATA, FLAG.END_STREAM, streamId, Buffer.from(RECORD.body)),
  ]);
}

function headerFields(): Array<[string, string]> {
  return Object.entries(RECORD.headers).map(([name, value]): [string, string] => [
    name.toLowerCase(),
    String(value),
  ]);
}

const MALFORMED: ReadonlyArray<readonly [string, Array<[string, string]>]> = [
  ['no :path', postFields(headerFields()).filter(([name]) => name !== ':path')],
  [
    'an unknown pseudo-header',
    [...postFields(headerFields()).slice(0, 4), [':foo', 'bar'], ...postFields(headerFields()).slice(4)],
  ],
  [
    'a pseudo-header after a regular field',
    [...postFields(headerFields()).filter(([name]) => name !== ':path'), [':path', '/mcp']],
  ],
  ['an upper-case field name', postFields([...headerFields(), ['X-Upper', '1']])],
  ['a connection-specific field', postFields([...headerFields(), ['connection', 'keep-alive']])],
  ['te other than trailers', postFields([...headerFields(), ['te', 'gzip']])],
  ['two :method fields', [[':method', 'POST'], ...postFields(headerFields())]],
  [
    'extended CONNECT (:protocol) without SETTINGS_ENABLE_CONNECT_PROTOCOL',
    [
      [':method', 'CONNECT'],
      [':protocol', 'websocket'],
      [':scheme', 'http'],
      [':path', '/mcp'],
      [':authority', '127.0.0.1'],
    ],
  ],
];

describe('serve() over HTTP/2 by prior knowledge', () => {
  test.each(MALFORMED)(
    'a request with %s is reset PROTOCOL_ERROR by nghttp2: nothing runs, nothing is published, and the session serves the next',
    { tags: ['threat-model'] },
    async (_name, fields) => {
      const record = newRecord();
      mounted = await mountAt('serve()', record);
      const port = mounted.port;
      let rst: number | undefined;
      let next: number[] = [];
      const published = await publishedDuring(async () => {
        const peer = new H2Peer(port);
        await peer.ready();
        peer.send(recordCall(1, fields));
        await peer.streamEnd(1);
        rst = peer.rstCode(1);
        peer.send(recordCall(3));
        await peer.streamEnd(3);
        next = peer.statuses(3);
        peer.end();
      });
      expect(rst).toBe(PROTOCOL_ERROR);
      expect(next).toEqual([200]);
      expect(record.authorized).toHaveLength(1);
      expect(record.ran).toEqual(['record 1']);
      expect(published).toEqual([]);
    },
  );

  test('a frame that breaks the session (DATA on stream 0) ends it with GOAWAY(PROTOCOL_ERROR) before any handler runs', {
    tags: ['threat-model'],
  }, async () => {
    const record = newRecord();
    mounted = await mountAt('serve()', record);
    const port = mounted.port;
    let away: ReturnType<H2Peer['goaway']>;
    const published = await publishedDuring(async () => {
      const peer = new H2Peer(port);
      await peer.ready();
      peer.send(Buffer.concat([frame(TYPE.DATA, 0, 0, Buffer.from('x')), recordCall(1)]));
      await peer.waitFor((f) => f.type === TYPE.GOAWAY);
      away = peer.goaway();
      peer.end();
    });
    expect(away?.code).toBe(PROTOCOL_ERROR);
    expect(record.authorized).toEqual([]);
    expect(published).toEqual([]);
  });

  test('a stream opened after the server’s GOAWAY is never handed to the handler', {
    tags: ['threat-model'],
  }, async () => {
    const record = newRecord();
    mounted = await mountAt('serve()', record, {}, { keepAliveTimeoutMs: 500 });
    const peer = new H2Peer(mounted.port);
    await peer.ready();
    peer.send(recordCall(1));
    await peer.streamEnd(1);
    // Idle past keepAliveTimeoutMs: the server sends GOAWAY naming the last stream it took: 1, or
    // 0 when a loaded machine let the idle deadline lapse before stream 1 arrived.
    await peer.waitFor((f) => f.type === TYPE.GOAWAY, 5_000);
    const last = peer.goaway()?.lastStreamId;
    expect([0, 1]).toContain(last);
    peer.send(recordCall(3));
    peer.send(pingFrame());
    await wait(300);
    expect(peer.statuses(3)).toEqual([]);
    // Only a stream at or below the GOAWAY's last stream ever ran.
    expect(record.ran).toEqual(last === 1 ? ['record 1'] : []);
    expect(record.authorized).toHaveLength(last === 1 ? 1 : 0);
    peer.end();
  });

  test('the server does not offer extended CONNECT in its SETTINGS', { tags: ['threat-model'] }, async () => {
    mounted = await mountAt('serve()', newRecord());
    const peer = new H2Peer(mounted.port);
    await peer.ready();
    const settings = peer.frames.find((f) => f.type === TYPE.SETTINGS && (f.flags & FLAG.ACK) === 0);
    const ids: number[] = [];
    for (let offset = 0; settings !== undefined && offset + 6 <= settings.payload.length; offset += 6)
      ids.push(settings.payload.readUInt16BE(offset));
    // SETTINGS_ENABLE_CONNECT_PROTOCOL is 0x8 (RFC 8441 §3).
    expect(ids).not.toContain(0x8);
    expect(ids).toContain(SETTING.MAX_CONCURRENT_STREAMS);
    peer.end();
  });
});

describe('serve() over TLS, HTTP/2 by ALPN', () => {
  test('CONNECT is refused 405 method-not-allowed by name, as over h2c', {
    tags: ['threat-model'],
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'palisade-edge-tls-'));
    try {
      const { key, cert } = makeCertificate(dir, 'server');
      const record = newRecord();
      mounted = await mountAt('serve()', record, {}, { tls: { key, cert } });
      const session = h2Connect(`https://127.0.0.1:${mounted.port}`, { ca: cert });
      session.on('error', () => {});
      let status = 0;
      let body = '';
      const published = await publishedDuring(async () => {
        const stream = session.request({ ':method': 'CONNECT', ':authority': '127.0.0.1:443' });
        stream.on('error', () => {});
        stream.on('response', (headers) => {
          status = Number(headers[':status']);
        });
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => {
          body += chunk;
        });
        await once(stream, 'close');
      });
      session.close();
      expect(status).toBe(405);
      expect(JSON.parse(body)).toEqual({
        jsonrpc: '2.0',
        error: { code: -32600, message: 'Invalid request: only POST is served here' },
      });
      expect(published).toEqual([{ rule: 'method-not-allowed', status: 405, code: -32600 }]);
      expect(record.authorized).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
