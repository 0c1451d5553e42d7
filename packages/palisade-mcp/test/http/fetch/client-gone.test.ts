/**
 * A fetch client that leaves, and a host that fails: a client gone while authorize,
 * authorizeBody or its tool runs gets an empty 400 and nothing further is read, asked or run; a
 * request the handler cannot read is reported to onFault and answered 500.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createFetchHandler } from '../../../src/http/fetch/handler.js';
import { createServer, defineTool } from '../../../src/index.js';
import { closeAfterEach } from '../../support/close-after-each.js';
import { abortOf, deferred } from '../../support/deferred.js';
import { FETCH_URL, fetchHandlerWith, listHeaders, mountFetchHandler } from '../../support/fetch-peer.js';
import {
  ADMIT_ALL,
  exchange,
  LIST,
  modernRequest,
  post,
  recordingServer,
  refusalBody,
} from '../../support/http-peer.js';

const closeLater = closeAfterEach();

afterEach(async () => {
  vi.useRealTimers();
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

describe('the fetch handler: a client gone, a host that fails', () => {
  test('a request whose client left while authorize ran is answered with an empty 400 and never served', async () => {
    const leave = new AbortController();
    const handler = fetchHandlerWith({
      authorize: () => {
        // The runtime aborts the request's signal: the client disconnected during authorize.
        leave.abort();
        return { ok: true };
      },
    });
    const response = await handler(
      new Request(FETCH_URL, {
        method: 'POST',
        headers: listHeaders(),
        body: LIST.body,
        signal: leave.signal,
      }),
    );
    expect(response.status).toBe(400);
    expect(await response.text()).toBe('');
  });

  // The last-resort catch, for a fault of ours: reached here with a Request-like object whose url
  // is no URL (a real Request always has one; a framework adapter may hand over its own object).
  test('a request the handler cannot read is reported to onFault with its error and answered 500', async () => {
    const faults: Array<[string, unknown]> = [];
    const handler = fetchHandlerWith({ onFault: (description, cause) => faults.push([description, cause]) });
    const unreadable = {
      url: 'not a url',
      method: 'POST',
      headers: new Headers(listHeaders()),
    } as unknown as Request;
    const response = await handler(unreadable);
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual(refusalBody(-32603, 'Internal error'));
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

describe('the fetch handler: a client gone before the answer’s head', () => {
  test('a client that leaves while its tool runs gets an empty 400 Response, and the tool is cancelled', async () => {
    const running = deferred();
    const toolCancelled = deferred();
    const server = createServer({
      name: 'wait',
      version: '1',
      tools: [
        defineTool({
          name: 'wait',
          inputSchema: { type: 'object' },
          handler: async (_args, ctx) => {
            // Writes nothing, so no head is sent while the tool waits for its cancel.
            const cancel = abortOf(ctx.signal);
            running.resolve();
            await cancel;
            toolCancelled.resolve();
            return { content: [{ type: 'text', text: 'late' }] };
          },
        }),
      ],
    });
    const handler = createFetchHandler(server, ADMIT_ALL);
    const call = modernRequest(1, 'tools/call', { name: 'wait', arguments: {} });
    const leave = new AbortController();
    const answer = handler(
      new Request(FETCH_URL, {
        method: 'POST',
        headers: listHeaders(call.headers as Record<string, string>),
        body: call.body,
        signal: leave.signal,
      }),
    );
    await running.promise;
    // The runtime aborts the request's signal: the connection dropped mid-call.
    leave.abort();
    const response = await settled(answer);
    expect(response.status).toBe(400);
    expect(response.body).toBeNull();
    await toolCancelled.promise;
  });
});

describe('the fetch handler: a client gone before the tool is run', () => {
  /** A server whose one tool records each call: nothing the host wrote runs for a client gone. */
  const RECORD = modernRequest(1, 'tools/call', { name: 'record', arguments: {} });

  function recordRequest(signal: AbortSignal): Request {
    return new Request(FETCH_URL, {
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
