/**
 * What Node's HTTP servers answer on their own, without calling a handler: a request without Host,
 * an `Expect` other than 100-continue, CONNECT, an Upgrade. Through `serve()` and through a server
 * the handler is attached to (`handler.attach`), each is a Palisade refusal: a JSON-RPC body with a
 * code and a message naming the rule, the refusal channel event, the log line, and no host code run.
 * The plain mount (`createServer(handler)` alone) shows what Node answers instead.
 */
import { once } from 'node:events';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { createHttpHandler } from '../../../src/http/node/handler.js';
import {
  call,
  type EdgeMount,
  mountAt,
  newRecord,
  publishedDuring,
  recordingHost,
  recordingOptions,
  statusLines,
  wait,
} from '../../support/edge-mounts.js';
import { H2Peer, headersFrame, postFields } from '../../support/h2-frames.js';
import { post, RawClient } from '../../support/http-peer.js';

let mounted: EdgeMount | undefined;
afterEach(async () => {
  await mounted?.close();
  mounted = undefined;
});

/** Everything the client reads until the server closes, and what was published meanwhile. */
async function closedAfter(port: number, bytes: string): Promise<{ text: string; published: unknown[] }> {
  let text = '';
  const published = await publishedDuring(async () => {
    const client = new RawClient(port);
    client.send(bytes);
    await client.closed;
    text = client.text();
  });
  return { text, published };
}

function bodyOf(text: string): string {
  return text.slice(text.indexOf('\r\n\r\n') + 4);
}

const ATTACHED = ['serve()', 'node:http'] as const;

describe.each(ATTACHED)('mounted as %s', (mount) => {
  test('an HTTP/1.1 request without Host is refused 400 host-missing by name, before authorize', {
    tags: ['threat-model'],
  }, async () => {
    const record = newRecord();
    mounted = await mountAt(mount, record);
    const { text, published } = await closedAfter(mounted.port, call(1, 'record', {}, { Host: undefined }));
    expect(text.startsWith('HTTP/1.1 400 Bad Request\r\n')).toBe(true);
    expect(text).toContain('connection: close');
    expect(bodyOf(text)).toBe(
      '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request: an HTTP/1.1 request must carry Host"}}',
    );
    expect(published).toEqual([{ rule: 'host-missing', status: 400, code: -32600 }]);
    expect(record.logged).toEqual([{ kind: 'refusal', rule: 'host-missing', status: 400 }]);
    expect(record.authorized).toEqual([]);
  });

  test('an Expect other than 100-continue is refused 417 expectation-failed by name, before authorize', {
    tags: ['threat-model'],
  }, async () => {
    const record = newRecord();
    mounted = await mountAt(mount, record);
    const { text, published } = await closedAfter(mounted.port, call(1, 'record', {}, { Expect: '200-ok' }));
    expect(text.startsWith('HTTP/1.1 417 Expectation Failed\r\n')).toBe(true);
    expect(text).toContain('connection: close');
    expect(bodyOf(text)).toBe(
      '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request: the only expectation served is 100-continue"}}',
    );
    expect(published).toEqual([{ rule: 'expectation-failed', status: 417, code: -32600 }]);
    expect(record.logged).toEqual([{ kind: 'refusal', rule: 'expectation-failed', status: 417 }]);
    expect(record.authorized).toEqual([]);
    expect(record.ran).toEqual([]);
  });

  test('CONNECT is refused 405 method-not-allowed by name with Allow: POST, where Node closes unanswered', {
    tags: ['threat-model'],
  }, async () => {
    const record = newRecord();
    mounted = await mountAt(mount, record);
    const { text, published } = await closedAfter(
      mounted.port,
      'CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n',
    );
    const body =
      '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request: only POST is served here"}}';
    expect(text).toBe(
      'HTTP/1.1 405 Method Not Allowed\r\nallow: POST\r\ncontent-type: application/json\r\n' +
        `content-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`,
    );
    expect(published).toEqual([{ rule: 'method-not-allowed', status: 405, code: -32600 }]);
    expect(record.logged).toEqual([{ kind: 'refusal', rule: 'method-not-allowed', status: 405 }]);
    expect(record.authorized).toEqual([]);
  });

  test('a CONNECT pipelined behind a call is refused after that call’s answer, which arrives whole', {
    tags: ['threat-model'],
  }, async () => {
    const record = newRecord();
    mounted = await mountAt(mount, record);
    const { text } = await closedAfter(
      mounted.port,
      `${call(1, 'slow', { n: 1, ms: 100 })}CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n`,
    );
    expect(statusLines(text)).toEqual(['HTTP/1.1 200 OK', 'HTTP/1.1 405 Method Not Allowed']);
    expect(record.ran).toEqual(['slow 1', 'slow 1 done']);
  });

  test('a POST asking to Upgrade is served as an ordinary request: the Upgrade is ignored', {
    tags: ['threat-model'],
  }, async () => {
    const record = newRecord();
    mounted = await mountAt(mount, record);
    const client = new RawClient(mounted.port);
    client.send(call(1, 'record', { n: 1 }, { Connection: 'Upgrade', Upgrade: 'h2c' }));
    const reply = await client.response();
    expect(reply.status).toBe(200);
    expect(record.ran).toEqual(['record 1']);
    client.end();
  });

  test('a call in the same write behind an Upgrade request is dropped by Node’s parser: never run, never answered', {
    tags: ['threat-model'],
  }, async () => {
    const record = newRecord();
    mounted = await mountAt(mount, record);
    const client = new RawClient(mounted.port);
    client.send(
      call(1, 'record', { n: 1 }, { Connection: 'Upgrade', Upgrade: 'h2c' }) + call(2, 'record', { n: 2 }),
    );
    await client.response();
    await wait(300);
    expect(statusLines(client.text())).toEqual(['HTTP/1.1 200 OK']);
    expect(record.ran).toEqual(['record 1']);
    expect(record.authorized).toHaveLength(1);
    client.end();
  });
});

describe('serve() over HTTP/2', () => {
  async function h2Refusal(fields: Array<[string, string]>): Promise<{
    statuses: number[];
    body: string;
    published: unknown[];
    record: ReturnType<typeof newRecord>;
  }> {
    const record = newRecord();
    mounted = await mountAt('serve()', record);
    const port = mounted.port;
    let statuses: number[] = [];
    let body = '';
    const published = await publishedDuring(async () => {
      const peer = new H2Peer(port);
      await peer.ready();
      peer.send(headersFrame(1, fields, { endStream: true }));
      await peer.streamEnd(1);
      statuses = peer.statuses(1);
      body = peer.body(1);
      peer.end();
    });
    return { statuses, body, published, record };
  }

  test('CONNECT is refused 405 method-not-allowed by name on its stream', {
    tags: ['threat-model'],
  }, async () => {
    const { statuses, body, published, record } = await h2Refusal([
      [':method', 'CONNECT'],
      [':authority', '127.0.0.1:443'],
    ]);
    expect(statuses).toEqual([405]);
    expect(body).toBe(
      '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request: only POST is served here"}}',
    );
    expect(published).toEqual([{ rule: 'method-not-allowed', status: 405, code: -32600 }]);
    expect(record.authorized).toEqual([]);
  });

  test('an Expect other than 100-continue is refused 417 expectation-failed by name on its stream', {
    tags: ['threat-model'],
  }, async () => {
    const { statuses, body, published, record } = await h2Refusal(postFields([['expect', '200-ok']]));
    expect(statuses).toEqual([417]);
    expect(JSON.parse(body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid request: the only expectation served is 100-continue' },
    });
    expect(published).toEqual([{ rule: 'expectation-failed', status: 417, code: -32600 }]);
    expect(record.authorized).toEqual([]);
  });
});

describe('mounted plainly: createServer(handler) with nothing attached', () => {
  test('Node answers a request without Host itself: a bare 400, nothing published, no host code run', {
    tags: ['threat-model'],
  }, async () => {
    const record = newRecord();
    mounted = await mountAt('node:http, plain', record);
    const { text, published } = await closedAfter(mounted.port, call(1, 'record', {}, { Host: undefined }));
    // Chunked, with no chunk: an empty body.
    expect(text).toMatch(
      /^HTTP\/1\.1 400 Bad Request\r\nConnection: close\r\nDate: [^\r]+\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n$/,
    );
    expect(published).toEqual([]);
    expect(record.authorized).toEqual([]);
  });

  test('Node answers an unknown Expect itself: a bare 417, nothing published, no host code run', {
    tags: ['threat-model'],
  }, async () => {
    const record = newRecord();
    mounted = await mountAt('node:http, plain', record);
    const port = mounted.port;
    let text = '';
    const published = await publishedDuring(async () => {
      const client = new RawClient(port);
      client.send(post('', { Expect: '200-ok', 'Content-Length': 0 }));
      await client.until((received) => received.endsWith('\r\n0\r\n\r\n'));
      text = client.text();
      client.end();
    });
    // Kept alive, chunked, with no chunk: an empty body.
    expect(text).toMatch(/^HTTP\/1\.1 417 Expectation Failed\r\n(?:[^\r]+\r\n)*\r\n0\r\n\r\n$/);
    expect(text).toContain('Connection: keep-alive');
    expect(published).toEqual([]);
    expect(record.authorized).toEqual([]);
  });

  test('Node closes a CONNECT without a byte, and publishes nothing', {
    tags: ['threat-model'],
  }, async () => {
    const record = newRecord();
    mounted = await mountAt('node:http, plain', record);
    const { text, published } = await closedAfter(
      mounted.port,
      'CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n',
    );
    expect(text).toBe('');
    expect(published).toEqual([]);
  });

  test('Node answers a malformed head with a bare 400 and publishes nothing', {
    tags: ['threat-model'],
  }, async () => {
    const record = newRecord();
    mounted = await mountAt('node:http, plain', record);
    const { text, published } = await closedAfter(
      mounted.port,
      'post /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
    );
    expect(text).toBe('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    expect(published).toEqual([]);
  });
});

describe('a host that sets Node’s maxRequestsPerSocket', () => {
  test('Node answers the request past maxRequestsPerSocket itself: a bare 503 after the answer that said close, no host code run', {
    tags: ['threat-model'],
  }, async () => {
    const record = newRecord();
    const handler = createHttpHandler(recordingHost(record), recordingOptions(record));
    const http = handler.attach(createHttpServer({ requireHostHeader: false }, handler));
    http.maxRequestsPerSocket = 1;
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    try {
      const { port } = http.address() as AddressInfo;
      let text = '';
      const published = await publishedDuring(async () => {
        const client = new RawClient(port);
        client.send(call(1, 'record', { n: 1 }) + call(2, 'record', { n: 2 }));
        await client.until((received) => received.endsWith('\r\n0\r\n\r\n'));
        text = client.text();
        client.end();
      });
      expect(statusLines(text)).toEqual(['HTTP/1.1 200 OK', 'HTTP/1.1 503 Service Unavailable']);
      expect(text).toMatch(/Connection: close\r\n\r\n\{"jsonrpc":"2\.0","id":1,/);
      expect(published).toEqual([]);
      expect(record.ran).toEqual(['record 1']);
      expect(record.authorized).toHaveLength(1);
    } finally {
      http.closeAllConnections();
      http.close();
    }
  });
});
