/**
 * `serve({ routes })` at the connection's edge: a route's host function is host code, so what holds
 * for the MCP handler holds for it too. No route runs for a request pipelined behind an answer that
 * closed the connection, an HTTP/1.1 request without Host is refused by name before it runs, a head
 * of more lines than MAX_HEADER_LINES is refused before it runs, and a route asked for with
 * `Expect: 100-continue` is still the route's to answer. Raw bytes over a real socket.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { HttpLogEvent } from '../../../src/http/http-options.js';
import { type Serving, serve } from '../../../src/http/node/serve.js';
import {
  call,
  newRecord,
  recordingHost,
  recordingOptions,
  statusLines,
  wait,
} from '../../support/edge-mounts.js';
import { RawClient } from '../../support/http-peer.js';

let served: Serving | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

const DOCUMENT = '{"status":"ok"}';

/** serve() with one route, `/health`, counting every run of its function. */
async function withHealth(): Promise<{
  port: number;
  runs: string[];
  logged: HttpLogEvent[];
  ran: string[];
}> {
  const record = newRecord();
  const runs: string[] = [];
  served = await serve(recordingHost(record), {
    ...recordingOptions(record),
    routes: {
      '/health': {
        get: (request) => {
          runs.push(request.target);
          return { headers: { 'content-type': 'application/json' }, body: DOCUMENT };
        },
      },
    },
  });
  return { port: served.port, runs, logged: record.logged, ran: record.ran };
}

async function untilClosed(port: number, bytes: string): Promise<string> {
  const client = new RawClient(port);
  client.send(bytes);
  await client.closed;
  // Anything the host would still do for a pipelined request happens within a few turns.
  await wait(100);
  return client.text();
}

const HEALTH = 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';

describe('serve({ routes })', () => {
  test('a route never runs for a request pipelined behind an MCP refusal that closes the connection', {
    tags: ['threat-model'],
  }, async () => {
    const { port, runs } = await withHealth();
    const text = await untilClosed(
      port,
      call(1, 'record', {}, { Origin: 'http://evil.example' }) + HEALTH.repeat(20),
    );
    expect(statusLines(text)).toEqual(['HTTP/1.1 403 Forbidden']);
    expect(runs).toEqual([]);
  });

  test('a call never runs for a request pipelined behind a route refusal that closes the connection', {
    tags: ['threat-model'],
  }, async () => {
    const { port, runs, ran } = await withHealth();
    const refused = 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://evil.example\r\n\r\n';
    const text = await untilClosed(port, refused + call(1, 'record', { n: 1 }) + HEALTH);
    expect(statusLines(text)).toEqual(['HTTP/1.1 403 Forbidden']);
    expect(runs).toEqual([]);
    expect(ran).toEqual([]);
  });

  test('an HTTP/1.1 route request without Host is refused 400 host-missing before its function runs', {
    tags: ['threat-model'],
  }, async () => {
    const { port, runs, logged } = await withHealth();
    const text = await untilClosed(port, 'GET /health HTTP/1.1\r\n\r\n');
    expect(text.startsWith('HTTP/1.1 400 Bad Request\r\n')).toBe(true);
    expect(
      text.endsWith(
        '\r\n\r\n{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request: an HTTP/1.1 request must carry Host"}}',
      ),
    ).toBe(true);
    expect(logged).toEqual([{ kind: 'refusal', rule: 'host-missing', status: 400 }]);
    expect(runs).toEqual([]);
  });

  test('an HTTP/1.0 route request without Host is refused 421 host-not-allowed: no name on the list is given', {
    tags: ['threat-model'],
  }, async () => {
    const { port, runs, logged } = await withHealth();
    const text = await untilClosed(port, 'GET /health HTTP/1.0\r\n\r\n');
    expect(text.startsWith('HTTP/1.1 421 Misdirected Request\r\n')).toBe(true);
    expect(logged.map((event) => event.kind === 'refusal' && event.rule)).toEqual(['host-not-allowed']);
    expect(runs).toEqual([]);
  });

  test('a route request of more than 1,000 header lines is refused 431 head-too-many-lines before its function runs', {
    tags: ['threat-model'],
  }, async () => {
    const { port, runs, logged } = await withHealth();
    let head = 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n';
    for (let index = 0; index < 1_000; index += 1) head += `x${index}: 1\r\n`;
    const text = await untilClosed(port, `${head}\r\n`);
    expect(text.startsWith('HTTP/1.1 431 Request Header Fields Too Large\r\n')).toBe(true);
    expect(logged).toEqual([{ kind: 'refusal', rule: 'head-too-many-lines', status: 431 }]);
    expect(runs).toEqual([]);
  });

  test('a route asked for with Expect: 100-continue is answered by the route, not the MCP endpoint', {
    tags: ['threat-model'],
  }, async () => {
    const { port, runs } = await withHealth();
    const client = new RawClient(port);
    client.send('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\n\r\n');
    await client.until((text) => text.endsWith(DOCUMENT));
    expect(statusLines(client.text())).toEqual(['HTTP/1.1 200 OK']);
    expect(runs).toEqual(['/health']);
    client.end();
  });
});
