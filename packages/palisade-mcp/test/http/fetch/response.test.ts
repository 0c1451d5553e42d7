/**
 * The Response stream a fetch runtime pulls: backpressure as the runtime sees it, the drain
 * deadline that cuts a client who stops taking bytes (and only such a client), completion once the
 * result is taken, and a cancelled stream cancelling its request. The drain deadline is 15 s, so
 * these fake the timers (never the clock).
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createFetchHandler } from '../../../src/http/fetch/handler.js';
import { createServer, defineTool, type Server } from '../../../src/index.js';
import { SSE_DRAIN_TIMEOUT_MS } from '../../../src/limits.js';
import { abortOf, deferred } from '../../support/deferred.js';
import { FETCH_URL, fetchHandlerWith, listHeaders } from '../../support/fetch-peer.js';
import { ADMIT_ALL, LIST, modernRequest } from '../../support/http-peer.js';

afterEach(async () => {
  vi.useRealTimers();
});

describe('the fetch handler: the response stream a runtime pulls', () => {
  const SPEAK = modernRequest(1, 'tools/call', {
    name: 'speak',
    arguments: {},
    _meta: { progressToken: 'p' },
  });

  /** A tool that sends one progress event carrying `message`, then waits for `release` or its cancel. */
  function speaker(message: string): { server: Server; release: () => void; signal: Promise<AbortSignal> } {
    const released = deferred();
    const signal = deferred<AbortSignal>();
    const server = createServer({
      name: 'speak',
      version: '1',
      tools: [
        defineTool({
          name: 'speak',
          inputSchema: { type: 'object' },
          handler: async (_args, ctx) => {
            signal.resolve(ctx.signal);
            ctx.progress(1, undefined, message);
            await Promise.race([released.promise, abortOf(ctx.signal)]);
            return { content: [{ type: 'text', text: 'said' }] };
          },
        }),
      ],
    });
    return { server, release: () => released.resolve(), signal: signal.promise };
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
      new Request(FETCH_URL, {
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
    const handler = fetchHandlerWith({ onLog: (event) => logged.push(event) });
    const response = await handler(
      new Request(FETCH_URL, { method: 'POST', headers: listHeaders(), body: LIST.body }),
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
