/**
 * A server that floods its client: its one tool, `flood`, emits 64 KiB progress notifications as
 * fast as the rate limit lets it (one per 10 ms once the burst is spent, with the default pace),
 * which a client that stops reading turns into a growing queue on the server's side. The SSE
 * bounds of both handlers (MAX_SSE_QUEUED_BYTES, SSE_DRAIN_TIMEOUT_MS) are tested against it.
 */
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { createServer, defineTool, type Server } from '../../src/index.js';
import { type Json, modernRequest } from './http-peer.js';

/** One progress message's payload: 64 KiB. */
export const FLOOD_CHUNK = 'x'.repeat(65_536);

export interface FloodOptions {
  /** Most messages emitted; default: no bound but the client. */
  readonly limit?: number;
  /** What the server's side has queued, read after each emit (for `maxQueued`). */
  readonly queued?: () => number;
  /** Checked after each emit: once it holds, the tool stops emitting and waits (see `go`). */
  readonly enough?: () => boolean;
  /** Once `enough` holds, the tool returns when this resolves; without it, when its signal aborts. */
  readonly go?: Promise<void>;
  /** Awaited after each emit; default 11 ms, past the progress rate limit. */
  readonly pace?: () => Promise<void>;
}

export interface Flood {
  readonly server: Server;
  /** Whether the tool's signal was aborted, and how many messages it emitted, once it stops. */
  readonly finished: Promise<{ aborted: boolean; emitted: number }>;
  /** The largest `queued()` seen after an emit. */
  readonly maxQueued: () => number;
}

export function floodServer({
  limit = Number.POSITIVE_INFINITY,
  queued = () => 0,
  enough = () => false,
  go,
  pace = () => sleep(11),
}: FloodOptions = {}): Flood {
  let maxQueued = 0;
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
          while (emitted < limit && !ctx.signal.aborted) {
            emitted += 1;
            ctx.progress(emitted, undefined, FLOOD_CHUNK);
            maxQueued = Math.max(maxQueued, queued());
            await pace();
            if (enough()) {
              if (go !== undefined) await go;
              else if (!ctx.signal.aborted) await once(ctx.signal, 'abort');
              break;
            }
          }
          finish({ aborted: ctx.signal.aborted, emitted });
          return { content: [{ type: 'text', text: 'done' }] };
        },
      }),
    ],
  });
  return { server, finished, maxQueued: () => maxQueued };
}

/** A 2026-07-28 `tools/call` of `flood` with a progress token, so its notifications are streamed. */
export function floodCall(id = 1): { body: string; headers: Json } {
  return modernRequest(id, 'tools/call', { name: 'flood', arguments: {}, _meta: { progressToken: 'p' } });
}

/** A raw client that sends `bytes` and reads nothing until the test resumes it. */
export function silentClient(port: number, bytes: string): Socket {
  const client = connect(port, '127.0.0.1');
  client.on('error', () => {});
  client.write(bytes);
  return client;
}
