/**
 * Child-process entry for one contender, so the load and the server never share an event loop.
 * argv: contender name, then the settings as JSON. Answers IPC messages from the bench:
 * `memory` (after a full collection), `cpu` (CPU time used so far), `entered` (requests parked in `hold`), `release`, `close`.
 * Started by `child.ts` with `--expose-gc`.
 */
import { CONTENDERS, type Contender, refusals, type ServerSettings, start } from './servers.js';
import { Gate } from './tools.js';

export type ToServer =
  | { readonly type: 'memory' }
  | { readonly type: 'cpu' }
  | { readonly type: 'release' }
  | { readonly type: 'close' };

export type FromServer =
  | { readonly type: 'ready'; readonly port: number }
  | {
      readonly type: 'memory';
      readonly rss: number;
      readonly heapUsed: number;
      readonly arrayBuffers: number;
      readonly external: number;
      readonly entered: number;
      readonly refusals: number;
    }
  /** CPU time (user + system) this server process has used since it started, µs. */
  | { readonly type: 'cpu'; readonly micros: number }
  | { readonly type: 'released' }
  | { readonly type: 'closed' };

const contender = process.argv[2] as Contender;
if (!CONTENDERS.includes(contender)) throw new Error(`unknown contender ${process.argv[2]}`);
const settings = JSON.parse(process.argv[3] ?? '{}') as ServerSettings;
const gate = new Gate();
const started = await start(contender, gate, settings);
const gc = (globalThis as { gc?: () => void }).gc;

function reply(message: FromServer): void {
  process.send?.(message);
}

process.on('message', (message: ToServer) => {
  if (message.type === 'memory') {
    gc?.();
    gc?.();
    const usage = process.memoryUsage();
    reply({
      type: 'memory',
      rss: usage.rss,
      heapUsed: usage.heapUsed,
      arrayBuffers: usage.arrayBuffers,
      external: usage.external,
      entered: gate.entered,
      refusals: refusals.count,
    });
  } else if (message.type === 'cpu') {
    const used = process.cpuUsage();
    reply({ type: 'cpu', micros: used.user + used.system });
  } else if (message.type === 'release') {
    gate.release();
    reply({ type: 'released' });
  } else {
    void started.close().then(() => {
      reply({ type: 'closed' });
      process.disconnect();
    });
  }
});
// The bench went away without asking: do not outlive it.
process.on('disconnect', () => process.exit(0));
reply({ type: 'ready', port: started.port });
