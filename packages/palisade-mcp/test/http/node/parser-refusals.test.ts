/**
 * What Node's HTTP/1.1 parser (llhttp, strict) decides before any handler runs, as an attacker
 * would probe it: request-smuggling shapes, malformed lines, odd versions and targets, HTTP/1.0,
 * a FIN mid-head, a body still arriving at Node's own request deadline. For each: what the client
 * reads, whether `authorize` or a tool ran, and what the refusal channel saw. Through `serve()`
 * and through a server the handler is attached to, the parser's refusals are named; a request the
 * parser lets through meets the handler's own checks.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import {
  call,
  type EdgeMount,
  mountAt,
  newRecord,
  publishedDuring,
  statusLines,
  wait,
} from '../../support/edge-mounts.js';
import { RawClient } from '../../support/http-peer.js';

let mounted: EdgeMount | undefined;
afterEach(async () => {
  await mounted?.close();
  mounted = undefined;
});

const MALFORMED_BODY =
  '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request: malformed HTTP request"}}';
const HEAD = 'Host: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json\r\n';
const FOLLOWER = call(9, 'record', { n: 9 });

/** Writes `bytes`, reads until the server closes, and collects what was published meanwhile. */
async function closedAfter(port: number, bytes: string): Promise<{ text: string; published: unknown[] }> {
  let text = '';
  const published = await publishedDuring(async () => {
    const client = new RawClient(port);
    client.send(bytes);
    await client.closed;
    text = client.text();
    await wait(50);
  });
  return { text, published };
}

/** Shapes llhttp refuses outright, each followed in the same write by a valid call. */
const REFUSED_BY_THE_PARSER: ReadonlyArray<readonly [string, string]> = [
  [
    'Content-Length beside Transfer-Encoding (CL.TE)',
    `POST /mcp HTTP/1.1\r\n${HEAD}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
  ],
  [
    'two Content-Length lines that agree',
    `POST /mcp HTTP/1.1\r\n${HEAD}Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}`,
  ],
  [
    'two Content-Length lines that differ',
    `POST /mcp HTTP/1.1\r\n${HEAD}Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
  ],
  ['a Content-Length list', `POST /mcp HTTP/1.1\r\n${HEAD}Content-Length: 2, 2\r\n\r\n{}`],
  ['a negative Content-Length', `POST /mcp HTTP/1.1\r\n${HEAD}Content-Length: -1\r\n\r\n`],
  [
    'a Content-Length past 2^64',
    `POST /mcp HTTP/1.1\r\n${HEAD}Content-Length: 99999999999999999999999\r\n\r\n`,
  ],
  [
    'Transfer-Encoding chunked then identity',
    `POST /mcp HTTP/1.1\r\n${HEAD}Transfer-Encoding: chunked, identity\r\n\r\n`,
  ],
  [
    'two Transfer-Encoding lines',
    `POST /mcp HTTP/1.1\r\n${HEAD}Transfer-Encoding: chunked\r\nTransfer-Encoding: x\r\n\r\n`,
  ],
  ['a vertical tab before chunked', `POST /mcp HTTP/1.1\r\n${HEAD}Transfer-Encoding:\u000bchunked\r\n\r\n`],
  [
    'a folded (obs-fold) Transfer-Encoding',
    `POST /mcp HTTP/1.1\r\n${HEAD}Transfer-Encoding:\r\n chunked\r\n\r\n`,
  ],
  ['a space before the colon', `POST /mcp HTTP/1.1\r\n${HEAD}Transfer-Encoding : chunked\r\n\r\n`],
  ['bare LF line ends', 'POST /mcp HTTP/1.1\nHost: 127.0.0.1\nContent-Length: 0\n\n'],
  ['a bare CR', 'POST /mcp HTTP/1.1\rHost: 127.0.0.1\r\n\r\n'],
  ['a header line without a colon', `POST /mcp HTTP/1.1\r\n${HEAD}Garbage\r\nContent-Length: 0\r\n\r\n`],
  ['an empty header name', `POST /mcp HTTP/1.1\r\n${HEAD}: x\r\nContent-Length: 0\r\n\r\n`],
  ['a control byte in the target', `POST /m\u0001cp HTTP/1.1\r\n${HEAD}Content-Length: 0\r\n\r\n`],
  ['a space in the target', `POST /m cp HTTP/1.1\r\n${HEAD}Content-Length: 0\r\n\r\n`],
  ['HTTP/1.2', `POST /mcp HTTP/1.2\r\n${HEAD}Content-Length: 0\r\n\r\n`],
];

describe.each(['serve()', 'node:http'] as const)('mounted as %s', (mount) => {
  test.each(REFUSED_BY_THE_PARSER)(
    '%s is refused 400 malformed-request by name; nothing runs, not even the call behind it',
    { tags: ['threat-model'] },
    async (_name, bytes) => {
      const record = newRecord();
      mounted = await mountAt(mount, record);
      const { text, published } = await closedAfter(mounted.port, bytes + FOLLOWER);
      expect(text.startsWith('HTTP/1.1 400 Bad Request\r\n')).toBe(true);
      expect(text.endsWith(`\r\n\r\n${MALFORMED_BODY}`)).toBe(true);
      expect(published).toEqual([{ rule: 'malformed-request', status: 400, code: -32600 }]);
      expect(record.authorized).toEqual([]);
      expect(record.ran).toEqual([]);
    },
  );

  test.each([
    ['chunked', `POST /mcp HTTP/1.1\r\n${HEAD}Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n`],
    ['xchunked', `POST /mcp HTTP/1.1\r\n${HEAD}Transfer-Encoding: xchunked\r\n\r\n`],
    ['identity', `POST /mcp HTTP/1.1\r\n${HEAD}Transfer-Encoding: identity\r\n\r\n`],
    ['chunked over HTTP/1.0', `POST /mcp HTTP/1.0\r\n${HEAD}Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n`],
    [
      'chunked with a chunk extension past the parser’s bound',
      `POST /mcp HTTP/1.1\r\n${HEAD}Transfer-Encoding: chunked\r\n\r\n1;${'a'.repeat(20_000)}\r\nx\r\n0\r\n\r\n`,
    ],
  ])(
    'Transfer-Encoding %s reaches the handler and is refused 411 after authorize, its body unread: one refusal, nothing behind it runs',
    { tags: ['threat-model'] },
    async (_name, bytes) => {
      const record = newRecord();
      mounted = await mountAt(mount, record);
      const { text, published } = await closedAfter(mounted.port, bytes + FOLLOWER);
      expect(statusLines(text)).toEqual(['HTTP/1.1 411 Length Required']);
      expect(published).toEqual([{ rule: 'length-required', status: 411, code: -32600 }]);
      expect(record.authorized).toHaveLength(1);
      expect(record.ran).toEqual([]);
    },
  );

  test('an HTTP/0.9-looking request line is refused 505 http-version by name', {
    tags: ['threat-model'],
  }, async () => {
    const record = newRecord();
    mounted = await mountAt(mount, record);
    const { text, published } = await closedAfter(mounted.port, 'POST /mcp\r\n\r\n');
    expect(text.startsWith('HTTP/1.1 505 HTTP Version Not Supported\r\n')).toBe(true);
    expect(published).toEqual([{ rule: 'http-version', status: 505, code: -32600 }]);
    expect(record.authorized).toEqual([]);
  });

  test('an HTTP/1.0 call without keep-alive is answered with connection: close, and a call behind it never runs', {
    tags: ['threat-model'],
  }, async () => {
    const record = newRecord();
    mounted = await mountAt(mount, record);
    const http10 = call(1, 'record', { n: 1 }).replace('POST /mcp HTTP/1.1', 'POST /mcp HTTP/1.0');
    const { text, published } = await closedAfter(mounted.port, http10 + FOLLOWER);
    expect(statusLines(text)).toEqual(['HTTP/1.1 200 OK']);
    expect(text.toLowerCase()).toContain('connection: close');
    expect(record.ran).toEqual(['record 1']);
    expect(published).toEqual([]);
  });

  test('an HTTP/1.0 call asking for keep-alive is answered and the connection serves the next', {
    tags: ['threat-model'],
  }, async () => {
    const record = newRecord();
    mounted = await mountAt(mount, record);
    const client = new RawClient(mounted.port);
    const http10 = (n: number): string =>
      call(n, 'record', { n }, { Connection: 'keep-alive' }).replace(
        'POST /mcp HTTP/1.1',
        'POST /mcp HTTP/1.0',
      );
    client.send(http10(1));
    expect((await client.response()).status).toBe(200);
    client.send(http10(2));
    expect((await client.response()).status).toBe(200);
    expect(record.ran).toEqual(['record 1', 'record 2']);
    client.end();
  });

  test('a client that ends its connection mid-head is leaving, not refused: nothing is published', {
    tags: ['threat-model'],
  }, async () => {
    const record = newRecord();
    mounted = await mountAt(mount, record);
    const port = mounted.port;
    let text = 'unset';
    const published = await publishedDuring(async () => {
      const client = new RawClient(port);
      client.send('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      await wait(50);
      client.socket.end();
      await client.closed;
      text = client.text();
      await wait(50);
    });
    expect(text).toBe('');
    expect(published).toEqual([]);
  });
});

describe('asterisk-form targets', () => {
  test('OPTIONS * is refused 404 path-not-found by serve(), which serves /mcp only', {
    tags: ['threat-model'],
  }, async () => {
    mounted = await mountAt('serve()', newRecord());
    const { text } = await closedAfter(mounted.port, 'OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect(text.startsWith('HTTP/1.1 404 Not Found\r\n')).toBe(true);
  });

  test('OPTIONS * is refused 405 by a handler that reads no path', { tags: ['threat-model'] }, async () => {
    mounted = await mountAt('node:http', newRecord());
    const { text } = await closedAfter(mounted.port, 'OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect(text.startsWith('HTTP/1.1 405 Method Not Allowed\r\n')).toBe(true);
  });
});

describe("Node's own request deadline (requestTimeout)", () => {
  test('a body still arriving at requestTimeoutMs is refused 408 by name as its own answer', {
    tags: ['threat-model'],
  }, async () => {
    const record = newRecord();
    // The handler's own read deadline is longer, so Node's fires first.
    mounted = await mountAt(
      'serve()',
      record,
      { readTimeoutMs: 10_000 },
      { headersTimeoutMs: 300, requestTimeoutMs: 600 },
    );
    const client = new RawClient(mounted.port);
    const whole = call(1, 'record', { n: 1 });
    client.send(whole.slice(0, -5));
    await client.closed;
    expect(client.text().startsWith('HTTP/1.1 408 Request Timeout\r\n')).toBe(true);
    expect(client.text()).toContain('"message":"Invalid request: the request did not arrive in time"');
    expect(record.logged).toEqual([{ kind: 'refusal', rule: 'head-timeout', status: 408 }]);
    expect(record.ran).toEqual([]);
  });
});

describe('a process started with --insecure-http-parser', () => {
  test('still has serve() parse strictly: a NUL in a header value is refused 400 by name', {
    tags: ['threat-model'],
  }, async () => {
    const here = dirname(fileURLToPath(import.meta.url));
    const script = join(here, '../../fixtures/serve-insecure-flag.ts');
    const child = spawn(process.execPath, ['--insecure-http-parser', '--import', 'tsx', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const [line] = (await once(child.stdout, 'data')) as [Buffer];
      const port = Number(line.toString('utf8').trim());
      const client = new RawClient(port);
      client.send('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Note: a\u0000b\r\nContent-Length: 0\r\n\r\n');
      await client.closed;
      expect(client.text().startsWith('HTTP/1.1 400 Bad Request\r\n')).toBe(true);
      expect(client.text().endsWith(`\r\n\r\n${MALFORMED_BODY}`)).toBe(true);
    } finally {
      child.kill();
    }
  });
});
