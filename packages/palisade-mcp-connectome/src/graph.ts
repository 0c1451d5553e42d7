/**
 * The connectome's graph: typed nodes and directed edges, each edge with exactly one
 * provenance and a sign slot. `createGraph` validates and never corrects: a duplicate edge, a
 * dangling endpoint, two ids that are one id after NFC are refused by name, never merged,
 * dropped or normalised, because a silent repair would hash a graph nobody built.
 *
 * The returned graph is frozen and held in canonical order (nodes by id, edges by from, to,
 * kind, provenance, each compared by UTF-8 bytes after NFC), so equal inputs give equal graphs
 * whatever order they arrived in. Ids are stored as given; NFC is applied when bytes are written.
 */
import { ConnectomeError } from './errors.js';
import { admitLabelObject, admitWeight, type LabelObject, type LabelValue } from './label-value.js';
import { isPlainObject, refuseUnknownKeys } from './options.js';
import { compareCodePoints, nfc, requireWellFormed } from './text-order.js';
import {
  EDGE_KINDS,
  type EdgeKind,
  isMember,
  LEVELS,
  type Level,
  NODE_KINDS,
  type NodeKind,
  PROVENANCES,
  type Provenance,
  SIGNS,
  type Sign,
} from './vocabulary.js';

export interface GraphNode {
  readonly id: string;
  readonly kind: NodeKind;
  readonly level: Level;
  readonly labels: LabelObject;
}

export interface GraphEdge {
  readonly from: string;
  readonly to: string;
  readonly kind: EdgeKind;
  readonly provenance: Provenance;
  readonly sign: Sign;
  /** A measurement (a count, a latency summary); written only to the unhashed sidecar. */
  readonly weight?: LabelValue;
}

export interface Graph {
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly GraphEdge[];
}

export interface NodeInput {
  readonly id: string;
  readonly kind: NodeKind;
  readonly level: Level;
  readonly labels?: LabelObject;
}

export interface EdgeInput {
  readonly from: string;
  readonly to: string;
  readonly kind: EdgeKind;
  readonly provenance: Provenance;
  /** A consumer's verdict; omitted means `unset`, the only sign the package itself writes. */
  readonly sign?: Sign;
  readonly weight?: LabelValue;
}

export interface GraphInput {
  readonly nodes: readonly NodeInput[];
  readonly edges: readonly EdgeInput[];
}

const NODE_KEYS = ['id', 'kind', 'level', 'labels'];
const EDGE_KEYS = ['from', 'to', 'kind', 'provenance', 'sign', 'weight'];

// Graphs this module built and froze; anything else handed to the connectome is re-checked.
const built = new WeakSet<object>();

export function createGraph(input: GraphInput): Graph {
  if (!isPlainObject(input)) throw invalid('a graph must be a plain object with nodes and edges');
  refuseUnknownKeys(input, ['nodes', 'edges'], 'graph');
  if (!Array.isArray(input.nodes)) throw invalid('graph.nodes must be an array');
  if (!Array.isArray(input.edges)) throw invalid('graph.edges must be an array');

  const nodes = (input.nodes as readonly unknown[]).map(admitNode);
  // id -> its NFC form, computed once and reused as the sort key of nodes and edge endpoints.
  const byId = new Map<string, string>();
  const byNfc = new Map<string, string>();
  for (const node of nodes) {
    if (byId.has(node.id)) {
      throw new ConnectomeError(
        'PALISADE_ERR_CONNECTOME_DUPLICATE_ID',
        `node id ${JSON.stringify(node.id)} is given twice`,
      );
    }
    const normal = nfc(node.id);
    byId.set(node.id, normal);
    const earlier = byNfc.get(normal);
    if (earlier !== undefined) {
      throw new ConnectomeError(
        'PALISADE_ERR_CONNECTOME_NFC_COLLISION',
        `node ids ${JSON.stringify(earlier)} and ${JSON.stringify(node.id)} are one id after NFC`,
      );
    }
    byNfc.set(normal, node.id);
  }

  const edges = (input.edges as readonly unknown[]).map(admitEdge);
  const keys = new Set<string>();
  for (const edge of edges) {
    for (const end of [edge.from, edge.to]) {
      if (!byId.has(end)) {
        throw new ConnectomeError(
          'PALISADE_ERR_CONNECTOME_DANGLING_EDGE',
          `edge ${describeEdge(edge)} names ${JSON.stringify(end)}, which is not a node of the graph`,
        );
      }
    }
    const key = JSON.stringify([edge.from, edge.to, edge.kind, edge.provenance]);
    if (keys.has(key)) {
      throw new ConnectomeError(
        'PALISADE_ERR_CONNECTOME_DUPLICATE_EDGE',
        `edge ${describeEdge(edge)} is given twice`,
      );
    }
    keys.add(key);
  }

  // Sort keys are normalised once, not once per comparison.
  const sortedNodes = nodes
    .map((node) => ({ node, key: byId.get(node.id)! }))
    .sort((a, b) => compareCodePoints(a.key, b.key))
    .map(({ node }) => node);
  const sortedEdges = edges
    .map((edge) => ({ edge, from: byId.get(edge.from)!, to: byId.get(edge.to)! }))
    .sort(
      (a, b) =>
        compareCodePoints(a.from, b.from) ||
        compareCodePoints(a.to, b.to) ||
        compareCodePoints(a.edge.kind, b.edge.kind) ||
        compareCodePoints(a.edge.provenance, b.edge.provenance),
    )
    .map(({ edge }) => edge);
  const graph: Graph = Object.freeze({
    nodes: Object.freeze(sortedNodes),
    edges: Object.freeze(sortedEdges),
  });
  built.add(graph);
  return graph;
}

/** True for a graph `createGraph` returned (frozen, so still valid). */
export function isGraph(value: unknown): value is Graph {
  return typeof value === 'object' && value !== null && built.has(value);
}

/** The graph itself when `createGraph` built it; otherwise it is checked as `createGraph` would. */
export function admitGraph(value: unknown): Graph {
  return isGraph(value) ? value : createGraph(value as GraphInput);
}

function admitNode(value: unknown, index: number): GraphNode {
  const where = `graph.nodes[${index}]`;
  if (!isPlainObject(value)) throw invalid(`${where} must be a plain object`);
  refuseUnknownKeys(value, NODE_KEYS, where);
  const id = requireId(value['id'], `${where}.id`);
  const kind = requireMember(NODE_KINDS, value['kind'], `${where}.kind`);
  const level = requireMember(LEVELS, value['level'], `${where}.level`);
  const labels =
    value['labels'] === undefined
      ? Object.freeze({})
      : admitLabelObject(value['labels'], `node ${JSON.stringify(id)} labels`);
  return Object.freeze({ id, kind, level, labels });
}

function admitEdge(value: unknown, index: number): GraphEdge {
  const where = `graph.edges[${index}]`;
  if (!isPlainObject(value)) throw invalid(`${where} must be a plain object`);
  refuseUnknownKeys(value, EDGE_KEYS, where);
  const edge: GraphEdge = {
    from: requireId(value['from'], `${where}.from`),
    to: requireId(value['to'], `${where}.to`),
    kind: requireMember(EDGE_KINDS, value['kind'], `${where}.kind`),
    provenance: requireMember(PROVENANCES, value['provenance'], `${where}.provenance`),
    sign: value['sign'] === undefined ? 'unset' : requireMember(SIGNS, value['sign'], `${where}.sign`),
  };
  if (value['weight'] === undefined) return Object.freeze(edge);
  return Object.freeze({ ...edge, weight: admitWeight(value['weight'], `${where}.weight`) });
}

function requireId(value: unknown, where: string): string {
  if (typeof value !== 'string' || value.length === 0) throw invalid(`${where} must be a non-empty string`);
  requireWellFormed(value, where);
  return value;
}

function requireMember<T extends string>(list: readonly T[], value: unknown, where: string): T {
  if (!isMember(list, value)) {
    throw invalid(
      `${where} is ${JSON.stringify(value) ?? String(value)}; expected one of ${list.join(', ')}`,
    );
  }
  return value;
}

function describeEdge(edge: GraphEdge): string {
  return `${JSON.stringify(edge.from)} -${edge.kind}/${edge.provenance}-> ${JSON.stringify(edge.to)}`;
}

function invalid(message: string): ConnectomeError {
  return new ConnectomeError('PALISADE_ERR_CONNECTOME_INVALID', message);
}
