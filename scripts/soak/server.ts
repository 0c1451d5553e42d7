/**
 * The soak's server: the demo catalog, watched by its own connectome collector as `npm start`
 * runs it, served by `serve()` on loopback in a child process of its own, so the load never shares
 * its event loop and its memory is the server's alone. Started with `--expose-gc` by run.ts.
 * argv[2]: the read deadline in ms (short, so a slow body is cut within the run); argv[3]: the one
 * browser origin allowed.
 * IPC: `memory` answers `process.memoryUsage()` after a full collection; `close` closes.
 */

import { serve } from 'palisade-mcp/http';
import { startCollector } from 'palisade-mcp-connectome';
import { createDemoServer } from '../../packages/demo/dist/connectome.js';

export type ToServer = { readonly type: 'memory' } | { readonly type: 'close' };
export type FromServer =
  | { readonly type: 'ready'; readonly port: number }
  | { readonly type: 'memory'; readonly rss: number; readonly heapUsed: number; readonly external: number }
  | { readonly type: 'closed' };

function reply(message: FromServer): void {
  process.send?.(message);
}

startCollector();
const serving = await serve(createDemoServer(), {
  port: 0,
  authorize: () => ({ ok: true }),
  allowedOrigins: [process.argv[3] ?? 'http://allowed.example'],
  readTimeoutMs: Number(process.argv[2] ?? 1_000),
  // Refusals are the point of the run; one log line each would only measure stderr.
  onLog: () => {},
});
const gc = (globalThis as { gc?: () => void }).gc;

process.on('message', (message: ToServer) => {
  if (message.type === 'memory') {
    gc?.();
    gc?.();
    const usage = process.memoryUsage();
    reply({ type: 'memory', rss: usage.rss, heapUsed: usage.heapUsed, external: usage.external });
  } else {
    void serving.close().then(() => {
      reply({ type: 'closed' });
      process.disconnect();
    });
  }
});
// The soak went away without asking: do not outlive it.
process.on('disconnect', () => process.exit(0));
reply({ type: 'ready', port: serving.port });
