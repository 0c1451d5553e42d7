/**
 * How many header lines a request may carry. Node's HTTP/1.1 server keeps only the first 1,023
 * name–value pairs by default and drops the rest without a word, so a second Host or a repeated
 * `Mcp-*` line placed after them would be invisible to every check; and `maxHeaderSize` counts
 * names and values only, so its 16,384 bytes can come as 16,000 lines of `a:`. The handler and
 * hostAllowList() refuse more than MAX_HEADER_LINES lines before reading any.
 */
import { once } from 'node:events';
import { createServer as createHttpServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, test } from 'vitest';
import { hostAllowList } from '../../../src/http/node/host-allow-list.js';
import { MAX_HEADER_LINES } from '../../../src/limits.js';
import {
  call,
  type EdgeMount,
  type MountName,
  mountAt,
  newRecord,
  publishedDuring,
} from '../../support/edge-mounts.js';
import { RawClient } from '../../support/http-peer.js';

let mounted: EdgeMount | undefined;
afterEach(async () => {
  await mounted?.close();
  mounted = undefined;
});

/** `count` filler lines, `x0: 1` to `x{count-1}: 1`. */
function filler(count: number): Record<string, string> {
  const lines: Record<string, string> = {};
  for (let index = 0; index < count; index += 1) lines[`x${index}`] = '1';
  return lines;
}

async function answer(port: number, bytes: string): Promise<{ text: string; published: unknown[] }> {
  let text = '';
  const published = await publishedDuring(async () => {
    const client = new RawClient(port);
    client.send(bytes);
    await client.until((received) => received.includes('"jsonrpc"'));
    text = client.text();
    client.end();
  });
  return { text, published };
}

/**
 * Node 22 and later refuse such a head in their parser, before any handler runs, on a server made
 * with Node's defaults: a bare 431 where nothing answers the parser's errors, Palisade's named
 * `head-too-large` where the handler is attached to the server (the Express mount here). Only
 * serve(), which sets its own server up, reaches `head-too-many-lines` there. Each way nothing is
 * hidden and nothing runs.
 */
const PARSER_REFUSES = Number(process.versions.node.split('.')[0]) >= 22;
const NODE_OWN_431 = 'HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n';
const HEAD_TOO_LARGE =
  '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request: the request head is too large"}}';

type Refuser = 'node' | 'parser, named' | 'palisade';

/** The answer a head of too many lines gets from whoever refuses it first. */
function expectTooManyLines(text: string, published: unknown[], refuser: Refuser): void {
  if (refuser === 'node') {
    expect(text).toBe(NODE_OWN_431);
    expect(published).toEqual([]);
    return;
  }
  if (refuser === 'parser, named') {
    expect(text.startsWith('HTTP/1.1 431 Request Header Fields Too Large\r\n')).toBe(true);
    expect(text.endsWith(`\r\n\r\n${HEAD_TOO_LARGE}`)).toBe(true);
    expect(published).toEqual([{ rule: 'head-too-large', status: 431, code: -32600 }]);
    return;
  }
  expect(text.startsWith('HTTP/1.1 431 Request Header Fields Too Large\r\n')).toBe(true);
  expect(text.endsWith(`\r\n\r\n${TOO_MANY}`)).toBe(true);
  expect(published).toEqual([{ rule: 'head-too-many-lines', status: 431, code: -32600 }]);
}

const TOO_MANY = `{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request: the request head has more than ${MAX_HEADER_LINES} header lines"}}`;

describe.each<MountName>(['node:http, plain', 'Express 5', 'serve()'])('mounted as %s', (mount) => {
  test('a second Host line after 1,030 others is never hidden: the request is refused 431 head-too-many-lines', {
    tags: ['threat-model'],
  }, async () => {
    const record = newRecord();
    mounted = await mountAt(mount, record);
    // A second key differing in case only: a second Host line, after the filler.
    const bytes = call(1, 'record', { n: 1 }, { ...filler(1_030), host: 'evil.example' });
    const { text, published } = await answer(mounted.port, bytes);
    const refuser: Refuser =
      !PARSER_REFUSES || mount === 'serve()' ? 'palisade' : mount === 'Express 5' ? 'parser, named' : 'node';
    expectTooManyLines(text, published, refuser);
    expect(record.ran).toEqual([]);
    expect(record.authorized).toEqual([]);
  });
});

describe('serve()', () => {
  test('a head of 1,000 lines (MAX_HEADER_LINES) is served, and one more is refused 431 before authorize', {
    tags: ['threat-model'],
  }, async () => {
    expect(MAX_HEADER_LINES).toBe(1_000);
    const record = newRecord();
    mounted = await mountAt('serve()', record);
    // call() writes 7 lines of its own.
    const served = await answer(mounted.port, call(1, 'record', { n: 1 }, filler(MAX_HEADER_LINES - 7)));
    expect(served.text.startsWith('HTTP/1.1 200 OK\r\n')).toBe(true);
    const refused = await answer(mounted.port, call(2, 'record', { n: 2 }, filler(MAX_HEADER_LINES - 6)));
    expect(refused.text.startsWith('HTTP/1.1 431 ')).toBe(true);
    expect(record.ran).toEqual(['record 1']);
    expect(record.authorized).toHaveLength(1);
  });

  test('16,000 lines of a: inside maxHeaderSize (64 KiB on the wire) are refused 431 before any check', {
    tags: ['threat-model'],
  }, async () => {
    const record = newRecord();
    mounted = await mountAt('serve()', record);
    const head = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n${'a:\r\n'.repeat(16_000)}Content-Length: 0\r\n\r\n`;
    expect(head.length).toBeGreaterThan(64_000);
    const { text } = await answer(mounted.port, head);
    expect(text.startsWith('HTTP/1.1 431 ')).toBe(true);
    expect(text.endsWith(`\r\n\r\n${TOO_MANY}`)).toBe(true);
    expect(record.authorized).toEqual([]);
  });
});

describe('Express 5: a route beside MCP behind hostAllowList()', () => {
  test('a second Host line after 1,030 others never reaches a route behind hostAllowList(): 431 head-too-many-lines', {
    tags: ['threat-model'],
  }, async () => {
    const ran: string[] = [];
    const app = express();
    app.use(hostAllowList());
    app.post('/other', (_req, res) => {
      ran.push('other');
      res.end('other');
    });
    // Node's default server, which keeps 1,023 name–value pairs and drops the rest.
    const http = createHttpServer(app as unknown as RequestListener);
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    const { port } = http.address() as AddressInfo;
    try {
      let head = 'POST /other HTTP/1.1\r\nHost: 127.0.0.1\r\n';
      for (let index = 0; index < 1_030; index += 1) head += `x${index}: 1\r\n`;
      head += 'Host: evil.example\r\nContent-Length: 0\r\n\r\n';
      const { text, published } = await answer(port, head);
      expectTooManyLines(text, published, PARSER_REFUSES ? 'node' : 'palisade');
      expect(ran).toEqual([]);
    } finally {
      http.closeAllConnections();
      http.close();
    }
  });
});
