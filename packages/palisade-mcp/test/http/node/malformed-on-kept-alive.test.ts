/**
 * A request Node's HTTP/1.1 parser refuses gets its named answer whenever no other answer is being
 * written on the connection: on a fresh connection, after a served request on a kept-alive one,
 * and after the answer to a request pipelined before it, never over that answer.
 */
import { afterEach, describe, expect, test } from 'vitest';
import {
  call,
  type EdgeMount,
  MOUNTS,
  mountAt,
  newRecord,
  publishedDuring,
  statusLines,
} from '../../support/edge-mounts.js';
import { RawClient } from '../../support/http-peer.js';

let mounted: EdgeMount | undefined;
afterEach(async () => {
  await mounted?.close();
  mounted = undefined;
});

const MALFORMED_BODY =
  '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request: malformed HTTP request"}}';
const TOO_LARGE_BODY =
  '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request: the request head is too large"}}';

/** A head with a NUL inside a header value, which llhttp refuses (HPE_INVALID_HEADER_TOKEN). */
const NUL_IN_VALUE = 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Note: a\u0000b\r\nContent-Length: 0\r\n\r\n';
/** A head of more than 16,384 bytes: over serve()'s maxHeaderSize and Node's default alike. */
const OVERSIZED_HEAD = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: ${'a'.repeat(17_000)}\r\nContent-Length: 0\r\n\r\n`;

const CASES: ReadonlyArray<readonly [string, string, string, string, number]> = [
  ['a NUL in a header value', NUL_IN_VALUE, 'HTTP/1.1 400 Bad Request', MALFORMED_BODY, 400],
  ['a head over 16 KiB', OVERSIZED_HEAD, 'HTTP/1.1 431 Request Header Fields Too Large', TOO_LARGE_BODY, 431],
];

/** What follows the first answer: the second status line's response, head and body. */
function secondAnswer(text: string): { statusLine: string; head: string; body: string } {
  const second = text.indexOf('HTTP/1.1 ', text.indexOf('HTTP/1.1 ') + 1);
  const rest = text.slice(second);
  const headEnd = rest.indexOf('\r\n\r\n');
  return {
    statusLine: rest.slice(0, rest.indexOf('\r\n')),
    head: rest.slice(0, headEnd),
    body: rest.slice(headEnd + 4),
  };
}

describe.each(MOUNTS)('mounted as %s', (mount) => {
  test.each(CASES)(
    'after a served request, a second head with %s gets its named answer, not a silent close',
    { tags: ['threat-model'] },
    async (_name, bytes, statusLine, body, status) => {
      const record = newRecord();
      mounted = await mountAt(mount, record);
      const client = new RawClient(mounted.port);
      client.send(call(1, 'record', { n: 1 }));
      const first = await client.response();
      expect(first.status).toBe(200);
      client.send(bytes);
      await client.closed;
      const answer = secondAnswer(client.text());
      expect(answer.statusLine).toBe(statusLine);
      expect(answer.head).toContain('connection: close');
      expect(answer.body).toBe(body);
      expect(record.ran).toEqual(['record 1']);
      expect(record.logged.map((event) => event.status)).toEqual([status]);
    },
  );

  test('a malformed head pipelined behind a call is answered after that call’s answer, which arrives whole', {
    tags: ['threat-model'],
  }, async () => {
    const record = newRecord();
    mounted = await mountAt(mount, record);
    const client = new RawClient(mounted.port);
    client.send(call(1, 'record', { n: 1 }) + NUL_IN_VALUE);
    await client.closed;
    expect(statusLines(client.text())).toEqual(['HTTP/1.1 200 OK', 'HTTP/1.1 400 Bad Request']);
    expect(client.text()).toContain('"id":1');
    expect(secondAnswer(client.text()).body).toBe(MALFORMED_BODY);
    expect(record.ran).toEqual(['record 1']);
  });
});

describe('serve(): the same bytes on a fresh connection', () => {
  test.each(CASES)(
    'a first head with %s gets the same named answer',
    { tags: ['threat-model'] },
    async (_name, bytes, statusLine, body) => {
      mounted = await mountAt('serve()', newRecord());
      const client = new RawClient(mounted.port);
      client.send(bytes);
      await client.closed;
      expect(client.text().startsWith(`${statusLine}\r\n`)).toBe(true);
      expect(client.text().endsWith(`\r\n\r\n${body}`)).toBe(true);
    },
  );
});

describe('serve(): a second head that stalls', () => {
  test('after a served request, a second head not complete within headersTimeoutMs: 500 is answered 408 head-timeout by name', {
    tags: ['threat-model'],
  }, async () => {
    const record = newRecord();
    mounted = await mountAt('serve()', record, {}, { headersTimeoutMs: 500 });
    const port = mounted.port;
    let text = '';
    const published = await publishedDuring(async () => {
      const client = new RawClient(port);
      client.send(call(1, 'record', { n: 1 }));
      expect((await client.response()).status).toBe(200);
      client.send('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      await client.closed;
      text = client.text();
    });
    const answer = secondAnswer(text);
    expect(answer.statusLine).toBe('HTTP/1.1 408 Request Timeout');
    expect(answer.head).toContain('connection: close');
    expect(answer.body).toBe(
      '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request: the request did not arrive in time"}}',
    );
    expect(published).toEqual([{ rule: 'head-timeout', status: 408, code: -32600 }]);
    expect(record.ran).toEqual(['record 1']);
  });
});
