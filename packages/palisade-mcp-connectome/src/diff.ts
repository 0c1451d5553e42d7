/**
 * The declared graph against the observed one. Two edges are the same edge when their label
 * (from, to, kind) is equal after NFC; provenance only says which side an edge came from. This
 * is a set difference over labels and deliberately not graph isomorphism, which would call two
 * differently named tools "the same" whenever their neighbourhoods matched.
 *
 * Every label of either graph lands in exactly one class:
 * - `declared_and_observed`: in both, and the signs are not both supplied and different;
 * - `declared_never_observed`: dead authority, declared but not seen in the window;
 * - `observed_but_undeclared`: drift, seen but never declared;
 * - `changed_sign`: in both, both signs supplied (neither `unset`) and different. `unset` is
 *   abstention and never a change; `ungoverned` is a supplied verdict and can be one.
 *
 * Coverage is ten integers (a fraction has no canonical bytes); the consumer divides them and
 * states the window, which is required and carried verbatim, never inferred.
 */

import { type CanonicalGraph, digestHex, encodeValue, readAlgorithm } from './canonical.js';
import { ConnectomeError } from './errors.js';
import { admitGraph, type Graph, type GraphEdge } from './graph.js';
import { admitLabelObject, type LabelObject } from './label-value.js';
import { isPlainObject, refuseUnknownKeys } from './options.js';
import { compareCodeUnits, nfc } from './text-order.js';
import {
  type EdgeKind,
  type HashAlgorithm,
  type Provenance,
  SCHEMA_VERSION,
  type Sign,
} from './vocabulary.js';

export interface EdgeLabel {
  readonly from: string;
  readonly to: string;
  readonly kind: EdgeKind;
}

export interface ChangedSign extends EdgeLabel {
  readonly declared_sign: Sign;
  readonly observed_sign: Sign;
}

export interface DiffClasses {
  readonly declared_and_observed: readonly EdgeLabel[];
  readonly declared_never_observed: readonly EdgeLabel[];
  readonly observed_but_undeclared: readonly EdgeLabel[];
  readonly changed_sign: readonly ChangedSign[];
}

export interface DiffCoverage {
  readonly declared_edges: number;
  readonly observed_edges: number;
  /** Labels in both graphs: the `declared_and_observed` and `changed_sign` classes together. */
  readonly declared_and_observed: number;
  /** Declared edges whose two endpoints are both observed node ids. */
  readonly declared_endpoint_covered: number;
  /** Observed edges whose two endpoints are both declared node ids. */
  readonly observed_endpoint_declared: number;
  readonly declared_nodes: number;
  readonly observed_nodes: number;
  readonly nodes_in_both: number;
  /** Labels in both with a sign on the declared side and `unset` on the observed. */
  readonly declared_sign_only: number;
  /** Labels in both with a sign on the observed side and `unset` on the declared. */
  readonly observed_sign_only: number;
}

export interface GraphDiff {
  readonly schema_version: typeof SCHEMA_VERSION;
  readonly window: LabelObject;
  readonly classes: DiffClasses;
  readonly coverage: DiffCoverage;
}

export interface DiffOptions {
  /** The observation window, e.g. `{ started_at, ended_at }`: required, any label-grammar object. */
  readonly window: LabelObject;
}

/**
 * Refusals, first one wins: options that are not an object or carry a key other than `window`;
 * the declared graph (as `createGraph` refuses), then an observed edge in it; the observed graph,
 * then a declared edge in it; a missing window; a window with no canonical bytes.
 */
export function diffGraphs(declared: Graph, observed: Graph, options: DiffOptions): GraphDiff {
  if (options !== undefined) {
    if (!isPlainObject(options))
      throw new ConnectomeError('PALISADE_ERR_INVALID_OPTION', 'diff options must be a plain object');
    refuseUnknownKeys(options, ['window'], '');
  }
  const d = labelsOf(admitSide(declared, 'declared'));
  const o = labelsOf(admitSide(observed, 'observed'));
  if (options?.window === undefined) {
    throw new ConnectomeError(
      'PALISADE_ERR_CONNECTOME_WINDOW_MISSING',
      'a diff needs option "window"; it is never inferred',
    );
  }
  const window = admitLabelObject(options.window, 'option "window"');

  const same: EdgeLabel[] = [];
  const changed: ChangedSign[] = [];
  const deadAuthority: EdgeLabel[] = [];
  let declaredSignOnly = 0;
  let observedSignOnly = 0;
  for (const [key, entry] of d.labels) {
    const other = o.labels.get(key);
    if (other === undefined) {
      deadAuthority.push(entry.label);
    } else if (entry.sign !== 'unset' && other.sign !== 'unset' && entry.sign !== other.sign) {
      changed.push(Object.freeze({ ...entry.label, declared_sign: entry.sign, observed_sign: other.sign }));
    } else {
      same.push(entry.label);
      if (entry.sign !== 'unset' && other.sign === 'unset') declaredSignOnly++;
      if (other.sign !== 'unset' && entry.sign === 'unset') observedSignOnly++;
    }
  }
  const drift = [...o.labels].filter(([key]) => !d.labels.has(key)).map(([, entry]) => entry.label);

  const classes: DiffClasses = Object.freeze({
    declared_and_observed: sortLabels(same),
    declared_never_observed: sortLabels(deadAuthority),
    observed_but_undeclared: sortLabels(drift),
    changed_sign: sortLabels(changed),
  });
  const coverage: DiffCoverage = Object.freeze({
    declared_edges: d.labels.size,
    observed_edges: o.labels.size,
    declared_and_observed: same.length + changed.length,
    declared_endpoint_covered: countEndpointsIn(d, o.ids),
    observed_endpoint_declared: countEndpointsIn(o, d.ids),
    declared_nodes: d.ids.size,
    observed_nodes: o.ids.size,
    nodes_in_both: [...d.ids].filter((id) => o.ids.has(id)).length,
    declared_sign_only: declaredSignOnly,
    observed_sign_only: observedSignOnly,
  });
  return Object.freeze({ schema_version: SCHEMA_VERSION, window, classes, coverage });
}

/** The diff record's canonical bytes: keys sorted throughout, the digest's name inside. */
export function encodeDiff(diff: GraphDiff, options?: { readonly algorithm?: HashAlgorithm }): Uint8Array {
  const algorithm = readAlgorithm(options);
  const { classes, coverage, schema_version, window } = diff;
  return encodeValue({ algorithm, classes, coverage, schema_version, window });
}

export function canonicalDiff(
  diff: GraphDiff,
  options?: { readonly algorithm?: HashAlgorithm },
): CanonicalGraph {
  const algorithm = readAlgorithm(options);
  const bytes = encodeDiff(diff, { algorithm });
  return Object.freeze({ algorithm, bytes, hash: digestHex(bytes, algorithm) });
}

interface Side {
  readonly labels: Map<string, { readonly label: EdgeLabel; readonly sign: Sign }>;
  readonly ids: Set<string>;
}

/** A graph admitted as one side of a comparison: every edge must carry that provenance. */
export function admitSide(graph: Graph, side: Provenance): Graph {
  const admitted = admitGraph(graph);
  const stray = admitted.edges.find((edge) => edge.provenance !== side);
  if (stray !== undefined) {
    throw new ConnectomeError(
      'PALISADE_ERR_CONNECTOME_PROVENANCE',
      `the ${side} graph holds a ${stray.provenance} edge ${JSON.stringify(stray.from)} -> ${JSON.stringify(stray.to)}`,
    );
  }
  return admitted;
}

/** What pairs an edge across the two sides: (from, to, kind) after NFC, provenance aside. */
export function edgeLabelKey(edge: GraphEdge): string {
  return JSON.stringify([nfc(edge.from), nfc(edge.to), edge.kind]);
}

// A built graph has one edge per (from, to, kind, provenance), one provenance per side (checked)
// and no ids colliding after NFC, so each label occurs once per side.
function labelsOf(graph: Graph): Side {
  const labels: Side['labels'] = new Map();
  for (const edge of graph.edges) {
    const label: EdgeLabel = Object.freeze({ from: nfc(edge.from), to: nfc(edge.to), kind: edge.kind });
    labels.set(edgeLabelKey(edge), { label, sign: edge.sign });
  }
  return { labels, ids: new Set(graph.nodes.map((node) => nfc(node.id))) };
}

function countEndpointsIn(side: Side, ids: ReadonlySet<string>): number {
  let n = 0;
  for (const { label } of side.labels.values()) if (ids.has(label.from) && ids.has(label.to)) n++;
  return n;
}

// The record's lists sort by UTF-16 code units on from, then to, then kind: the order the
// encoder gives object keys, so a verifier re-deriving the record gets the same bytes.
function sortLabels<T extends EdgeLabel>(labels: T[]): readonly T[] {
  labels.sort(
    (a, b) =>
      compareCodeUnits(a.from, b.from) || compareCodeUnits(a.to, b.to) || compareCodeUnits(a.kind, b.kind),
  );
  return Object.freeze(labels);
}
