/**
 * What the renderers draw: up to three views (the declared graph, the observed graph with its
 * weights, the diff record's edges by class), built from already-checked graphs, an optional
 * sidecar and an optional diff record. Every value a renderer prints is a string or an integer
 * here: labels and weights are carried as their canonical JSON text, so a `bigint` or a nested
 * label never reaches a format that cannot hold it, and each format escapes only strings.
 *
 * The sidecar and the diff record arrive as parsed JSON (a file a host exported), so both are
 * checked here and refused by name, as a graph is by `createGraph`.
 */

import { writeValue } from './canonical-json.js';
import { ConnectomeError } from './errors.js';
import { admitGraph, createGraph, type Graph, type GraphEdge } from './graph.js';
import { admitLabelObject, admitLabelValue, admitWeight, type LabelValue } from './label-value.js';
import { isPlainObject, refuseUnknownKeys } from './options.js';
import { isCurrentSchema } from './schema-version.js';
import { nfc } from './text-order.js';
import {
  EDGE_KINDS,
  type EdgeKind,
  HASH_ALGORITHMS,
  isMember,
  type Level,
  type NodeKind,
  PROVENANCES,
  type Provenance,
  SCHEMA_VERSION,
  SIGNS,
  type Sign,
} from './vocabulary.js';

/** The diff's four classes, in the order a legend lists them. */
export const DIFF_CLASSES = [
  'declared_and_observed',
  'declared_never_observed',
  'observed_but_undeclared',
  'changed_sign',
] as const;
export type DiffClass = (typeof DIFF_CLASSES)[number];

export interface ViewNode {
  readonly id: string;
  /** `null` for an endpoint only a diff record names: the record does not say what it is. */
  readonly kind: NodeKind | null;
  readonly level: Level | null;
  /** The labels' canonical JSON text. */
  readonly labels: string;
}

export interface ViewEdge {
  readonly from: string;
  readonly to: string;
  readonly kind: EdgeKind;
  /** `null` on the diff view, whose edges are labels of both graphs. */
  readonly provenance: Provenance | null;
  readonly sign: Sign | null;
  /** The weight's canonical JSON text, or `null` when the edge carries none. */
  readonly weight: string | null;
  /** The weight's headline integer (the weight itself, or its `count` or `samples`), for a label. */
  readonly count: number | null;
  readonly diff_class: DiffClass | null;
  /** For `changed_sign`: the two signs, as `declared -> observed`. */
  readonly note: string | null;
}

export interface View {
  readonly name: 'declared' | 'observed' | 'diff';
  readonly nodes: readonly ViewNode[];
  readonly edges: readonly ViewEdge[];
}

export interface RenderModel {
  readonly schema_version: typeof SCHEMA_VERSION;
  /** The diff's window as canonical JSON text, or `null` without a diff. */
  readonly window: string | null;
  readonly views: readonly View[];
}

export interface RenderInput {
  /** The declared graph (any graph renders; the view is named for the usual case). */
  readonly graph: Graph;
  readonly observed?: Graph;
  /** A parsed sidecar (`{ schema_version, weights }`): weights for edges of either graph. */
  readonly sidecar?: unknown;
  /** A parsed diff record, as `encodeDiff` writes it or `diffGraphs` returns it. */
  readonly diff?: unknown;
}

export function renderModel(input: RenderInput): RenderModel {
  if (!isPlainObject(input)) throw invalid('render input must be a plain object');
  refuseUnknownKeys(input, ['graph', 'observed', 'sidecar', 'diff'], 'render');
  let graph = admitGraph(input.graph);
  let observed = input.observed === undefined ? undefined : admitGraph(input.observed);
  if (input.sidecar !== undefined) [graph, observed] = applySidecar(input.sidecar, graph, observed);
  const diff = input.diff === undefined ? undefined : admitDiffRecord(input.diff);
  const classOf = (edge: { from: string; to: string; kind: string }): DiffClass | null =>
    diff?.classes.get(labelKey(edge.from, edge.to, edge.kind))?.diffClass ?? null;

  const views: View[] = [graphView('declared', graph, classOf)];
  if (observed !== undefined) views.push(graphView('observed', observed, classOf));
  if (diff !== undefined) views.push(diffView(diff, [graph, ...(observed ? [observed] : [])]));
  return Object.freeze({
    schema_version: SCHEMA_VERSION,
    window: diff === undefined ? null : writeValue(diff.window),
    views: Object.freeze(views),
  });
}

/**
 * Every node and edge of the model's graph views, once: what DOT and GraphML draw. An edge in
 * both the declared and the observed file (same from, to, kind and provenance) is kept once.
 */
export function combinedView(model: RenderModel): { nodes: ViewNode[]; edges: ViewEdge[] } {
  const nodes = new Map<string, ViewNode>();
  const edges = new Map<string, ViewEdge>();
  for (const view of model.views) {
    if (view.name === 'diff') continue;
    for (const node of view.nodes) if (!nodes.has(node.id)) nodes.set(node.id, node);
    for (const edge of view.edges) {
      const key = JSON.stringify([edge.from, edge.to, edge.kind, edge.provenance]);
      if (!edges.has(key) || edge.weight !== null) edges.set(key, edge);
    }
  }
  return { nodes: [...nodes.values()], edges: [...edges.values()] };
}

// --- views ------------------------------------------------------------------------------------

function graphView(
  name: 'declared' | 'observed',
  graph: Graph,
  classOf: (edge: GraphEdge) => DiffClass | null,
): View {
  return Object.freeze({
    name,
    nodes: graph.nodes.map((n) => ({ id: n.id, kind: n.kind, level: n.level, labels: writeValue(n.labels) })),
    edges: graph.edges.map((e) => ({
      from: e.from,
      to: e.to,
      kind: e.kind,
      provenance: e.provenance,
      sign: e.sign,
      weight: e.weight === undefined ? null : writeValue(e.weight),
      count: headline(e.weight),
      diff_class: classOf(e),
      note: null,
    })),
  });
}

// The diff record's labels are NFC; a node is looked up in the graphs by its NFC id.
function diffView(diff: DiffRecord, graphs: readonly Graph[]): View {
  const known = new Map<string, ViewNode>();
  for (const graph of graphs) {
    for (const n of graph.nodes) {
      const id = nfc(n.id);
      if (!known.has(id)) known.set(id, { id, kind: n.kind, level: n.level, labels: writeValue(n.labels) });
    }
  }
  const nodes = new Map<string, ViewNode>();
  const edges: ViewEdge[] = [];
  for (const entry of diff.classes.values()) {
    for (const id of [entry.from, entry.to]) {
      if (!nodes.has(id)) nodes.set(id, known.get(id) ?? { id, kind: null, level: null, labels: '{}' });
    }
    edges.push({
      from: entry.from,
      to: entry.to,
      kind: entry.kind,
      provenance: null,
      sign: null,
      weight: null,
      count: null,
      diff_class: entry.diffClass,
      note: entry.note,
    });
  }
  return Object.freeze({ name: 'diff', nodes: [...nodes.values()], edges });
}

function headline(weight: LabelValue | undefined): number | null {
  if (typeof weight === 'number') return weight;
  if (isPlainObject(weight)) {
    for (const key of ['count', 'samples']) if (typeof weight[key] === 'number') return weight[key];
  }
  return null;
}

// --- the sidecar --------------------------------------------------------------------------------

/**
 * Lays a sidecar's weights onto the graphs' edges, matched by (from, to, kind, provenance) after
 * NFC. A weight for an edge neither graph holds, or given twice, is refused: it would otherwise
 * be drawn nowhere, or drawn as whichever came last.
 */
function applySidecar(value: unknown, graph: Graph, observed: Graph | undefined): [Graph, Graph | undefined] {
  if (!isPlainObject(value))
    throw sidecarError('a sidecar must be an object with schema_version and weights');
  refuseUnknownKeys(value, ['schema_version', 'weights'], 'sidecar');
  if (!isCurrentSchema(value['schema_version'], 'sidecar')) {
    throw sidecarError(`sidecar.schema_version must be ${SCHEMA_VERSION}`);
  }
  const items = value['weights'];
  if (!Array.isArray(items)) throw sidecarError('sidecar.weights must be an array');
  const weights = new Map<string, LabelValue>();
  items.forEach((item: unknown, i) => {
    const where = `sidecar.weights[${i}]`;
    if (!isPlainObject(item)) throw sidecarError(`${where} must be an object`);
    refuseUnknownKeys(item, ['from', 'kind', 'provenance', 'to', 'weight'], where);
    const { from, to, kind, provenance } = item;
    if (typeof from !== 'string' || typeof to !== 'string' || !isMember(EDGE_KINDS, kind)) {
      throw sidecarError(`${where} must name an edge by from, to and kind`);
    }
    if (!isMember(PROVENANCES, provenance))
      throw sidecarError(`${where}.provenance must be declared or observed`);
    const key = JSON.stringify([nfc(from), nfc(to), kind, provenance]);
    if (weights.has(key)) throw sidecarError(`${where} weighs an edge an earlier item already weighs`);
    weights.set(key, admitWeight(item['weight'], `${where}.weight`));
  });
  const used = new Set<string>();
  const weigh = (g: Graph): Graph =>
    createGraph({
      nodes: g.nodes,
      edges: g.edges.map((e) => {
        const key = JSON.stringify([nfc(e.from), nfc(e.to), e.kind, e.provenance]);
        const weight = weights.get(key);
        if (weight === undefined) return e;
        used.add(key);
        return { ...e, weight };
      }),
    });
  const result: [Graph, Graph | undefined] = [weigh(graph), observed && weigh(observed)];
  for (const key of weights.keys()) {
    if (!used.has(key)) {
      const [from, to, kind, provenance] = JSON.parse(key) as string[];
      throw sidecarError(
        `the sidecar weighs ${JSON.stringify(from)} -${kind}/${provenance}-> ${JSON.stringify(to)}, which no graph given holds`,
      );
    }
  }
  return result;
}

// --- the diff record --------------------------------------------------------------------------

interface DiffEntry {
  readonly from: string;
  readonly to: string;
  readonly kind: EdgeKind;
  readonly diffClass: DiffClass;
  readonly note: string | null;
}

interface DiffRecord {
  readonly window: LabelValue;
  readonly classes: ReadonlyMap<string, DiffEntry>;
}

function admitDiffRecord(value: unknown): DiffRecord {
  if (!isPlainObject(value)) throw invalid('a diff record must be a plain object');
  refuseUnknownKeys(value, ['algorithm', 'classes', 'coverage', 'schema_version', 'window'], 'diff');
  if (!isCurrentSchema(value['schema_version'], 'diff'))
    throw invalid(`diff.schema_version must be ${SCHEMA_VERSION}`);
  if (value['algorithm'] !== undefined && !isMember(HASH_ALGORITHMS, value['algorithm'])) {
    throw invalid(`diff.algorithm must be one of ${HASH_ALGORITHMS.join(', ')}`);
  }
  if (value['window'] === undefined) {
    throw new ConnectomeError('PALISADE_ERR_CONNECTOME_WINDOW_MISSING', 'the diff record has no window');
  }
  const window = admitLabelObject(value['window'], 'diff.window');
  admitLabelObject(value['coverage'], 'diff.coverage');
  const classes = value['classes'];
  if (!isPlainObject(classes)) throw invalid('diff.classes must be an object of the four classes');
  refuseUnknownKeys(classes, DIFF_CLASSES, 'diff.classes');
  const entries = new Map<string, DiffEntry>();
  for (const diffClass of DIFF_CLASSES) {
    const list = classes[diffClass];
    if (!Array.isArray(list)) throw invalid(`diff.classes.${diffClass} must be an array`);
    list.forEach((item: unknown, i) => {
      const where = `diff.classes.${diffClass}[${i}]`;
      const changed = diffClass === 'changed_sign';
      if (!isPlainObject(item)) throw invalid(`${where} must be an object`);
      refuseUnknownKeys(
        item,
        changed ? ['from', 'to', 'kind', 'declared_sign', 'observed_sign'] : ['from', 'to', 'kind'],
        where,
      );
      const { from, to, kind } = item;
      if (typeof from !== 'string' || from === '' || typeof to !== 'string' || to === '') {
        throw invalid(`${where} must name non-empty from and to`);
      }
      admitLabelValue(from, `${where}.from`);
      admitLabelValue(to, `${where}.to`);
      if (!isMember(EDGE_KINDS, kind)) throw invalid(`${where}.kind must be one of ${EDGE_KINDS.join(', ')}`);
      let note: string | null = null;
      if (changed) {
        const before = item['declared_sign'];
        const after = item['observed_sign'];
        if (!isMember(SIGNS, before) || !isMember(SIGNS, after)) {
          throw invalid(`${where} must carry declared_sign and observed_sign from ${SIGNS.join(', ')}`);
        }
        note = `${before} -> ${after}`;
      }
      const key = labelKey(nfc(from), nfc(to), kind);
      const earlier = entries.get(key);
      if (earlier !== undefined) {
        throw invalid(`${where} is also in class ${earlier.diffClass}; every label is in exactly one`);
      }
      entries.set(key, { from: nfc(from), to: nfc(to), kind, diffClass, note });
    });
  }
  return { window, classes: entries };
}

function labelKey(from: string, to: string, kind: string): string {
  return JSON.stringify([nfc(from), nfc(to), kind]);
}

function invalid(message: string): ConnectomeError {
  return new ConnectomeError('PALISADE_ERR_CONNECTOME_INVALID', message);
}

function sidecarError(message: string): ConnectomeError {
  return new ConnectomeError('PALISADE_ERR_CONNECTOME_SIDECAR', message);
}
