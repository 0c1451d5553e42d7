/**
 * Progress is rate-limited per request (limits.ts: PROGRESS_BURST 8, then one per
 * PROGRESS_MIN_INTERVAL_MS 10), held over a real socket: a handler reporting in a tight loop
 * cannot fill its client's stream.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { createHttpHandler } from '../../src/http/node/handler.js';
import { createServer, defineTool } from '../../src/index.js';
import { closeAfterEach } from '../support/close-after-each.js';
import { ADMIT_ALL, modernRequest, mount, post, RawClient } from '../support/http-peer.js';

const closeLater = closeAfterEach();

/** How long the first tight loop took: on a loaded machine a refill may fall inside it. */
let firstLoopMs = 0;
let secondLoopMs = 0;

async function progressValues(pauseMs: number): Promise<number[]> {
  const server = createServer({
    name: 'progress',
    version: '1',
    tools: [
      defineTool({
        name: 'loop',
        inputSchema: { type: 'object' },
        handler: async (_args, ctx) => {
          const started = performance.now();
          for (let step = 1; step <= 100; step += 1) ctx.progress(step, 200);
          firstLoopMs = performance.now() - started;
          await sleep(pauseMs);
          const resumed = performance.now();
          for (let step = 101; step <= 200; step += 1) ctx.progress(step, 200);
          secondLoopMs = performance.now() - resumed;
          return { content: [{ type: 'text', text: 'done' }] };
        },
      }),
    ],
  });
  const mounted = await closeLater(mount(createHttpHandler(server, ADMIT_ALL)));
  const client = new RawClient(mounted.port);
  const { body, headers } = modernRequest(1, 'tools/call', {
    name: 'loop',
    _meta: { progressToken: 'p' },
  });
  client.send(post(body, { ...headers, Connection: 'close' }));
  await client.closed;
  return [...client.text().matchAll(/"progress":(\d+)/g)].map((match) => Number(match[1]));
}

describe('progress rate limit', () => {
  test('a handler reporting 100 steps at once sends the first 8 and nothing more in that instant', {
    tags: ['threat-model'],
  }, async () => {
    const values = await progressValues(0);
    expect(values.slice(0, 8)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // Eight at once, then one more per 10 ms the loop itself took (none, on a quiet machine).
    const refills = Math.floor(firstLoopMs / 10);
    expect(values.filter((value) => value <= 100).length).toBeLessThanOrEqual(8 + refills);
  });

  test('after a pause the bucket has refilled: the next burst is sent, still strictly increasing', {
    tags: ['threat-model'],
  }, async () => {
    const values = await progressValues(200);
    const second = values.filter((value) => value > 100);
    expect(second.slice(0, 8)).toEqual([101, 102, 103, 104, 105, 106, 107, 108]);
    // A full bucket (8), at most one token more from the pause's rounding, and one per 10 ms of the loop.
    expect(second.length).toBeLessThanOrEqual(9 + Math.floor(secondLoopMs / 10));
  });
});
