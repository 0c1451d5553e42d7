/**
 * Pipelined HTTP/1.1 requests on a kept-alive connection: each starts once the answers before it
 * are written (RFC 9112 §9.3.2 has them answered in order), so a connection runs one exchange at a
 * time however many requests it sends at once, and at most MAX_PIPELINED_REQUESTS wait.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { MAX_PIPELINED_REQUESTS } from '../../../src/limits.js';
import {
  call,
  type EdgeMount,
  MOUNTS,
  mountAt,
  newRecord,
  publishedDuring,
  statusLines,
  wait,
} from '../../support/edge-mounts.js';
import { modernRequest, post, RawClient } from '../../support/http-peer.js';

let mounted: EdgeMount | undefined;
afterEach(async () => {
  await mounted?.close();
  mounted = undefined;
});

/** The ids of the JSON-RPC answers read, in order. */
function answeredIds(text: string): number[] {
  return [...text.matchAll(/"id":(\d+)/g)].map((match) => Number(match[1]));
}

describe.each(MOUNTS)('mounted as %s', (mount) => {
  test('a call pipelined behind a slow one starts only once the slow answer is written, and both are answered in order', {
    tags: ['threat-model'],
  }, async () => {
    const record = newRecord();
    mounted = await mountAt(mount, record);
    const client = new RawClient(mounted.port);
    client.send(call(1, 'slow', { n: 1, ms: 150 }) + call(2, 'record', { n: 2 }));
    await client.until((text) => answeredIds(text).length === 2);
    expect(record.ran).toEqual(['slow 1', 'slow 1 done', 'record 2']);
    expect(answeredIds(client.text())).toEqual([1, 2]);
    expect(statusLines(client.text())).toEqual(['HTTP/1.1 200 OK', 'HTTP/1.1 200 OK']);
    client.end();
  });
});

describe('serve(): pipelining during a streamed answer, and its bound', () => {
  test('a call pipelined behind an event stream starts once the stream has ended', {
    tags: ['threat-model'],
  }, async () => {
    const record = newRecord();
    mounted = await mountAt('serve()', record);
    const client = new RawClient(mounted.port);
    // A progress token asks for the notifications that make the answer an event stream.
    const streamed = modernRequest(1, 'tools/call', {
      name: 'stream',
      arguments: { n: 1, ms: 150 },
      _meta: { progressToken: 'p1' },
    });
    client.send(post(streamed.body, streamed.headers) + call(2, 'record', { n: 2 }));
    await client.until((text) => answeredIds(text).includes(2));
    expect(record.ran).toEqual(['stream 1', 'stream 1 done', 'record 2']);
    expect(client.text()).toContain('content-type: text/event-stream');
    expect(client.text().indexOf('"id":1')).toBeLessThan(client.text().indexOf('"id":2'));
    client.end();
  });

  test('64 calls waiting behind a slow one (MAX_PIPELINED_REQUESTS) are all answered, in order', {
    tags: ['threat-model'],
  }, async () => {
    expect(MAX_PIPELINED_REQUESTS).toBe(64);
    const record = newRecord();
    mounted = await mountAt('serve()', record);
    const client = new RawClient(mounted.port);
    let bytes = call(0, 'slow', { n: 0, ms: 200 });
    for (let n = 1; n <= MAX_PIPELINED_REQUESTS; n += 1) bytes += call(n, 'record', { n });
    client.send(bytes);
    await client.until((text) => answeredIds(text).length === MAX_PIPELINED_REQUESTS + 1);
    expect(answeredIds(client.text())).toEqual(
      Array.from({ length: MAX_PIPELINED_REQUESTS + 1 }, (_, index) => index),
    );
    expect(record.ran.slice(0, 3)).toEqual(['slow 0', 'slow 0 done', 'record 1']);
    client.end();
  });

  test('a 65th call waiting closes the connection, named pipeline-too-deep, and none of the waiting calls runs', {
    tags: ['threat-model'],
  }, async () => {
    const record = newRecord();
    mounted = await mountAt('serve()', record);
    const port = mounted.port;
    let text = '';
    const published = await publishedDuring(async () => {
      const client = new RawClient(port);
      let bytes = call(0, 'slow', { n: 0, ms: 200 });
      for (let n = 1; n <= MAX_PIPELINED_REQUESTS + 1; n += 1) bytes += call(n, 'record', { n });
      client.send(bytes);
      await client.closed;
      await wait(400);
      text = client.text();
    });
    expect(text).toBe('');
    expect(record.ran).toEqual(['slow 0', 'slow 0 done']);
    expect(published).toEqual([{ rule: 'pipeline-too-deep', status: 429, code: 0 }]);
    expect(record.logged).toEqual([{ kind: 'refusal', rule: 'pipeline-too-deep', status: 429 }]);
  });
});
