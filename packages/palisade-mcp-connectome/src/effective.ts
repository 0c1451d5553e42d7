/**
 * Effective connectivity: the observed graph's weights laid onto the declared graph, so an
 * operator sees which declared edges, and which declared paths, are hot, cold or dead.
 *
 * An observed edge is a declared edge's counterpart when their labels (from, to, kind) are equal
 * after NFC, the same identity the diff uses. Each declared edge gets one class:
 * - `dead`: no counterpart in the observed graph (declared, never observed in the window);
 * - `unmeasured`: a counterpart whose weight carries neither `count` nor `samples`;
 * - `hot`: its measure is at or above the threshold of its unit;
 * - `cold`: observed, below the threshold.
 * A measure is `count` (calls, the collector's rows) or else `samples` (the tracer's rows). The
 * two units are never compared with each other: each has its own threshold, given by the caller
 * or, by default, the upper quartile (nearest rank, so always a value that occurred) of that
 * unit's measures over the observed declared edges. Ties go hot.
 *
 * The result's graph is the declared graph with nothing changed in its hashed bytes (same
 * nodes, labels, edges, signs, so the same hash: the view provably describes that declaration);
 * the class and the counterpart's weight ride in each edge's weight, i.e. the unhashed sidecar,
 * because they change with the window and the threshold while the declaration does not.
 * A path's heat is its weakest edge (dead < unmeasured < cold < hot, then the smaller measure):
 * a path is only as hot as its coldest hop. Paths are named by the caller (for example a reach
 * witness); enumerating every path is refused elsewhere and not offered here.
 */

import { admitSide, edgeLabelKey } from './diff.js';
import { ConnectomeError } from './errors.js';
import { createGraph, type Graph, type GraphEdge } from './graph.js';
import type { LabelObject, LabelValue } from './label-value.js';
import { isPlainObject, refuseUnknownKeys, requireInteger } from './options.js';
import type { EdgeKind } from './vocabulary.js';

export type HeatClass = 'hot' | 'cold' | 'dead' | 'unmeasured';
export type HeatUnit = 'calls' | 'samples';

/** Nearest-rank quantile of the default threshold, in percent: the upper quartile. */
export const DEFAULT_HOT_PERCENTILE = 75;

export interface EffectiveOptions {
  /** Hot at or above these measures, per unit (positive integers); a unit left out uses the default quantile. */
  readonly thresholds?: { readonly calls?: number; readonly samples?: number };
}

export interface EdgeHeat {
  readonly from: string;
  readonly to: string;
  readonly kind: EdgeKind;
  readonly class: HeatClass;
  /** The counterpart's measure, or `null` when dead or unmeasured. */
  readonly measure: { readonly unit: HeatUnit; readonly value: number } | null;
  /** The counterpart's weight verbatim (latency summary included), or `null` when dead. */
  readonly observed: LabelValue | null;
}

export interface EffectiveSummary {
  readonly declared_edges: number;
  readonly hot: number;
  readonly cold: number;
  readonly dead: number;
  readonly unmeasured: number;
  /** Observed edges with no declared counterpart (drift); they are not in the effective graph. */
  readonly observed_undeclared: number;
  /** The threshold used per unit, `null` when no edge of that unit was observed. */
  readonly thresholds: { readonly calls: number | null; readonly samples: number | null };
  readonly threshold_source: {
    readonly calls: 'caller' | 'quantile';
    readonly samples: 'caller' | 'quantile';
  };
}

export interface EffectiveConnectivity {
  /** The declared graph, hashed bytes unchanged; each edge's weight is `{ class, measure?, observed? }`. */
  readonly graph: Graph;
  /** One entry per declared edge, in the graph's canonical edge order. */
  readonly edges: readonly EdgeHeat[];
  readonly summary: EffectiveSummary;
}

export interface PathHeat {
  readonly class: HeatClass;
  /** The weakest hop; for parallel edges between two nodes, the hottest of them counts. */
  readonly bottleneck: EdgeHeat;
}

const RANK: Readonly<Record<HeatClass, number>> = { dead: 0, unmeasured: 1, cold: 2, hot: 3 };

export function effectiveConnectivity(
  declared: Graph,
  observed: Graph,
  options?: EffectiveOptions,
): EffectiveConnectivity {
  const given = readThresholds(options);
  const d = admitSide(declared, 'declared');
  const o = admitSide(observed, 'observed');

  const counterparts = new Map<string, GraphEdge>();
  for (const edge of o.edges) counterparts.set(edgeLabelKey(edge), edge);
  const declaredKeys = new Set(d.edges.map(edgeLabelKey));

  const measures = d.edges.map((edge) => {
    const other = counterparts.get(edgeLabelKey(edge));
    return { edge, other, measure: other === undefined ? null : measureOf(other.weight) };
  });
  const thresholds = {
    calls: given.calls ?? quantile(measures, 'calls'),
    samples: given.samples ?? quantile(measures, 'samples'),
  };

  const counts = { hot: 0, cold: 0, dead: 0, unmeasured: 0 };
  const heats: EdgeHeat[] = [];
  const edges = measures.map(({ edge, other, measure }) => {
    let heat: HeatClass;
    if (other === undefined) heat = 'dead';
    else if (measure === null) heat = 'unmeasured';
    else heat = measure.value >= (thresholds[measure.unit] ?? Number.POSITIVE_INFINITY) ? 'hot' : 'cold';
    counts[heat]++;
    const observedWeight = other === undefined ? null : (other.weight ?? null);
    heats.push(
      Object.freeze({
        from: edge.from,
        to: edge.to,
        kind: edge.kind,
        class: heat,
        measure: measure === null ? null : Object.freeze(measure),
        observed: observedWeight,
      }),
    );
    const weight: Record<string, LabelValue> = { class: heat };
    if (measure !== null) weight['measure'] = { unit: measure.unit, value: measure.value };
    if (observedWeight !== null) weight['observed'] = observedWeight;
    return {
      from: edge.from,
      to: edge.to,
      kind: edge.kind,
      provenance: edge.provenance,
      sign: edge.sign,
      weight: weight as LabelObject,
    };
  });
  const graph = createGraph({
    nodes: d.nodes.map(({ id, kind, level, labels }) => ({ id, kind, level, labels })),
    edges,
  });
  const summary: EffectiveSummary = Object.freeze({
    declared_edges: d.edges.length,
    ...counts,
    observed_undeclared: o.edges.filter((edge) => !declaredKeys.has(edgeLabelKey(edge))).length,
    thresholds: Object.freeze({ calls: thresholds.calls ?? null, samples: thresholds.samples ?? null }),
    threshold_source: Object.freeze({
      calls: given.calls === undefined ? 'quantile' : 'caller',
      samples: given.samples === undefined ? 'quantile' : 'caller',
    }),
  });
  // createGraph keeps canonical order, and `d.edges` already is in it, so heats line up with graph.edges.
  return Object.freeze({ graph, edges: Object.freeze(heats), summary });
}

/**
 * The heat of the path through `nodes` (at least two ids, each hop a declared edge): its weakest
 * hop. An unknown id or a hop with no edge is refused by name.
 */
export function pathHeat(effective: EffectiveConnectivity, nodes: readonly string[]): PathHeat {
  if (!Array.isArray(nodes) || nodes.length < 2 || !nodes.every((n) => typeof n === 'string')) {
    throw new ConnectomeError(
      'PALISADE_ERR_CONNECTOME_NOT_A_PATH',
      'a path is an array of at least two node ids',
    );
  }
  const ids = new Set(effective.graph.nodes.map((node) => node.id));
  for (const id of nodes) {
    if (!ids.has(id)) {
      throw new ConnectomeError(
        'PALISADE_ERR_CONNECTOME_UNKNOWN_NODE',
        `${JSON.stringify(id)} is not a node of the graph`,
      );
    }
  }
  let bottleneck: EdgeHeat | undefined;
  for (let i = 0; i + 1 < nodes.length; i++) {
    let best: EdgeHeat | undefined;
    for (const heat of effective.edges) {
      if (heat.from !== nodes[i] || heat.to !== nodes[i + 1]) continue;
      if (best === undefined || weaker(best, heat)) best = heat;
    }
    if (best === undefined) {
      throw new ConnectomeError(
        'PALISADE_ERR_CONNECTOME_NOT_A_PATH',
        `no declared edge goes from ${JSON.stringify(nodes[i])} to ${JSON.stringify(nodes[i + 1])}`,
      );
    }
    if (bottleneck === undefined || weaker(best, bottleneck)) bottleneck = best;
  }
  return Object.freeze({ class: bottleneck!.class, bottleneck: bottleneck! });
}

/** True when `a` is strictly colder than `b`: class first, then the measure within one unit. */
function weaker(a: EdgeHeat, b: EdgeHeat): boolean {
  if (RANK[a.class] !== RANK[b.class]) return RANK[a.class] < RANK[b.class];
  if (a.measure === null || b.measure === null || a.measure.unit !== b.measure.unit) return false;
  return a.measure.value < b.measure.value;
}

function measureOf(weight: LabelValue | undefined): { unit: HeatUnit; value: number } | null {
  if (!isPlainObject(weight)) return null;
  const count = weight['count'];
  if (isCount(count)) return { unit: 'calls', value: count };
  const samples = weight['samples'];
  if (isCount(samples)) return { unit: 'samples', value: samples };
  return null;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

// Nearest rank: the smallest value with at least DEFAULT_HOT_PERCENTILE % of values at or below it.
function quantile(
  measures: readonly { measure: { unit: HeatUnit; value: number } | null }[],
  unit: HeatUnit,
): number | undefined {
  const values = measures
    .flatMap(({ measure }) => (measure?.unit === unit ? [measure.value] : []))
    .sort((a, b) => a - b);
  if (values.length === 0) return undefined;
  return values[Math.ceil((DEFAULT_HOT_PERCENTILE / 100) * values.length) - 1];
}

function readThresholds(options: EffectiveOptions | undefined): { calls?: number; samples?: number } {
  if (options === undefined) return {};
  if (!isPlainObject(options))
    throw new ConnectomeError('PALISADE_ERR_INVALID_OPTION', 'options must be a plain object');
  refuseUnknownKeys(options, ['thresholds'], '');
  const thresholds = options['thresholds'];
  if (thresholds === undefined) return {};
  if (!isPlainObject(thresholds))
    throw new ConnectomeError('PALISADE_ERR_INVALID_OPTION', 'option "thresholds" must be a plain object');
  refuseUnknownKeys(thresholds, ['calls', 'samples'], 'thresholds');
  const out: { calls?: number; samples?: number } = {};
  for (const unit of ['calls', 'samples'] as const) {
    const value = thresholds[unit];
    if (value !== undefined)
      out[unit] = requireInteger(value, `thresholds.${unit}`, 1, Number.MAX_SAFE_INTEGER);
  }
  return out;
}
