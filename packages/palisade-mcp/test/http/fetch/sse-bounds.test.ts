/**
 * The fetch handler's SSE answer to a client that stops reading: the runtime stops pulling the
 * response stream (@hono/node-server waits for its socket to drain), the bytes queue in the
 * stream, and the queue bound the node handler holds (limits.ts: MAX_SSE_QUEUED_BYTES 1,114,112)
 * cuts the response and aborts the handler. Real sockets throughout.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { once } from 'node:events';
import { afterEach, expect, test } from 'vitest';
import { createFetchHandler } from '../../../src/http/fetch/handler.js';
import { closeAfterEach } from '../../support/close-after-each.js';
import { listenFetch } from '../../support/fetch-peer.js';
import { ADMIT_ALL, post } from '../../support/http-peer.js';
import { floodCall, floodServer, silentClient } from '../../support/sse-flood.js';

const closeLater = closeAfterEach();

const OFFERED = 400;

const cleanups: Array<() => void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

test('the fetch handler cuts an SSE answer its client stopped reading at the queue bound, and aborts the handler', {
  tags: ['threat-model'],
  timeout: 30_000,
}, async () => {
  const events: unknown[] = [];
  const listener = (message: unknown): void => {
    events.push(message);
  };
  subscribe('palisade:http-refusal', listener);
  cleanups.push(() => unsubscribe('palisade:http-refusal', listener));

  const flood = floodServer({ limit: OFFERED });
  const mounted = await closeLater(listenFetch(createFetchHandler(flood.server, ADMIT_ALL)));
  const call = floodCall(1);
  const client = silentClient(mounted.port, post(call.body, call.headers));
  client.pause();
  cleanups.push(() => client.destroy());

  const outcome = await flood.finished;
  // 400 x 64 KiB (25 MiB) were on offer; the handler was stopped long before.
  expect(outcome.aborted).toBe(true);
  expect(outcome.emitted).toBeLessThan(OFFERED);
  expect(events).toContainEqual({ rule: 'sse-queue-full', status: 200, code: 0 });

  // What reached the client is a cut stream: no result, no chunked terminator.
  const chunks: Buffer[] = [];
  client.on('data', (chunk: Buffer) => chunks.push(chunk));
  client.resume();
  await once(client, 'close');
  const received = Buffer.concat(chunks).toString('latin1');
  expect(received.startsWith('HTTP/1.1 200 OK\r\n')).toBe(true);
  expect(received).not.toContain('"result"');
  expect(received.endsWith('0\r\n\r\n')).toBe(false);
});
