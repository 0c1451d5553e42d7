/**
 * The fetch handler's SSE answer to a client that stops reading: the runtime stops pulling the
 * response stream (@hono/node-server waits for its socket to drain), the bytes queue in the
 * stream, and the queue bound the node handler holds (limits.ts: MAX_SSE_QUEUED_BYTES 1,114,112)
 * cuts the response and aborts the handler. Real sockets throughout.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, expect, test } from 'vitest';
import { createFetchHandler } from '../../../src/http/fetch/handler.js';
import { createServer, defineTool } from '../../../src/index.js';
import { listenFetch } from '../../support/fetch-peer.js';
import { ADMIT_ALL, type Mounted, modernRequest, post } from '../../support/http-peer.js';

const CHUNK = 'x'.repeat(65_536);
const OFFERED = 400;

let mounted: Mounted | undefined;
const cleanups: Array<() => void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  await mounted?.close();
  mounted = undefined;
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

  let finish!: (outcome: { aborted: boolean; emitted: number }) => void;
  const finished = new Promise<{ aborted: boolean; emitted: number }>((resolve) => {
    finish = resolve;
  });
  const server = createServer({
    name: 'flood',
    version: '1',
    tools: [
      defineTool({
        name: 'flood',
        inputSchema: { type: 'object' },
        handler: async (_args, ctx) => {
          let emitted = 0;
          // Paced past the progress rate limit (one per 10 ms once the burst is spent).
          while (emitted < OFFERED && !ctx.signal.aborted) {
            emitted += 1;
            ctx.progress(emitted, undefined, CHUNK);
            await sleep(11);
          }
          finish({ aborted: ctx.signal.aborted, emitted });
          return { content: [{ type: 'text', text: 'done' }] };
        },
      }),
    ],
  });
  mounted = await listenFetch(createFetchHandler(server, ADMIT_ALL));
  const call = modernRequest(1, 'tools/call', {
    name: 'flood',
    arguments: {},
    _meta: { progressToken: 'p' },
  });
  const client: Socket = connect(mounted.port, '127.0.0.1');
  client.on('error', () => {});
  client.pause();
  client.write(post(call.body, call.headers));
  cleanups.push(() => client.destroy());

  const outcome = await finished;
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
