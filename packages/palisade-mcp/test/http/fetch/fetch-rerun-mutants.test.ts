/**
 * The fetch handler's edges its second mutation run found open (docs/mutation-testing.md,
 * `http-fetch`): a body whose second chunk carries it past 1 MiB, a target carrying only a user
 * name or only a password, a client gone while its tool runs (before any head), and a client gone
 * while authorize or authorizeBody runs, for whom nothing further is read, asked or run. Each test
 * starts what it uses itself: Stryker's per-test coverage credits no test for a server started in
 * a hook.
 *
 * Stream cases call the handler with a Web `Request` whose body the test drives and read the
 * `Response` it returns, as a fetch runtime does; target cases go through @hono/node-server over a
 * real socket, which builds the Request's URL from an absolute-form target, userinfo and all.
 */
import { describe, expect, test } from 'vitest';
import { createFetchHandler } from '../../../src/http/fetch/handler.js';
import { createServer, defineTool } from '../../../src/index.js';
import { MAX_MESSAGE_BYTES } from '../../../src/limits.js';
import { closeAfterEach } from '../../support/close-after-each.js';
import { mountFetchHandler } from '../../support/fetch-peer.js';
import {
  ADMIT_ALL,
  basicServer,
  exchange,
  modernRequest,
  post,
  recordingServer,
} from '../../support/http-peer.js';

const closeLater = closeAfterEach();

const LIST = modernRequest(1, 'tools/list');
const URL_MCP = 'http://127.0.0.1/mcp';

/** LIST's headers with JSON Content-Type and Accept, as a Request's header record. */
function listHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...(LIST.headers as Record<string, string>),
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...extra,
  };
}

/** A tools/list POST whose body is `stream`, with no Content-Length. */
function streamedList(stream: ReadableStream<Uint8Array>): Request {
  return new Request(URL_MCP, {
    method: 'POST',
    headers: listHeaders(),
    body: stream,
    duplex: 'half',
  } as RequestInit);
}

/** LIST's body padded with trailing spaces to exactly `size` bytes: still one valid message. */
function paddedList(size: number): string {
  return LIST.body + ' '.repeat(size - Buffer.byteLength(LIST.body));
}

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

describe('the fetch handler: userinfo in an absolute-form target', () => {
  /** A tools/list whose target is absolute-form naming `authority`, with an allowed `Host`. */
  function absoluteForm(authority: string): string {
    return post(LIST.body, LIST.headers).replace(
      'POST /mcp HTTP/1.1',
      `POST http://${authority}/mcp HTTP/1.1`,
    );
  }

  test.each([
    ['a user name alone', 'a@127.0.0.1'],
    ['a password alone', ':b@127.0.0.1'],
  ])('a target carrying %s is refused 400, reporting no fault', async (_name, authority) => {
    const faults: string[] = [];
    const logged: unknown[] = [];
    const mounted = await closeLater(
      mountFetchHandler({
        onFault: (message) => faults.push(message),
        onLog: (event) => logged.push(event),
      }),
    );
    const reply = await exchange(mounted.port, absoluteForm(authority));
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid request: Host disagrees with the request target' },
    });
    expect(logged).toEqual([{ kind: 'refusal', rule: 'host-target-mismatch', status: 400 }]);
    expect(faults).toEqual([]);
    reply.client.end();
  });
});

/** `answer`, or a failure if it has not settled within a second: a Response never settled hangs the runtime. */
async function settled<T>(answer: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the Response never settled')), 1_000);
  });
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe('the fetch handler: a client gone before the answer’s head', () => {
  test('a client that leaves while its tool runs gets an empty 400 Response, and the tool is cancelled', async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    let cancelled!: () => void;
    const toolCancelled = new Promise<void>((resolve) => {
      cancelled = resolve;
    });
    const server = createServer({
      name: 'wait',
      version: '1',
      tools: [
        defineTool({
          name: 'wait',
          inputSchema: { type: 'object' },
          handler: async (_args, ctx) => {
            // Writes nothing, so no head is sent while the tool waits for its cancel.
            await new Promise<void>((resolve) => {
              ctx.signal.addEventListener('abort', () => resolve());
              started();
            });
            cancelled();
            return { content: [{ type: 'text', text: 'late' }] };
          },
        }),
      ],
    });
    const handler = createFetchHandler(server, ADMIT_ALL);
    const call = modernRequest(1, 'tools/call', { name: 'wait', arguments: {} });
    const leave = new AbortController();
    const answer = handler(
      new Request(URL_MCP, {
        method: 'POST',
        headers: listHeaders(call.headers as Record<string, string>),
        body: call.body,
        signal: leave.signal,
      }),
    );
    await running;
    // The runtime aborts the request's signal: the connection dropped mid-call.
    leave.abort();
    const response = await settled(answer);
    expect(response.status).toBe(400);
    expect(response.body).toBeNull();
    await toolCancelled;
  });
});

describe('the fetch handler: a client gone before the tool is run', () => {
  /** A server whose one tool records each call: nothing the host wrote runs for a client gone. */
  const RECORD = modernRequest(1, 'tools/call', { name: 'record', arguments: {} });

  function recordRequest(signal: AbortSignal): Request {
    return new Request(URL_MCP, {
      method: 'POST',
      headers: listHeaders(RECORD.headers as Record<string, string>),
      body: RECORD.body,
      signal,
    });
  }

  test('a client that leaves while authorize runs has its body left unread and authorizeBody never asked', async () => {
    const { server, calls } = recordingServer();
    const leave = new AbortController();
    const judged: string[] = [];
    const handler = createFetchHandler(server, {
      ...ADMIT_ALL,
      authorize: () => {
        // The runtime aborts the request's signal: the client disconnected during authorize.
        leave.abort();
        return { ok: true };
      },
      authorizeBody: (_request, bytes) => {
        judged.push(new TextDecoder().decode(bytes));
        return { ok: true };
      },
    });
    const request = recordRequest(leave.signal);
    const response = await handler(request);
    expect(response.status).toBe(400);
    expect(await response.text()).toBe('');
    expect(judged).toEqual([]);
    expect(request.bodyUsed).toBe(false);
    expect(calls).toEqual([]);
  });

  test('a client that leaves while authorizeBody judges its body is answered an empty 400 and its tool never runs', async () => {
    const { server, calls } = recordingServer();
    const leave = new AbortController();
    const handler = createFetchHandler(server, {
      ...ADMIT_ALL,
      authorizeBody: () => {
        leave.abort();
        return { ok: true };
      },
    });
    const response = await handler(recordRequest(leave.signal));
    expect(response.status).toBe(400);
    expect(await response.text()).toBe('');
    // Given a turn of the loop, a tool dispatched and then cancelled would have run by now.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toEqual([]);
  });
});
