/**
 * The body reader's buffered path, over real sockets: an HTTP/1 body whose every declared byte
 * Node's parser already holds, in a message it has completed, is taken at once (no promise, no tick), under the same deadline and
 * cap as a body read by listening, and the request stream still ends so the connection goes on.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, test } from 'vitest';
import type { BodyRead } from '../../../src/http/body-bytes.js';
import { readBody } from '../../../src/http/node/read-body.js';
import { declaredLength, post, RawClient } from '../../support/http-peer.js';

const CAP = 1_048_576;

interface Seen {
  readonly sync: boolean;
  readonly read: BodyRead;
  readonly ended: Promise<void>;
}

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

/**
 * A server that reads on the next turn of the event loop after the head, as Palisade's handler
 * does once an asynchronous `authorize` settles: by then the parser has pushed the body and
 * completed the message. (`wait: 'microtask'` reads one microtask after the head instead, as the
 * handler does after a synchronous `authorize`: the body is pushed, the message not yet complete.)
 * It answers 200 with the bytes read, or the reason there are none.
 */
async function listen(
  deadlineMs: number,
  seen: Seen[],
  wait: boolean | 'microtask' = true,
  cap = CAP,
): Promise<number> {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const ended = once(req, 'end').then(() => undefined);
    const go = async (): Promise<void> => {
      const pending = readBody(req, cap, performance.now() + deadlineMs, declaredLength(req));
      const sync = !(pending instanceof Promise);
      const read = await pending;
      seen.push({ sync, read, ended });
      res.end(read.ok ? read.bytes : read.reason);
    };
    if (wait === 'microtask') queueMicrotask(() => void go());
    else if (wait) setImmediate(() => void go());
    else void go();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

describe('a body the parser already holds whole', () => {
  test('is taken at once, not awaited, and holds exactly the bytes sent', async () => {
    const seen: Seen[] = [];
    const port = await listen(5_000, seen);
    const client = new RawClient(port);
    client.send(post('{"jsonrpc":"2.0","id":1,"method":"ping"}'));
    const reply = await client.response();
    expect(reply.body).toBe('{"jsonrpc":"2.0","id":1,"method":"ping"}');
    expect(seen[0]?.sync).toBe(true);
    client.end();
  });

  test('is read by listening while the parser has not completed the message yet', async () => {
    // Taken before the message completes, the parser's last step would run after the answer, and
    // Node 20.19 then cleared the keep-alive timeout (test/http/keep-alive-idle.test.ts).
    const seen: Seen[] = [];
    const port = await listen(5_000, seen, 'microtask');
    const client = new RawClient(port);
    client.send(post('{"jsonrpc":"2.0","id":1,"method":"ping"}'));
    const reply = await client.response();
    expect(reply.body).toBe('{"jsonrpc":"2.0","id":1,"method":"ping"}');
    expect(seen[0]?.sync).toBe(false);
    client.end();
  });

  test('still ends the request stream, so the next request on the connection is answered', async () => {
    const seen: Seen[] = [];
    const port = await listen(5_000, seen);
    const client = new RawClient(port);
    client.send(post('{"first":1}'));
    expect((await client.response()).body).toBe('{"first":1}');
    client.send(post('{"second":2}'));
    expect((await client.response()).body).toBe('{"second":2}');
    expect(seen.map((s) => s.sync)).toEqual([true, true]);
    await Promise.all(seen.map((s) => s.ended));
    client.end();
  });

  test('is refused as late when the deadline has passed, even though every byte is there', async () => {
    const seen: Seen[] = [];
    // A deadline already behind the clock when the bytes are taken.
    const port = await listen(-1, seen);
    const client = new RawClient(port);
    client.send(post('{"jsonrpc":"2.0","id":1,"method":"ping"}'));
    expect((await client.response()).body).toBe('timeout');
    expect(seen[0]).toMatchObject({ sync: true, read: { ok: false, reason: 'timeout' } });
    client.end();
  });

  test('is refused as too large when it holds more bytes than the cap', async () => {
    const seen: Seen[] = [];
    const port = await listen(5_000, seen, true, 8);
    const client = new RawClient(port);
    client.send(post('{"jsonrpc":"2.0","id":1,"method":"ping"}'));
    expect((await client.response()).body).toBe('too-large');
    expect(seen[0]).toMatchObject({ sync: true, read: { ok: false, reason: 'too-large' } });
    client.end();
  });
});

describe('a body still arriving', () => {
  test('is read by listening and answered once its last byte is in', async () => {
    const seen: Seen[] = [];
    // Read as soon as the head is parsed: the body is sent 50 ms later.
    const port = await listen(5_000, seen, false);
    const bytes = post('{"jsonrpc":"2.0","id":1,"method":"ping"}');
    const headEnd = bytes.indexOf('\r\n\r\n') + 4;
    const client = new RawClient(port);
    client.send(bytes.slice(0, headEnd));
    await new Promise((resolve) => setTimeout(resolve, 50));
    client.send(bytes.slice(headEnd));
    expect((await client.response()).body).toBe('{"jsonrpc":"2.0","id":1,"method":"ping"}');
    expect(seen[0]?.sync).toBe(false);
    client.end();
  });
});
