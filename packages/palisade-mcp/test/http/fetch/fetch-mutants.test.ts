/**
 * The fetch handler's edges that fetch-handler.test.ts leaves open: a bodiless POST, a body stream
 * that fails or ends late, the exact 1 MiB bound, Content-Length with Transfer-Encoding, a body a
 * framework locked, a client gone before the answer, a throwing onLog, the mirrored headers whose
 * ", " joins are undone, the request authorize is handed, and the response stream's backpressure
 * and drain deadline as a runtime pulling it sees them. Written for the mutants of
 * src/http/fetch*.ts that the `http-fetch` group left alive (docs/mutation-testing.md).
 *
 * Stream cases call the handler with a Web `Request` (a `ReadableStream` body the test drives) and
 * read the `Response` it returns, as a fetch runtime does; the drain deadline is 15 s, so those
 * fake the timers (never the clock). Framing cases go through @hono/node-server over a real socket.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createFetchHandler } from '../../../src/http/fetch/handler.js';
import type { HttpHandlerOptions } from '../../../src/http/node/handler.js';
import { createServer, defineTool, type Server } from '../../../src/index.js';
import { MAX_MESSAGE_BYTES, SSE_DRAIN_TIMEOUT_MS } from '../../../src/limits.js';
import { closeAfterEach } from '../../support/close-after-each.js';
import { mountFetchHandler } from '../../support/fetch-peer.js';
import { ADMIT_ALL, basicServer, exchange, modernRequest, post, RawClient } from '../../support/http-peer.js';
import { BODY_CONSUMED } from '../../support/mount-checks.js';

const closeLater = closeAfterEach();

const LIST = modernRequest(1, 'tools/list');
const URL_MCP = 'http://127.0.0.1/mcp';

afterEach(async () => {
  vi.useRealTimers();
});

function refusal(code: number, message: string): unknown {
  return { jsonrpc: '2.0', error: { code, message } };
}

function handlerWith(options: Partial<HttpHandlerOptions> = {}): (request: Request) => Promise<Response> {
  return createFetchHandler(basicServer(), { ...ADMIT_ALL, ...options });
}

/** LIST's headers with JSON Content-Type and Accept, as a Request's header record. */
function listHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...(LIST.headers as Record<string, string>),
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...extra,
  };
}

/** A POST of LIST's headers whose body is `stream`, read only as the handler pulls it. */
function streamed(stream: ReadableStream<Uint8Array>, init: RequestInit = {}): Request {
  return new Request(URL_MCP, {
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

describe('the fetch handler reading a body stream', () => {
  test('a POST with no body at all is read as zero bytes and refused by the JSON reader with 400', async () => {
    const faults: string[] = [];
    const handler = handlerWith({ onFault: (description) => faults.push(description) });
    const response = await handler(new Request(URL_MCP, { method: 'POST', headers: listHeaders() }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(refusal(-32700, 'Parse error: empty message'));
    expect(faults).toEqual([]);
  });

  test('a body stream that fails mid-body is answered with an empty 400, as a client gone, and is no fault of the host', async () => {
    const faults: string[] = [];
    const logged: unknown[] = [];
    const handler = handlerWith({
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
    const handler = handlerWith({ readTimeoutMs: 20 });
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
      refusal(-32600, 'Invalid request: the body did not arrive within the read deadline'),
    );
  });

  test('a body still arriving when the deadline’s timer fires is refused with 408, whatever the clock then reads', async () => {
    // Node's timers count whole milliseconds of the loop's clock, so a timer can fire a fraction of
    // a millisecond before the monotonic clock passes the deadline. Only the timers are faked here:
    // the timer fires while the clock is still far from the deadline, which must not matter.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const handler = handlerWith({ readTimeoutMs: 60_000 });
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
      refusal(-32600, 'Invalid request: the body did not arrive within the read deadline'),
    );
  });

  test('answering a request leaves no timer of its read deadline behind', async () => {
    // A timer left pending would hold a host's event loop open until the deadline. Faked, so only
    // the timers this exchange set are counted.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const handler = handlerWith({ readTimeoutMs: 60_000 });
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
    const handler = handlerWith();
    const request = new Request(URL_MCP, {
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
      refusal(-32600, 'Invalid request: Transfer-Encoding is not accepted; send Content-Length'),
    );
    expect(request.bodyUsed).toBe(false);
  });

  test('a body stream a framework locked without reading it is refused with 500, telling onFault the body was consumed', async () => {
    const faults: string[] = [];
    const logged: unknown[] = [];
    const handler = handlerWith({
      onFault: (description) => faults.push(description),
      onLog: (event) => logged.push(event),
    });
    const request = streamed(new Blob([LIST.body]).stream());
    // A middleware took a reader and kept it: nothing was read (bodyUsed is still false).
    request.body?.getReader();
    expect(request.bodyUsed).toBe(false);
    const response = await handler(request);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual(refusal(-32603, 'Internal error'));
    expect(faults).toEqual([BODY_CONSUMED]);
    expect(logged).toEqual([{ kind: 'refusal', rule: 'body-already-read', status: 500 }]);
  });
});

describe('the fetch handler: a client gone, a host that fails', () => {
  test('a request whose client left while authorize ran is answered with an empty 400 and never served', async () => {
    const leave = new AbortController();
    const handler = handlerWith({
      authorize: () => {
        // The runtime aborts the request's signal: the client disconnected during authorize.
        leave.abort();
        return { ok: true };
      },
    });
    const response = await handler(
      new Request(URL_MCP, { method: 'POST', headers: listHeaders(), body: LIST.body, signal: leave.signal }),
    );
    expect(response.status).toBe(400);
    expect(await response.text()).toBe('');
  });

  // The last-resort catch, for a fault of ours: reached here with a Request-like object whose url
  // is no URL (a real Request always has one; a framework adapter may hand over its own object).
  test('a request the handler cannot read is reported to onFault with its error and answered 500', async () => {
    const faults: Array<[string, unknown]> = [];
    const handler = handlerWith({ onFault: (description, cause) => faults.push([description, cause]) });
    const unreadable = {
      url: 'not a url',
      method: 'POST',
      headers: new Headers(listHeaders()),
    } as unknown as Request;
    const response = await handler(unreadable);
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual(refusal(-32603, 'Internal error'));
    expect(faults).toEqual([['the fetch handler failed while answering', expect.any(TypeError)]]);
  });

  test('a refusal is sent as Content-Type: application/json', async () => {
    const mounted = await closeLater(mountFetchHandler());
    const reply = await exchange(mounted.port, post(LIST.body, { ...LIST.headers, Host: 'evil.example' }));
    expect(reply.status).toBe(421);
    expect(reply.headers['content-type']).toBe('application/json');
    reply.client.end();
  });
});

describe('the fetch handler: the mirrored headers, whose joined lines are split again', () => {
  async function twoLines(name: string, value: string): Promise<{ status: number; body: unknown }> {
    const mounted = await closeLater(mountFetchHandler());
    const reply = await exchange(mounted.port, post(LIST.body, { ...LIST.headers, [name]: [value, value] }));
    reply.client.end();
    return { status: reply.status, body: JSON.parse(reply.body) };
  }

  test('two MCP-Protocol-Version lines are refused as a repeat with 400 and -32020', {
    tags: ['threat-model'],
  }, async () => {
    expect(await twoLines('MCP-Protocol-Version', '2026-07-28')).toEqual({
      status: 400,
      body: {
        jsonrpc: '2.0',
        id: 1,
        error: {
          code: -32020,
          message: 'Header mismatch: MCP-Protocol-Version is repeated; it must appear once',
        },
      },
    });
  });

  test('two Mcp-Method lines are refused as a repeat with 400 and -32020', {
    tags: ['threat-model'],
  }, async () => {
    expect(await twoLines('Mcp-Method', 'tools/list')).toEqual({
      status: 400,
      body: {
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32020, message: 'Header mismatch: Mcp-Method is repeated; it must appear once' },
      },
    });
  });

  test('two Mcp-Name lines are refused as a repeat with 400 and -32020', {
    tags: ['threat-model'],
  }, async () => {
    const mounted = await closeLater(mountFetchHandler());
    const call = modernRequest(2, 'tools/call', { name: 'echo', arguments: { text: 'hi' } });
    const reply = await exchange(
      mounted.port,
      post(call.body, { ...call.headers, 'Mcp-Name': ['echo', 'echo'] }),
    );
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32020, message: 'Header mismatch: Mcp-Name is repeated; it must appear once' },
    });
    reply.client.end();
  });

  test('authorize sees a header that is not mirrored as the one line it came in, ", " and all', async () => {
    const seen: unknown[] = [];
    const mounted = await closeLater(
      mountFetchHandler({
        authorize: (request) => {
          seen.push(request.rawHeaders);
          return { ok: true };
        },
      }),
    );
    const reply = await exchange(mounted.port, post(LIST.body, { ...LIST.headers, 'X-Trace': 'a, b' }));
    expect(reply.status).toBe(200);
    const raw = seen[0] as readonly string[];
    const pairs = raw.flatMap((value, at) => (at % 2 === 0 ? [[value, raw[at + 1]]] : []));
    expect(pairs.filter(([name]) => name === 'x-trace' || name === 'accept')).toEqual([
      ['accept', 'application/json, text/event-stream'],
      ['x-trace', 'a, b'],
    ]);
    reply.client.end();
  });
});

describe('the fetch handler: the request authorize sees', () => {
  /** What authorize was handed for one request of these raw bytes, its answer's status with it. */
  async function seenBy(bytes: string): Promise<{ status: number; headers: unknown; rawHeaders: unknown }> {
    let seen: { headers: unknown; rawHeaders: unknown } | undefined;
    const mounted = await closeLater(
      mountFetchHandler({
        authorize: (request) => {
          seen = { headers: request.headers, rawHeaders: request.rawHeaders };
          return { ok: true };
        },
      }),
    );
    const reply = await exchange(mounted.port, bytes);
    reply.client.end();
    return { status: reply.status, headers: seen?.headers, rawHeaders: seen?.rawHeaders };
  }

  /** The name/value pairs of `rawHeaders` under `name`. */
  function linesOf(rawHeaders: unknown, name: string): string[][] {
    const raw = rawHeaders as readonly string[];
    return raw.flatMap((value, at) => (at % 2 === 0 && value === name ? [[value, raw[at + 1] ?? '']] : []));
  }

  test('authorize sees two Mcp-Method lines as two raw lines, joined by ", " in headers, before the repeat is refused', async () => {
    const seen = await seenBy(
      post(LIST.body, { ...LIST.headers, 'Mcp-Method': ['tools/list', 'tools/list'] }),
    );
    expect(seen.status).toBe(400);
    expect((seen.headers as Record<string, string>)['mcp-method']).toBe('tools/list, tools/list');
    expect(linesOf(seen.rawHeaders, 'mcp-method')).toEqual([
      ['mcp-method', 'tools/list'],
      ['mcp-method', 'tools/list'],
    ]);
  });

  test('authorize sees each Set-Cookie line of a request, the one header a Request keeps apart', async () => {
    const seen = await seenBy(post(LIST.body, { ...LIST.headers, 'Set-Cookie': ['a=1', 'b=2'] }));
    expect(seen.status).toBe(200);
    expect((seen.headers as Record<string, string>)['set-cookie']).toBe('a=1, b=2');
    expect(linesOf(seen.rawHeaders, 'set-cookie')).toEqual([
      ['set-cookie', 'a=1'],
      ['set-cookie', 'b=2'],
    ]);
  });

  test('authorize’s rawHeaders are the name/value pairs, in the order a Headers object gives them, and nothing else', async () => {
    const seen = await seenBy(post(LIST.body, LIST.headers));
    // A Headers object iterates its names sorted, so that is the order authorize sees.
    expect(seen.rawHeaders).toEqual([
      'accept',
      'application/json, text/event-stream',
      'content-length',
      String(Buffer.byteLength(LIST.body)),
      'content-type',
      'application/json',
      'host',
      '127.0.0.1',
      'mcp-method',
      'tools/list',
      'mcp-protocol-version',
      '2026-07-28',
    ]);
  });
});

describe('the fetch handler: the response stream a runtime pulls', () => {
  const SPEAK = modernRequest(1, 'tools/call', {
    name: 'speak',
    arguments: {},
    _meta: { progressToken: 'p' },
  });

  /** A tool that sends one progress event carrying `message`, then waits for `release` or its cancel. */
  function speaker(message: string): { server: Server; release: () => void; signal: Promise<AbortSignal> } {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let handOver!: (signal: AbortSignal) => void;
    const signal = new Promise<AbortSignal>((resolve) => {
      handOver = resolve;
    });
    const server = createServer({
      name: 'speak',
      version: '1',
      tools: [
        defineTool({
          name: 'speak',
          inputSchema: { type: 'object' },
          handler: async (_args, ctx) => {
            handOver(ctx.signal);
            ctx.progress(1, undefined, message);
            const cancelled = new Promise<void>((resolve) =>
              ctx.signal.addEventListener('abort', () => resolve()),
            );
            await Promise.race([released, cancelled]);
            return { content: [{ type: 'text', text: 'said' }] };
          },
        }),
      ],
    });
    return { server, release, signal };
  }

  /** The SSE frame of the speaker's progress event, byte for byte. */
  function frameOf(message: string): string {
    const notification = {
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 'p', progress: 1, message },
    };
    return `event: message\ndata: ${JSON.stringify(notification)}\n\n`;
  }

  /** A message whose frame is exactly `bytes` long. */
  function messageFor(bytes: number): string {
    return 'm'.repeat(bytes - Buffer.byteLength(frameOf('')));
  }

  /** The speaker behind the fetch handler, its SSE answer started; timers faked, the clock not. */
  async function speak(
    message: string,
  ): Promise<{ response: Response; logged: unknown[]; release: () => void; signal: AbortSignal }> {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const logged: unknown[] = [];
    const { server, release, signal } = speaker(message);
    const handler = createFetchHandler(server, { ...ADMIT_ALL, onLog: (event) => logged.push(event) });
    const response = await handler(
      new Request(URL_MCP, {
        method: 'POST',
        headers: listHeaders(SPEAK.headers as Record<string, string>),
        body: SPEAK.body,
      }),
    );
    return { response, logged, release, signal: await signal };
  }

  test('an SSE answer whose client takes nothing of a 16 KiB event is cut at the drain deadline, the stream erroring', async () => {
    const { response, logged, signal } = await speak(messageFor(16_384));
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    await vi.advanceTimersByTimeAsync(SSE_DRAIN_TIMEOUT_MS);
    expect(logged).toEqual([{ kind: 'refusal', rule: 'sse-drain-timeout', status: 200 }]);
    expect(signal.aborted).toBe(true);
    await expect(response.text()).rejects.toThrow('palisade cut the response: its client did not read it');
  });

  test('an SSE answer whose client stopped reading with less than 16 KiB queued is not cut while the tool is quiet', async () => {
    // Far below 16 KiB, so the keep-alive comments written meanwhile do not cross it either.
    const message = messageFor(1_000);
    const { response, logged, release, signal } = await speak(message);
    await vi.advanceTimersByTimeAsync(2 * SSE_DRAIN_TIMEOUT_MS);
    expect(logged).toEqual([]);
    expect(signal.aborted).toBe(false);
    release();
    const text = await response.text();
    expect(text.startsWith(frameOf(message))).toBe(true);
    expect(text).toContain('"result"');
  });

  test('an SSE answer whose client takes every byte is not cut while the tool is quiet', async () => {
    const { response, logged, release, signal } = await speak(messageFor(20_000));
    // The 20,000 bytes were queued before the client read: the writer now waits for them to be taken.
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(first.value?.byteLength).toBe(20_000);
    // From here the client reads whatever comes (keep-alive comments, then the result).
    let rest = '';
    const drained = (async () => {
      for (let step = await reader.read(); !step.done; step = await reader.read())
        rest += new TextDecoder().decode(step.value);
    })();
    await vi.advanceTimersByTimeAsync(3 * SSE_DRAIN_TIMEOUT_MS);
    expect(logged).toEqual([]);
    expect(signal.aborted).toBe(false);
    release();
    await drained;
    expect(rest).toContain('"result"');
    // Delivered in full: no deadline is left waiting on it, and the request was never cancelled.
    await vi.advanceTimersByTimeAsync(3 * SSE_DRAIN_TIMEOUT_MS);
    expect(logged).toEqual([]);
    expect(signal.aborted).toBe(false);
  });

  test('an SSE answer is complete once its client has taken the result, whether or not it reads again', async () => {
    const { response, logged, release, signal } = await speak('working');
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    // A read waits when the result is written: the result goes straight to it, and the client
    // then reads no more (it never asks for the end of the stream).
    const last = reader.read();
    release();
    expect(new TextDecoder().decode((await last).value)).toContain('"result"');
    await vi.advanceTimersByTimeAsync(3 * SSE_DRAIN_TIMEOUT_MS);
    expect(logged).toEqual([]);
    expect(signal.aborted).toBe(false);
  });

  test('a JSON answer its client never reads is cut at the drain deadline and logged', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const logged: unknown[] = [];
    const handler = handlerWith({ onLog: (event) => logged.push(event) });
    const response = await handler(
      new Request(URL_MCP, { method: 'POST', headers: listHeaders(), body: LIST.body }),
    );
    expect(response.status).toBe(200);
    await vi.advanceTimersByTimeAsync(SSE_DRAIN_TIMEOUT_MS);
    expect(logged).toEqual([{ kind: 'refusal', rule: 'json-drain-timeout', status: 200 }]);
  });

  test('a client that cancels the SSE stream cancels the 2026-07-28 request at once', async () => {
    const { response, signal } = await speak('working');
    expect(signal.aborted).toBe(false);
    await response.body?.cancel();
    expect(signal.aborted).toBe(true);
  });
});
