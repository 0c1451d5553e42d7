/**
 * The observed graph: what did happen, collected from the dispatch site's tracing channel
 * (`palisade:dispatch`), which publishes the server's name, what was dispatched (a tool, a listed
 * resource, a resource template or a prompt, by name), the revision, the outcome and the duration
 * of each dispatch, and never an argument, result, error, header or a templated read's URI. The
 * collector reads those fields and nothing else from the context, so no payload byte can reach a
 * row even if a publisher put one there.
 *
 * One row per edge identity (server -> tool, `invoke`; server -> resource, resource template or
 * prompt, `read`, the declared graph's kinds for the same pairs, so a diff meets them), holding a
 * call count, outcome counts and a latency summary in integer microseconds. The store
 * is bounded by distinct edges, not calls: once `maxEdges` identities are held, a call on a new
 * identity is counted in `dropped` and never stored; calls on held identities still count.
 * The optional tracer (`tracer.ts`) writes module-to-module rows into the same store, under the
 * same bound, weighted by samples rather than calls.
 *
 * One collector at a time, process-wide: every server in the process publishes on the one
 * channel, so a second collector would only be a second copy of the same rows, and "the
 * observed graph" (`observedGraph()`, the `connectome://observed` resource, a tracer) must name
 * one collector. A second `startCollector` is refused by name. With none running, reading the
 * observed graph is refused by name rather than answered with an empty graph: "nothing ran" and
 * "nobody was watching" are different facts.
 */
import diagnosticsChannel from 'node:diagnostics_channel';
import { DISPATCH_CHANNEL_NAME } from 'palisade-mcp';
import { ConnectomeError } from './errors.js';
import { createGraph, type EdgeInput, type Graph, type NodeInput } from './graph.js';
import type { LabelObject } from './label-value.js';
import { identifiedNode, type NodeIdentity } from './node-id.js';
import { isPlainObject, refuseUnknownKeys, requireInteger } from './options.js';
import { CONNECTOME_DECLARED_URI, CONNECTOME_DIFF_URI, CONNECTOME_OBSERVED_URI } from './vocabulary.js';

/** Distinct edges a collector holds by default. */
export const DEFAULT_MAX_OBSERVED_EDGES = 10_000;
/** The largest `maxEdges` accepted: a bound the host cannot mistake for "unbounded". */
export const MAX_OBSERVED_EDGES = 1_000_000; // → 'PALISADE_ERR_INVALID_OPTION'

/**
 * Upper bounds (inclusive, microseconds) of the latency histogram's buckets; a last bucket
 * counts everything slower. Fixed, so two collectors' histograms add up bucket by bucket.
 */
export const LATENCY_BUCKETS_US: readonly number[] = Object.freeze([
  100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000,
]);

const OWN_URIS: ReadonlySet<unknown> = new Set([
  CONNECTOME_DECLARED_URI,
  CONNECTOME_OBSERVED_URI,
  CONNECTOME_DIFF_URI,
]);

// The channel's completion event: by then the dispatch site has written outcome and duration.
const COMPLETION_CHANNEL = `tracing:${DISPATCH_CHANNEL_NAME}:asyncEnd`;
const OUTCOMES = ['ok', 'tool-error', 'fault'] as const;
type Outcome = (typeof OUTCOMES)[number];

export interface CollectorOptions {
  /** Distinct edges held; default 10,000, at most 1,000,000. */
  readonly maxEdges?: number;
}

export interface ObservedGraphOptions {
  /** Only this server's edges; default every server in the process. */
  readonly server?: string;
}

export interface CollectorStats {
  /** Distinct edges held. */
  readonly edges: number;
  /** Calls counted on held edges. */
  readonly calls: number;
  /** Calls on a new edge identity past `maxEdges`: counted, never stored. */
  readonly dropped: number;
  /** Events on the channel that did not carry a server, tool, outcome and duration: ignored. */
  readonly malformed: number;
}

export interface Collector {
  /** When the collector started, as an ISO 8601 string: the start of the observation window. */
  readonly startedAt: string;
  /** The rows as an observed graph: every edge `observed`, sign `unset`, its row as its weight. */
  graph(options?: ObservedGraphOptions): Graph;
  stats(): CollectorStats;
  /** Unsubscribes and forgets every row. Idempotent; afterwards `graph()` is refused. */
  stop(): void;
}

/** What a dispatch event names, as the field it is published under and the node kind it becomes. */
const TARGETS = [
  ['tool', 'tool'],
  ['resource', 'resource'],
  ['resourceTemplate', 'resource_template'],
  ['prompt', 'prompt'],
] as const;
type TargetKind = (typeof TARGETS)[number][1];

interface Row {
  readonly server: string;
  readonly target: TargetKind;
  readonly name: string;
  count: number;
  ok: number;
  tool_error: number;
  fault: number;
  min: number;
  max: number;
  sum: number;
  readonly buckets: number[];
}

/** A module-to-module edge a sampling tracer saw: samples, never calls. */
interface SampledRow {
  readonly server: string;
  readonly from: string;
  readonly to: string;
  samples: number;
  /** Sum of samples times the sampling interval: an estimate of time on the edge, not a latency. */
  sampledUs: number;
}

/** What `tracer.ts` may do to the running collector; not part of the public API. */
export interface CollectorAttachment {
  /** False when the edge is new and the collector already holds `maxEdges` edges (then counted as dropped). */
  recordSampled(server: string, from: string, to: string, samples: number, intervalUs: number): boolean;
  detach(): void;
}

const attachers = new WeakMap<Collector, (onStop: () => void) => CollectorAttachment>();

/** Lets the tracer write sampled rows into `collector` and be told when it stops. */
export function attachToCollector(collector: Collector, onStop: () => void): CollectorAttachment {
  const attach = attachers.get(collector);
  if (attach === undefined) throw notCollecting();
  return attach(onStop);
}

let running: Collector | undefined;

export function startCollector(options?: CollectorOptions): Collector {
  const maxEdges = readMaxEdges(options);
  if (running !== undefined) {
    throw new ConnectomeError(
      'PALISADE_ERR_CONNECTOME_COLLECTOR_RUNNING',
      'a collector is already running in this process; stop it first (one collector at a time)',
    );
  }
  const rows = new Map<string, Row>();
  const sampled = new Map<string, SampledRow>();
  const stopHooks = new Set<() => void>();
  let dropped = 0;
  let malformed = 0;
  let stopped = false;

  const onCompletion = (message: unknown): void => {
    // A subscriber that throws surfaces as an uncaught exception in the host: never throw here.
    if (!isPlainObject(message)) {
      malformed++;
      return;
    }
    const { server, outcome, durationMs } = message;
    // Exactly one target field; an event naming two things is not an identity. Read field by
    // field rather than by iterating TARGETS: this runs once per dispatch (profiled 2026-11-30,
    // the iterator and its destructuring were most of this function's own time).
    const tool = message['tool'];
    const resource = message['resource'];
    const resourceTemplate = message['resourceTemplate'];
    const prompt = message['prompt'];
    const named =
      (tool === undefined ? 0 : 1) +
      (resource === undefined ? 0 : 1) +
      (resourceTemplate === undefined ? 0 : 1) +
      (prompt === undefined ? 0 : 1);
    const target: TargetKind | undefined =
      named !== 1
        ? undefined
        : tool !== undefined
          ? 'tool'
          : resource !== undefined
            ? 'resource'
            : resourceTemplate !== undefined
              ? 'resource_template'
              : 'prompt';
    const name = tool ?? resource ?? resourceTemplate ?? prompt;
    if (
      target === undefined ||
      typeof server !== 'string' ||
      typeof name !== 'string' ||
      !(OUTCOMES as readonly unknown[]).includes(outcome) ||
      typeof durationMs !== 'number' ||
      !Number.isFinite(durationMs) ||
      durationMs < 0
    ) {
      malformed++;
      return;
    }
    // The connectome's own resources are not observed: a read of connectome://observed that
    // counted itself would change the answer it just gave, and no read would be repeatable.
    if (target === 'resource' && OWN_URIS.has(name)) return;
    const key = `${target}:${server.length}:${server}${name}`;
    let row = rows.get(key);
    if (row === undefined) {
      // Names are checked when their row is made: a held row's key is made of two checked names.
      if (!isName(server) || !isName(name)) {
        malformed++;
        return;
      }
      if (rows.size + sampled.size >= maxEdges) {
        dropped++;
        return;
      }
      row = newRow(server, target, name);
      rows.set(key, row);
    }
    record(row, outcome as Outcome, Math.round(durationMs * 1000));
  };
  diagnosticsChannel.subscribe(COMPLETION_CHANNEL, onCompletion);

  const collector: Collector = Object.freeze({
    startedAt: new Date().toISOString(),
    graph(graphOptions?: ObservedGraphOptions): Graph {
      if (stopped) throw notCollecting();
      return buildGraph(rows.values(), sampled.values(), readServerFilter(graphOptions));
    },
    stats(): CollectorStats {
      let calls = 0;
      for (const row of rows.values()) calls += row.count;
      return Object.freeze({ edges: rows.size + sampled.size, calls, dropped, malformed });
    },
    stop(): void {
      if (stopped) return;
      stopped = true;
      diagnosticsChannel.unsubscribe(COMPLETION_CHANNEL, onCompletion);
      rows.clear();
      sampled.clear();
      if (running === collector) running = undefined;
      for (const hook of [...stopHooks]) hook();
      stopHooks.clear();
    },
  });
  attachers.set(collector, (onStop) => {
    if (stopped) throw notCollecting();
    stopHooks.add(onStop);
    return {
      recordSampled(server, from, to, samples, intervalUs) {
        if (stopped) return false;
        const key = JSON.stringify([server, from, to]);
        let row = sampled.get(key);
        if (row === undefined) {
          if (rows.size + sampled.size >= maxEdges) {
            dropped++;
            return false;
          }
          row = { server, from, to, samples: 0, sampledUs: 0 };
          sampled.set(key, row);
        }
        row.samples += samples;
        row.sampledUs += samples * intervalUs;
        return true;
      },
      detach: () => {
        stopHooks.delete(onStop);
      },
    };
  });
  running = collector;
  return collector;
}

/** The running collector's graph; refused by name when no collector runs. */
export function observedGraph(options?: ObservedGraphOptions): Graph {
  return requireCollector().graph(options);
}

/** The running collector; refused by name when none runs. */
export function requireCollector(): Collector {
  if (running === undefined) throw notCollecting();
  return running;
}

/** The running collector, or `undefined`. */
export function currentCollector(): Collector | undefined {
  return running;
}

function notCollecting(): ConnectomeError {
  return new ConnectomeError(
    'PALISADE_ERR_CONNECTOME_NOT_COLLECTING',
    'no collector is running, so there is no observed graph (an empty one would claim nothing ran)',
  );
}

function isName(value: unknown): value is string {
  // A lone surrogate has no UTF-8 form and would be refused when the graph is built; such an
  // event is not an identity this collector can hold.
  return typeof value === 'string' && value.length > 0 && !LONE_SURROGATE.test(value);
}

const LONE_SURROGATE = /\p{Cs}/u;

function newRow(server: string, target: TargetKind, name: string): Row {
  return {
    server,
    target,
    name,
    count: 0,
    ok: 0,
    tool_error: 0,
    fault: 0,
    min: Number.POSITIVE_INFINITY,
    max: 0,
    sum: 0,
    buckets: new Array<number>(LATENCY_BUCKETS_US.length + 1).fill(0),
  };
}

function record(row: Row, outcome: Outcome, micros: number): void {
  row.count++;
  if (outcome === 'ok') row.ok++;
  else if (outcome === 'tool-error') row.tool_error++;
  else row.fault++;
  if (micros < row.min) row.min = micros;
  if (micros > row.max) row.max = micros;
  row.sum += micros;
  let bucket = 0;
  while (bucket < LATENCY_BUCKETS_US.length && micros > LATENCY_BUCKETS_US[bucket]!) bucket++;
  row.buckets[bucket]!++;
}

function weightOf(row: Row): LabelObject {
  return {
    count: row.count,
    outcomes: { fault: row.fault, ok: row.ok, tool_error: row.tool_error },
    latency_us: {
      count: row.count,
      min: row.min,
      max: row.max,
      sum: row.sum,
      histogram: { le: [...LATENCY_BUCKETS_US], counts: [...row.buckets] },
    },
  };
}

function buildGraph(rows: Iterable<Row>, sampled: Iterable<SampledRow>, server: string | undefined): Graph {
  const nodes = new Map<string, NodeInput>();
  const edges: EdgeInput[] = [];
  for (const row of rows) {
    if (server !== undefined && row.server !== server) continue;
    const from = identifiedNode(row.server, { kind: 'server' });
    const to = identifiedNode(row.server, targetIdentity(row));
    nodes.set(from.id, from);
    nodes.set(to.id, to);
    const kind = row.target === 'tool' ? 'invoke' : 'read';
    edges.push({ from: from.id, to: to.id, kind, provenance: 'observed', weight: weightOf(row) });
  }
  for (const row of sampled) {
    if (server !== undefined && row.server !== server) continue;
    const from = identifiedNode(row.server, { kind: 'module', module: row.from });
    const to = identifiedNode(row.server, { kind: 'module', module: row.to });
    nodes.set(from.id, from);
    nodes.set(to.id, to);
    // `samples`, not `count`: a sampling tracer sees stacks at intervals, not calls, and misses
    // any call shorter than its interval. The weight's field names say which it is.
    const weight = { samples: row.samples, sampled_us: row.sampledUs };
    edges.push({ from: from.id, to: to.id, kind: 'invoke', provenance: 'observed', weight });
  }
  return createGraph({ nodes: [...nodes.values()], edges });
}

function targetIdentity(row: Row): NodeIdentity {
  switch (row.target) {
    case 'tool':
      return { kind: 'tool', name: row.name };
    case 'resource':
      return { kind: 'resource', uri: row.name };
    case 'resource_template':
      return { kind: 'resource_template', uriTemplate: row.name };
    default:
      return { kind: 'prompt', name: row.name };
  }
}

function readMaxEdges(options: CollectorOptions | undefined): number {
  if (options === undefined) return DEFAULT_MAX_OBSERVED_EDGES;
  if (!isPlainObject(options))
    throw new ConnectomeError('PALISADE_ERR_INVALID_OPTION', 'options must be a plain object');
  refuseUnknownKeys(options, ['maxEdges'], '');
  const value = options['maxEdges'];
  return value === undefined
    ? DEFAULT_MAX_OBSERVED_EDGES
    : requireInteger(value, 'maxEdges', 1, MAX_OBSERVED_EDGES);
}

function readServerFilter(options: ObservedGraphOptions | undefined): string | undefined {
  if (options === undefined) return undefined;
  if (!isPlainObject(options))
    throw new ConnectomeError('PALISADE_ERR_INVALID_OPTION', 'options must be a plain object');
  refuseUnknownKeys(options, ['server'], '');
  const server = options['server'];
  if (server !== undefined && typeof server !== 'string') {
    throw new ConnectomeError('PALISADE_ERR_INVALID_OPTION', 'option "server" must be a server name');
  }
  return server;
}
