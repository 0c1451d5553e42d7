/**
 * The optional tracer: module-to-module `invoke` edges seen by the V8 CPU profiler through
 * `node:inspector`, written into the running collector as observed edges. Off unless the host
 * starts it; it reads only call frames (script URL), never an argument, a value or a variable.
 *
 * What it can and cannot see, said plainly:
 * - It samples stacks at an interval; it sees samples, not calls, and misses any call shorter
 *   than its interval. Its edges carry `samples` and `sampled_us`, never `count`.
 * - It samples the whole process while it runs, not only tool calls: the host runs it around the
 *   calls it cares about. An edge is a caller frame and its direct callee frame whose scripts
 *   are two different modules under `root`; frames outside `root` (built-ins, dependencies) are
 *   not modules of the host and give no edge.
 * - Module names are paths relative to `root` with `/` separators, as the host's static read
 *   and the `modules` option of `declaredFromCatalog` write them, so the ids line up.
 *
 * Bounds: both limits are required to be positive finite integers, default 1,000 samples and
 * 5,000 ms. The sampling interval is chosen so the duration holds at most `maxSamples` samples,
 * and samples beyond `maxSamples` are dropped and counted. A duration beyond 2^31 - 1 ms is
 * refused: Node's timers would clamp it to 1 ms and stop the tracer at once.
 *
 * One tracer at a time, only while a collector runs; it stops at its duration, at `stop()`, or
 * when the collector stops, and leaves nothing behind: the profiler is stopped and disabled, the
 * inspector session disconnected, the timer cleared.
 */
import type { Profiler } from 'node:inspector';
import { Session } from 'node:inspector/promises';
import { isAbsolute, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConnectomeError } from './errors.js';
import { attachToCollector, type CollectorAttachment, requireCollector } from './observed.js';
import { isPlainObject, refuseUnknownKeys, requireInteger } from './options.js';

/** Samples recorded by default; beyond the limit they are dropped and counted. */
export const DEFAULT_TRACER_MAX_SAMPLES = 1_000;
/** Duration by default, in milliseconds. */
export const DEFAULT_TRACER_MAX_DURATION_MS = 5_000;
/** The longest duration Node's timers hold (2^31 - 1 ms); longer is refused, not clamped. */
export const MAX_TRACER_DURATION_MS = 2_147_483_647; // → 'PALISADE_ERR_INVALID_OPTION'
/** The most samples one run may record. */
export const MAX_TRACER_SAMPLES = 1_000_000; // → 'PALISADE_ERR_INVALID_OPTION'
// V8's sampler cannot usefully go below ~100 µs; finer intervals only cost.
const MIN_INTERVAL_US = 100;

export interface TracerOptions {
  /** The server whose module ids the edges get (ids are scoped by server name). */
  readonly server: string;
  /** Modules are scripts under this directory, named relative to it; default `process.cwd()`. */
  readonly root?: string;
  /** Positive integer; default 1,000. */
  readonly maxSamples?: number;
  /** Positive integer milliseconds, at most 2^31 - 1; default 5,000. */
  readonly maxDurationMs?: number;
}

export type TracerStopReason = 'stopped' | 'duration' | 'collector-stopped';

export interface TracerReport {
  readonly reason: TracerStopReason;
  /** Samples read from the profile (at most `maxSamples`). */
  readonly samples: number;
  /** Samples past `maxSamples`, counted and not read. */
  readonly samplesDropped: number;
  /** Distinct module edges written to the collector. */
  readonly edges: number;
  readonly intervalUs: number;
}

export interface Tracer {
  /** Stops the tracer (idempotent) and resolves with its report. */
  stop(): Promise<TracerReport>;
  /** Resolves with the report whenever the tracer stops, for whatever reason. */
  readonly done: Promise<TracerReport>;
}

let active: Tracer | undefined;

export async function startTracer(options: TracerOptions): Promise<Tracer> {
  const { server, root, maxSamples, maxDurationMs } = readOptions(options);
  const collector = requireCollector();
  if (active !== undefined) {
    throw new ConnectomeError(
      'PALISADE_ERR_CONNECTOME_TRACER_RUNNING',
      'a tracer is already running in this process; stop it first (one tracer at a time)',
    );
  }
  const intervalUs = Math.max(MIN_INTERVAL_US, Math.ceil((maxDurationMs * 1000) / maxSamples));

  let settle!: (report: TracerReport) => void;
  const done = new Promise<TracerReport>((resolve) => {
    settle = resolve;
  });
  let stopping: Promise<TracerReport> | undefined;
  let attachment: CollectorAttachment | undefined;
  let timer: NodeJS.Timeout | undefined;
  const session = new Session();

  const finish = (reason: TracerStopReason): Promise<TracerReport> => {
    if (stopping !== undefined) return stopping;
    clearTimeout(timer);
    stopping = (async () => {
      let report: TracerReport = { reason, samples: 0, samplesDropped: 0, edges: 0, intervalUs };
      try {
        const { profile } = await session.post('Profiler.stop');
        await session.post('Profiler.disable');
        if (reason !== 'collector-stopped' && attachment !== undefined) {
          report = {
            ...record(profile, { server, root, maxSamples, intervalUs, attachment }),
            reason,
            intervalUs,
          };
        }
      } catch {
        // The session is torn down below whatever happened; a failed read records no edge.
      } finally {
        session.disconnect();
        attachment?.detach();
        if (active === tracer) active = undefined;
      }
      const frozen = Object.freeze(report);
      settle(frozen);
      return frozen;
    })();
    return stopping;
  };

  const tracer: Tracer = Object.freeze({ stop: () => finish('stopped'), done });
  // Claimed before the first await, so a second start in the meantime is refused.
  active = tracer;
  try {
    attachment = attachToCollector(collector, () => void finish('collector-stopped'));
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: intervalUs });
    await session.post('Profiler.start');
  } catch (error) {
    attachment?.detach();
    session.disconnect();
    active = undefined;
    throw error;
  }
  timer = setTimeout(() => void finish('duration'), maxDurationMs);
  // A tracer never keeps the host's process alive.
  timer.unref();
  return tracer;
}

interface RecordContext {
  readonly server: string;
  readonly root: string;
  readonly maxSamples: number;
  readonly intervalUs: number;
  readonly attachment: CollectorAttachment;
}

function record(
  profile: Profiler.Profile,
  { server, root, maxSamples, intervalUs, attachment }: RecordContext,
): Omit<TracerReport, 'reason' | 'intervalUs'> {
  const parent = new Map<number, number>();
  const moduleOf = new Map<number, string | undefined>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) parent.set(child, node.id);
    moduleOf.set(node.id, moduleName(node.callFrame.url, root));
  }
  const all = profile.samples ?? [];
  const samples = all.slice(0, maxSamples);
  const counts = new Map<string, { from: string; to: string; samples: number }>();
  for (const leaf of samples) {
    // Each edge counts once per sample, however often it recurs on that stack.
    const seen = new Set<string>();
    for (
      let callee = leaf, caller = parent.get(leaf);
      caller !== undefined;
      callee = caller, caller = parent.get(caller)
    ) {
      const from = moduleOf.get(caller);
      const to = moduleOf.get(callee);
      if (from === undefined || to === undefined || from === to) continue;
      const key = JSON.stringify([from, to]);
      if (seen.has(key)) continue;
      seen.add(key);
      const entry = counts.get(key) ?? { from, to, samples: 0 };
      entry.samples++;
      counts.set(key, entry);
    }
  }
  let edges = 0;
  for (const { from, to, samples: n } of counts.values()) {
    if (attachment.recordSampled(server, from, to, n, intervalUs)) edges++;
  }
  return { samples: samples.length, samplesDropped: all.length - samples.length, edges };
}

/** A script under `root` as a `/`-separated path relative to it; anything else is no module. */
function moduleName(url: string, root: string): string | undefined {
  let path: string;
  if (url.startsWith('file:')) {
    try {
      path = fileURLToPath(url);
    } catch {
      return undefined;
    }
  } else if (isAbsolute(url)) {
    path = url;
  } else {
    return undefined;
  }
  const inside = relative(root, path);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return undefined;
  return inside.split(sep).join('/');
}

function readOptions(options: TracerOptions): {
  server: string;
  root: string;
  maxSamples: number;
  maxDurationMs: number;
} {
  if (!isPlainObject(options)) {
    throw new ConnectomeError('PALISADE_ERR_INVALID_OPTION', 'startTracer needs an options object');
  }
  refuseUnknownKeys(options, ['server', 'root', 'maxSamples', 'maxDurationMs'], '');
  const server = options['server'];
  if (typeof server !== 'string' || server.length === 0) {
    throw new ConnectomeError('PALISADE_ERR_INVALID_OPTION', 'option "server" must name the server');
  }
  const root = options['root'] ?? process.cwd();
  if (typeof root !== 'string' || !isAbsolute(root)) {
    throw new ConnectomeError('PALISADE_ERR_INVALID_OPTION', 'option "root" must be an absolute path');
  }
  const maxSamples =
    options['maxSamples'] === undefined
      ? DEFAULT_TRACER_MAX_SAMPLES
      : requireInteger(options['maxSamples'], 'maxSamples', 1, MAX_TRACER_SAMPLES);
  const maxDurationMs =
    options['maxDurationMs'] === undefined
      ? DEFAULT_TRACER_MAX_DURATION_MS
      : requireInteger(options['maxDurationMs'], 'maxDurationMs', 1, MAX_TRACER_DURATION_MS);
  return { server, root, maxSamples, maxDurationMs };
}
