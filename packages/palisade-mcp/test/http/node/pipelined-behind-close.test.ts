/**
 * RFC 9112 §9.6: a server that answers with `Connection: close` must not process any later request
 * on that connection. Node's HTTP/1.1 server calls its request listener for every request it
 * parses, pipelined ones included, and only holds their answers back; so each request here is one
 * write of a refused request followed by valid `tools/call`s, and what is counted is what the host
 * ran: `authorize` calls and tool runs, on every mount docs/mounts.md shows for the node handler.
 */
import { once } from 'node:events';
import { createServer as createHttpServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, test } from 'vitest';
import { hostAllowList } from '../../../src/http/node/host-allow-list.js';
import { SSE_DRAIN_TIMEOUT_MS } from '../../../src/limits.js';
import {
  call,
  type EdgeMount,
  type HostRecord,
  MOUNTS,
  mountAt,
  newRecord,
  publishedDuring,
  statusLines,
  wait,
} from '../../support/edge-mounts.js';
import { post, RawClient } from '../../support/http-peer.js';

let mounted: EdgeMount | undefined;
afterEach(async () => {
  await mounted?.close();
  mounted = undefined;
});

/** Twenty valid calls of `record`, numbered from 1, as one string of bytes. */
const TWENTY_CALLS = Array.from({ length: 20 }, (_, index) =>
  call(index + 1, 'record', { n: index + 1 }),
).join('');

/**
 * Each refusal that answers before the body with `Connection: close`, as the first request of the
 * write, with the status the client reads and how many `authorize` calls answering it takes.
 */
const REFUSED_FIRST: ReadonlyArray<readonly [string, string, number, number]> = [
  ['a Host not allowed', call(100, 'record', {}, { Host: 'evil.example' }), 421, 0],
  ['a foreign Origin', call(100, 'record', {}, { Origin: 'http://evil.example' }), 403, 0],
  ['no Host line', call(100, 'record', {}, { Host: undefined }), 400, 0],
  ['a Content-Type other than JSON', call(100, 'record', {}, { 'Content-Type': 'text/plain' }), 415, 1],
  ['an authorize refusal', call(100, 'record', {}, { 'X-Refuse': '1' }), 401, 1],
  ['an Accept without JSON', call(100, 'record', {}, { Accept: 'text/html' }), 406, 1],
  ['a GET', post('', { 'Content-Length': undefined }, 'GET'), 405, 0],
];

async function sendAll(port: number, bytes: string): Promise<RawClient> {
  const client = new RawClient(port);
  client.send(bytes);
  await client.closed;
  // Anything the host would still do for a pipelined request happens within a few turns.
  await wait(100);
  return client;
}

describe.each(MOUNTS)('mounted as %s', (mount) => {
  test.each(REFUSED_FIRST)(
    'twenty calls pipelined behind %s are never run: the client reads one answer and the connection closes',
    { tags: ['threat-model'] },
    async (_name, refused, status, authorizeCalls) => {
      const record: HostRecord = newRecord();
      mounted = await mountAt(mount, record);
      const client = await sendAll(mounted.port, refused + TWENTY_CALLS);
      expect(statusLines(client.text())).toHaveLength(1);
      expect(client.text().startsWith(`HTTP/1.1 ${status} `)).toBe(true);
      expect(record.ran).toEqual([]);
      expect(record.authorized).toHaveLength(authorizeCalls);
    },
  );

  test('a call pipelined behind the client’s own Connection: close is never run, and the first is answered whole', {
    tags: ['threat-model'],
  }, async () => {
    const record: HostRecord = newRecord();
    mounted = await mountAt(mount, record);
    const client = await sendAll(
      mounted.port,
      call(1, 'record', { n: 1 }, { Connection: 'close' }) + call(2, 'record', { n: 2 }),
    );
    expect(statusLines(client.text())).toEqual(['HTTP/1.1 200 OK']);
    expect(client.text()).toContain('"id":1');
    expect(record.ran).toEqual(['record 1']);
    expect(record.authorized).toHaveLength(1);
  });
});

describe('serve(), which answers MCP at /mcp only', () => {
  test.each([
    ['a path other than /mcp', call(100, 'record').replace('POST /mcp ', 'POST /other '), 404, 0],
  ] as const)(
    'twenty calls pipelined behind %s are never run: the client reads one answer and the connection closes',
    { tags: ['threat-model'] },
    async (_name, refused, status, authorizeCalls) => {
      const record: HostRecord = newRecord();
      mounted = await mountAt('serve()', record);
      const client = await sendAll(mounted.port, refused + TWENTY_CALLS);
      expect(statusLines(client.text())).toEqual([`HTTP/1.1 ${status} Not Found`]);
      expect(record.ran).toEqual([]);
      expect(record.authorized).toHaveLength(authorizeCalls);
    },
  );
});

describe('serve(): what a request behind a close leaves behind', () => {
  test('no answer is left waiting for the drain deadline: past it, only the one refusal was ever published', {
    tags: ['threat-model'],
  }, async () => {
    const record: HostRecord = newRecord();
    mounted = await mountAt('serve()', record);
    const port = mounted.port;
    const published = await publishedDuring(async () => {
      await sendAll(port, call(100, 'record', {}, { Origin: 'http://evil.example' }) + TWENTY_CALLS);
      // An answer written for nobody would be cut here, published as json-drain-timeout.
      await wait(SSE_DRAIN_TIMEOUT_MS + 1_000);
    });
    // The channel is the process's: with files sharing a worker it also carries other servers'
    // late refusals, so what this server did is read from its own log.
    expect(published).toContainEqual({ rule: 'origin-not-allowed', status: 403, code: -32600 });
    expect(record.logged).toEqual([{ kind: 'refusal', rule: 'origin-not-allowed', status: 403 }]);
    expect(record.ran).toEqual([]);
  });
});

describe('Express 5: the routes behind hostAllowList()', () => {
  test('an Express route behind hostAllowList() never runs for a request pipelined behind its 421', {
    tags: ['threat-model'],
  }, async () => {
    const ran: string[] = [];
    const app = express();
    app.use(hostAllowList());
    app.post('/other', (_req, res) => {
      ran.push('other');
      res.end('other');
    });
    const http = createHttpServer(app as unknown as RequestListener);
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    const { port } = http.address() as AddressInfo;
    try {
      const other = 'POST /other HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n';
      const client = await sendAll(port, other.replace('127.0.0.1', 'evil.example') + other.repeat(20));
      expect(statusLines(client.text())).toEqual(['HTTP/1.1 421 Misdirected Request']);
      expect(ran).toEqual([]);
    } finally {
      http.closeAllConnections();
      http.close();
    }
  });
});
