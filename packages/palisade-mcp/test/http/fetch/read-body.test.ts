/**
 * How the fetch handler reads a request body as a runtime hands it over: a body stream that is
 * empty, fails, ends late or reuses its buffer, the 1 MiB bound counted over every chunk and held
 * against Content-Length, and the framing a runtime leaves in the headers.
 *
 * Stream cases call the handler with a Web `Request` whose body the test drives and read the
 * `Response` it returns, as a fetch runtime does; framing cases go through @hono/node-server over a
 * real socket. Each test starts what it uses itself.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createFetchHandler } from '../../../src/http/fetch/handler.js';
import { MAX_MESSAGE_BYTES } from '../../../src/limits.js';
import { closeAfterEach } from '../../support/close-after-each.js';
import { FETCH_URL, fetchHandlerWith, listHeaders, mountFetchHandler } from '../../support/fetch-peer.js';
import {
  ADMIT_ALL,
  basicServer,
  exchange,
  LIST,
  post,
  RawClient,
  refusalBody,
} from '../../support/http-peer.js';
import { BODY_CONSUMED } from '../../support/mount-checks.js';

const closeLater = closeAfterEach();

afterEach(async () => {
  vi.useRealTimers();
});

/** A POST of LIST's headers whose body is `stream`, read only as the handler pulls it. */
function streamed(stream: ReadableStream<Uint8Array>, init: RequestInit = {}): Request {
  return new Request(FETCH_URL, {
    method: 'POST',
    headers: listHeaders(),
    body: stream,
    duplex: 'half',
    ...init,
  } as RequestInit);
}

/** LIST's body padded with trailing spaces to exactly `size` bytes: still one valid message. */
function paddedList(size: number): string {
  return LIST.body + ' '.repeat(size - Buffer.byteLength(LIST.body));
}

function chunk(text: string): string {
  return `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
}

/** A tools/list POST whose body is `stream`, with no Content-Length. */
function streamedList(stream: ReadableStream<Uint8Array>): Request {
  return new Request(FETCH_URL, {
    method: 'POST',
    headers: listHeaders(),
    body: stream,
    duplex: 'half',
  } as RequestInit);
}

describe('the fetch handler reading a body stream', () => {
  test('a POST with no body at all is read as zero bytes and refused by the JSON reader with 400', async () => {
    const faults: string[] = [];
    const handler = fetchHandlerWith({ onFault: (description) => faults.push(description) });
    const response = await handler(new Request(FETCH_URL, { method: 'POST', headers: listHeaders() }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(refusalBody(-32700, 'Parse error: empty message'));
    expect(faults).toEqual([]);
  });

  test('a body stream that fails mid-body is answered with an empty 400, as a client gone, and is no fault of the host', async () => {
    const faults: string[] = [];
    const logged: unknown[] = [];
    const handler = fetchHandlerWith({
      onFault: (description) => faults.push(description),
      onLog: (event) => logged.push(event),
    });
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(LIST.body.slice(0, 10)));
      },
      pull(controller) {
        // The first piece has been taken: the connection now drops.
        controller.error(new Error('connection reset'));
      },
    });
    const response = await handler(streamed(stream));
    expect(response.status).toBe(400);
    expect(await response.text()).toBe('');
    expect(faults).toEqual([]);
    expect(logged).toEqual([]);
  });

  test('a body that ends after the read deadline, before any timer could run, is refused with 408', async () => {
    const handler = fetchHandlerWith({ readTimeoutMs: 20 });
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          // The runtime is busy past the whole deadline, then hands over the complete body at once:
          // the deadline has lapsed although its timer has not yet had a turn.
          const until = performance.now() + 40;
          while (performance.now() < until) {}
          controller.enqueue(new TextEncoder().encode(LIST.body));
          controller.close();
        },
      },
      { highWaterMark: 0 },
    );
    const response = await handler(streamed(stream));
    expect(response.status).toBe(408);
    expect(await response.json()).toEqual(
      refusalBody(-32600, 'Invalid request: the body did not arrive within the read deadline'),
    );
  });

  test('a body still arriving when the deadline’s timer fires is refused with 408, whatever the clock then reads', async () => {
    // Node's timers count whole milliseconds of the loop's clock, so a timer can fire a fraction of
    // a millisecond before the monotonic clock passes the deadline. Only the timers are faked here:
    // the timer fires while the clock is still far from the deadline, which must not matter.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const handler = fetchHandlerWith({ readTimeoutMs: 60_000 });
    let pulled!: () => void;
    const firstPiece = new Promise<void>((resolve) => {
      pulled = resolve;
    });
    let pulls = 0;
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulls += 1;
          // One valid prefix, then nothing more: the client stalls.
          if (pulls === 1) controller.enqueue(new TextEncoder().encode(LIST.body.slice(0, 10)));
          else pulled();
        },
      },
      { highWaterMark: 0 },
    );
    const answer = handler(streamed(stream));
    await firstPiece;
    vi.advanceTimersByTime(60_000);
    const response = await answer;
    expect(response.status).toBe(408);
    expect(await response.json()).toEqual(
      refusalBody(-32600, 'Invalid request: the body did not arrive within the read deadline'),
    );
  });

  test('answering a request leaves no timer of its read deadline behind', async () => {
    // A timer left pending would hold a host's event loop open until the deadline. Faked, so only
    // the timers this exchange set are counted.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const handler = fetchHandlerWith({ readTimeoutMs: 60_000 });
    const response = await handler(streamed(new Blob([LIST.body]).stream()));
    expect(response.status).toBe(200);
    await response.text();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('the fetch handler: the 1 MiB bound and framing', () => {
  test('a body of exactly 1 MiB with a Content-Length saying so is served', async () => {
    const mounted = await closeLater(mountFetchHandler());
    const reply = await exchange(mounted.port, post(paddedList(MAX_MESSAGE_BYTES), LIST.headers));
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({ id: 1, result: { tools: expect.any(Array) } });
    reply.client.end();
  });

  test('a chunked body of exactly 1 MiB, counted as it arrives, is served', async () => {
    const mounted = await closeLater(mountFetchHandler());
    const body = paddedList(MAX_MESSAGE_BYTES);
    const head = post('', { ...LIST.headers, 'Content-Length': undefined, 'Transfer-Encoding': 'chunked' });
    const client = new RawClient(mounted.port);
    client.send(head);
    for (let at = 0; at < body.length; at += 65_536) client.send(chunk(body.slice(at, at + 65_536)));
    client.send('0\r\n\r\n');
    const reply = await client.response();
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({ id: 1, result: { tools: expect.any(Array) } });
    client.end();
  });

  test('Content-Length together with Transfer-Encoding is refused with 411 before the body is read', {
    tags: ['threat-model'],
  }, async () => {
    // Node's parser refuses the pair before a handler runs; a runtime or proxy building its own
    // Request can pass both, and the handler must not pick one framing.
    const handler = fetchHandlerWith();
    const request = new Request(FETCH_URL, {
      method: 'POST',
      headers: listHeaders({
        'content-length': String(Buffer.byteLength(LIST.body)),
        'transfer-encoding': 'chunked',
      }),
      body: LIST.body,
    });
    const response = await handler(request);
    expect(response.status).toBe(411);
    expect(await response.json()).toEqual(
      refusalBody(-32600, 'Invalid request: Transfer-Encoding is not accepted; send Content-Length'),
    );
    expect(request.bodyUsed).toBe(false);
  });

  test('a body stream a framework locked without reading it is refused with 500, telling onFault the body was consumed', async () => {
    const faults: string[] = [];
    const logged: unknown[] = [];
    const handler = fetchHandlerWith({
      onFault: (description) => faults.push(description),
      onLog: (event) => logged.push(event),
    });
    const request = streamed(new Blob([LIST.body]).stream());
    // A middleware took a reader and kept it: nothing was read (bodyUsed is still false).
    request.body?.getReader();
    expect(request.bodyUsed).toBe(false);
    const response = await handler(request);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual(refusalBody(-32603, 'Internal error'));
    expect(faults).toEqual([BODY_CONSUMED]);
    expect(logged).toEqual([{ kind: 'refusal', rule: 'body-already-read', status: 500 }]);
  });
});

describe('the fetch handler: a stream that reuses its buffer', () => {
  test('is read as it was sent: each chunk is copied as it comes, none kept to be overwritten', async () => {
    const handler = createFetchHandler(basicServer(), ADMIT_ALL);
    const bytes = Buffer.from(paddedList(2 * 1_000));
    // One buffer of its own, refilled for every chunk, as an adapter over a reused receive buffer does.
    const reused = Buffer.alloc(1_000);
    const halves = [bytes.subarray(0, 1_000), bytes.subarray(1_000)];
    // No queue of its own (high-water mark 0): the buffer is refilled only when the reader asks.
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          const next = halves.shift();
          if (next === undefined) controller.close();
          else {
            next.copy(reused);
            controller.enqueue(reused);
          }
        },
      },
      { highWaterMark: 0 },
    );
    const response = await handler(streamedList(stream));
    expect(response.status).toBe(200);
    expect(JSON.parse(await response.text())).toMatchObject({ id: 1, result: { tools: expect.any(Array) } });
  });
});

describe('the fetch handler: the 1 MiB bound counted over every chunk', () => {
  test('a body of 1 MiB and one byte in two chunks, no Content-Length, is refused 413 and its stream cancelled', async () => {
    const handler = createFetchHandler(basicServer(), ADMIT_ALL);
    const bytes = new TextEncoder().encode(paddedList(MAX_MESSAGE_BYTES + 1));
    // Two halves, each under the bound: only their sum is over it.
    const halves = [bytes.subarray(0, 524_288), bytes.subarray(524_288)];
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          const next = halves.shift();
          if (next === undefined) controller.close();
          else controller.enqueue(next);
        },
        cancel() {
          cancelled = true;
        },
      },
      { highWaterMark: 0 },
    );
    const response = await handler(streamedList(stream));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid request: message exceeds 1048576 bytes' },
    });
    expect(cancelled).toBe(true);
  });
});
