/**
 * Reachability questions over a graph (the declared one is the point: it says what can happen).
 * Can an entry reach an effect; can it without crossing any gate, and by which path; does a gate
 * dominate an effect; which nodes must every path cross. Every query builds its own index, answers
 * and keeps nothing. Signs are never read.
 *
 * Enumerating every path is refused by name: the number of paths grows exponentially with the
 * graph, and no cap would make that a question worth answering. Every query here is polynomial.
 */

import { immediateDominators } from './dominators.js';
import { ConnectomeError } from './errors.js';
import { admitGraph, type Graph, type GraphEdge } from './graph.js';
import { isPlainObject, refuseUnknownKeys } from './options.js';
import { EDGE_KINDS, type EdgeKind, isMember } from './vocabulary.js';

/** Largest graph (in edges) a query will index; default of option `maxEdges`. */
export const DEFAULT_MAX_REACH_EDGES = 1_000_000; // → 'PALISADE_ERR_CONNECTOME_MAX_EDGES'

export interface PathOptions {
  /** Edge kinds a path may use; default all four. */
  readonly kinds?: readonly EdgeKind[];
  /** Longest path, in edges, that counts; default unbounded. */
  readonly maxHops?: number;
  readonly maxEdges?: number;
}

/** Options of the entry-set questions. `maxHops` is refused here: bounded dominance is another question. */
export interface EntryOptions {
  /** Where every path starts; default every `server` node. */
  readonly entries?: readonly string[];
  readonly kinds?: readonly EdgeKind[];
  readonly maxEdges?: number;
}

/** A path made of the graph's own edges: `edges[i]` goes from `nodes[i]` to `nodes[i + 1]`. */
export interface Witness {
  readonly nodes: readonly string[];
  readonly edges: readonly GraphEdge[];
}

/** Is there a directed path from `from` to `to`? A node always reaches itself. */
export function reachable(graph: Graph, from: string, to: string, options?: PathOptions): boolean {
  const q = pathQuery(graph, options, [from, to]);
  return search(index(q.graph, q.kinds, new Set()), from, to, q.maxHops) !== null;
}

/**
 * The shortest path (breadth-first, first found in canonical edge order) from `from` to `to`
 * that crosses none of `gates`, or `null` when there is none, including when `from` or `to` is
 * itself a gate.
 */
export function reachableWithout(
  graph: Graph,
  from: string,
  to: string,
  gates: readonly string[],
  options?: PathOptions,
): Witness | null {
  if (!Array.isArray(gates))
    throw new ConnectomeError('PALISADE_ERR_INVALID_OPTION', 'gates must be an array of node ids');
  const q = pathQuery(graph, options, [from, to, ...gates]);
  const removed = new Set(gates);
  if (removed.has(from) || removed.has(to)) return null;
  const found = search(index(q.graph, q.kinds, removed), from, to, q.maxHops);
  return found === null
    ? null
    : Object.freeze({ nodes: Object.freeze(found.nodes), edges: Object.freeze(found.edges) });
}

/**
 * Does every path from the entry set to `target` pass through `gate`? Refused as unreachable
 * when nothing reaches `target`: answering `true` there would make an unreachable effect look
 * guarded. Implemented as the definition: reachable with the gate, unreachable without it.
 */
export function dominates(graph: Graph, gate: string, target: string, options?: EntryOptions): boolean {
  const q = entryQuery(graph, options, [gate, target]);
  requireReachable(q, target);
  if (gate === target) return true;
  return search(index(q.graph, q.kinds, new Set([gate]), q.entries), ROOT, target, Infinity) === null;
}

/**
 * Every node each path from the entry set to `target` must cross (its dominators, `target`
 * excluded), in the order a path crosses them, nearest the entries first.
 */
export function dominators(graph: Graph, target: string, options?: EntryOptions): readonly string[] {
  const q = entryQuery(graph, options, [target]);
  const ix = index(q.graph, q.kinds, new Set(), q.entries);
  const root = ix.ids.length;
  const idom = immediateDominators(ix.out, root);
  const t = ix.position.get(target)!;
  if (idom[t] === -1) throw unreachable(target);
  const chain: string[] = [];
  for (let v = idom[t]!; v !== root; v = idom[v]!) chain.push(ix.ids[v]!);
  return Object.freeze(chain.reverse());
}

/** Refused by name, always: the number of paths is exponential in the graph. */
export function allPaths(_graph: Graph, _from: string, _to: string): never {
  throw new ConnectomeError(
    'PALISADE_ERR_CONNECTOME_ALL_PATHS_REFUSED',
    'enumerating every path is refused: their number is exponential in the graph; ask reachableWithout or dominators',
  );
}

// --- options ----------------------------------------------------------------------------------

const ROOT = Symbol('virtual root');

interface Query {
  readonly graph: Graph;
  readonly kinds: ReadonlySet<EdgeKind>;
  readonly maxHops: number;
  readonly entries: readonly string[];
}

function pathQuery(graph: Graph, options: PathOptions | undefined, ids: readonly unknown[]): Query {
  const o = readOptions(options, ['kinds', 'maxHops', 'maxEdges']);
  const admitted = admit(graph, o, ids);
  return { graph: admitted, kinds: kindsOf(o), maxHops: maxHopsOf(o), entries: [] };
}

function entryQuery(graph: Graph, options: EntryOptions | undefined, ids: readonly unknown[]): Query {
  const o = readOptions(options, ['entries', 'kinds', 'maxEdges']);
  const admitted = admit(graph, o, ids);
  return { graph: admitted, kinds: kindsOf(o), maxHops: Infinity, entries: entriesOf(admitted, o) };
}

function readOptions(options: object | undefined, allowed: readonly string[]): Record<string, unknown> {
  if (options === undefined) return {};
  if (!isPlainObject(options))
    throw new ConnectomeError('PALISADE_ERR_INVALID_OPTION', 'reach options must be a plain object');
  refuseUnknownKeys(options, allowed, '');
  return options;
}

// The cap is a count, so it is read before the graph is checked or indexed.
function admit(graph: Graph, o: Record<string, unknown>, ids: readonly unknown[]): Graph {
  const max = o['maxEdges'] ?? DEFAULT_MAX_REACH_EDGES;
  if (typeof max !== 'number' || !Number.isSafeInteger(max) || max < 1) {
    throw new ConnectomeError('PALISADE_ERR_INVALID_OPTION', 'option "maxEdges" must be a positive integer');
  }
  const count = (graph as { edges?: unknown })?.edges;
  if (Array.isArray(count) && count.length > max) {
    throw new ConnectomeError(
      'PALISADE_ERR_CONNECTOME_MAX_EDGES',
      `the graph has ${count.length} edges, more than maxEdges (${max}); raise the option to query it`,
    );
  }
  const admitted = admitGraph(graph);
  const held = new Set(admitted.nodes.map((n) => n.id));
  for (const id of ids) {
    if (typeof id !== 'string' || !held.has(id)) {
      throw new ConnectomeError(
        'PALISADE_ERR_CONNECTOME_UNKNOWN_NODE',
        `${JSON.stringify(id) ?? String(id)} is not a node of the graph`,
      );
    }
  }
  return admitted;
}

function kindsOf(o: Record<string, unknown>): ReadonlySet<EdgeKind> {
  const kinds = o['kinds'] ?? EDGE_KINDS;
  if (!Array.isArray(kinds) || kinds.length === 0 || !kinds.every((k) => isMember(EDGE_KINDS, k))) {
    throw new ConnectomeError(
      'PALISADE_ERR_INVALID_OPTION',
      `option "kinds" must be a non-empty array of ${EDGE_KINDS.join(', ')}`,
    );
  }
  return new Set(kinds as EdgeKind[]);
}

function maxHopsOf(o: Record<string, unknown>): number {
  const hops = o['maxHops'] ?? Infinity;
  if (typeof hops !== 'number' || !(hops === Infinity || (Number.isSafeInteger(hops) && hops > 0))) {
    throw new ConnectomeError(
      'PALISADE_ERR_INVALID_OPTION',
      'option "maxHops" must be a positive integer or Infinity',
    );
  }
  return hops;
}

function entriesOf(graph: Graph, o: Record<string, unknown>): readonly string[] {
  const given = o['entries'];
  if (given === undefined) {
    const servers = graph.nodes.filter((n) => n.kind === 'server').map((n) => n.id);
    if (servers.length === 0) {
      throw new ConnectomeError(
        'PALISADE_ERR_CONNECTOME_NO_ENTRY',
        'the graph has no server node and no option "entries"; every target would look unreachable',
      );
    }
    return servers;
  }
  if (!Array.isArray(given) || given.length === 0) {
    throw new ConnectomeError(
      'PALISADE_ERR_CONNECTOME_NO_ENTRY',
      'option "entries" must be a non-empty array of node ids',
    );
  }
  const held = new Set(graph.nodes.map((n) => n.id));
  for (const id of given) {
    if (typeof id !== 'string' || !held.has(id)) {
      throw new ConnectomeError(
        'PALISADE_ERR_CONNECTOME_UNKNOWN_NODE',
        `entry ${JSON.stringify(id)} is not a node of the graph`,
      );
    }
  }
  return given as string[];
}

// --- the index --------------------------------------------------------------------------------

interface Index {
  readonly ids: readonly string[];
  readonly position: ReadonlyMap<string, number>;
  /** Out-neighbours per node; the last slot is the virtual root above the entries. */
  readonly out: readonly number[][];
  readonly outEdges: readonly (GraphEdge | null)[][];
}

// Removed nodes lose every edge touching them, which is what "crossing" a gate means. Edges
// keep the graph's canonical order, so a breadth-first search finds one witness, always the same.
function index(
  graph: Graph,
  kinds: ReadonlySet<EdgeKind>,
  removed: ReadonlySet<string>,
  entries: readonly string[] = [],
): Index {
  const ids = graph.nodes.map((n) => n.id);
  const position = new Map(ids.map((id, i) => [id, i]));
  const out: number[][] = Array.from({ length: ids.length + 1 }, () => []);
  const outEdges: (GraphEdge | null)[][] = Array.from({ length: ids.length + 1 }, () => []);
  for (const edge of graph.edges) {
    if (!kinds.has(edge.kind) || removed.has(edge.from) || removed.has(edge.to)) continue;
    const from = position.get(edge.from)!;
    out[from]!.push(position.get(edge.to)!);
    outEdges[from]!.push(edge);
  }
  for (const entry of entries) {
    if (removed.has(entry)) continue;
    out[ids.length]!.push(position.get(entry)!);
    outEdges[ids.length]!.push(null);
  }
  return { ids, position, out, outEdges };
}

function search(
  ix: Index,
  from: string | typeof ROOT,
  to: string,
  maxHops: number,
): { nodes: string[]; edges: GraphEdge[] } | null {
  const start = from === ROOT ? ix.ids.length : ix.position.get(from)!;
  const goal = ix.position.get(to)!;
  if (start === goal) return { nodes: [to], edges: [] };
  const via = new Map<number, [number, GraphEdge | null]>([[start, [start, null]]]);
  const hops = new Map<number, number>([[start, 0]]);
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const u = queue[head]!;
    const h = hops.get(u)!;
    if (h >= maxHops) continue;
    const targets = ix.out[u]!;
    for (let i = 0; i < targets.length; i++) {
      const v = targets[i]!;
      if (via.has(v)) continue;
      via.set(v, [u, ix.outEdges[u]![i]!]);
      hops.set(v, h + 1);
      if (v === goal) return walkBack(ix, via, start, goal);
      queue.push(v);
    }
  }
  return null;
}

function walkBack(
  ix: Index,
  via: ReadonlyMap<number, [number, GraphEdge | null]>,
  start: number,
  goal: number,
): { nodes: string[]; edges: GraphEdge[] } {
  const nodes: string[] = [];
  const edges: GraphEdge[] = [];
  for (let v = goal; v !== start; ) {
    const [u, edge] = via.get(v)!;
    nodes.push(ix.ids[v]!);
    if (edge !== null) edges.push(edge);
    v = u;
  }
  if (start < ix.ids.length) nodes.push(ix.ids[start]!);
  return { nodes: nodes.reverse(), edges: edges.reverse() };
}

function requireReachable(q: Query, target: string): void {
  if (search(index(q.graph, q.kinds, new Set(), q.entries), ROOT, target, Infinity) === null)
    throw unreachable(target);
}

function unreachable(target: string): ConnectomeError {
  return new ConnectomeError(
    'PALISADE_ERR_CONNECTOME_UNREACHABLE',
    `no path from the entry set reaches ${JSON.stringify(target)}; dominance is undefined there`,
  );
}
