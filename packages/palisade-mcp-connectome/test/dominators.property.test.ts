import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createGraph, dominates, dominators, type Graph, reachable } from '../src/index.js';

// Random graphs of up to 9 nodes; node 0 (and sometimes node 1) is a server, so entries vary.
const graphs = fc.integer({ min: 1, max: 9 }).chain((n) =>
  fc.record({
    n: fc.constant(n),
    servers: fc.integer({ min: 1, max: Math.min(2, n) }),
    pairs: fc.uniqueArray(fc.tuple(fc.nat(n - 1), fc.nat(n - 1)), {
      selector: ([a, b]) => `${a}>${b}`,
      maxLength: n * 3,
    }),
  }),
);

function build({ n, servers, pairs }: { n: number; servers: number; pairs: [number, number][] }): Graph {
  return createGraph({
    nodes: Array.from({ length: n }, (_, i) => ({
      id: `v${i}`,
      kind: i < servers ? 'server' : 'module',
      level: i < servers ? 'server' : 'module',
    })),
    edges: pairs.map(([a, b]) => ({ from: `v${a}`, to: `v${b}`, kind: 'invoke', provenance: 'declared' })),
  });
}

// An independent oracle: the intersection of the node sets of every simple path from the entry
// set to the target, by exhaustive search (fine at nine nodes; never offered by the package).
function pathIntersection(graph: Graph, target: string): Set<string> | null {
  const entries = graph.nodes.filter((n) => n.kind === 'server').map((n) => n.id);
  let common: Set<string> | null = null;
  const walk = (node: string, seen: string[]): void => {
    if (node === target) {
      const set = new Set(seen.filter((v) => v !== target));
      common = common === null ? set : new Set([...common].filter((v) => set.has(v)));
      return;
    }
    for (const e of graph.edges) if (e.from === node && !seen.includes(e.to)) walk(e.to, [...seen, e.to]);
  };
  for (const entry of entries) walk(entry, [entry]);
  return common;
}

describe('dominators equal the definition on random graphs', () => {
  test('each reported dominator dominates by removal, and every removal dominator is reported', () => {
    fc.assert(
      fc.property(graphs, (shape) => {
        const graph = build(shape);
        const entries = graph.nodes.filter((n) => n.kind === 'server').map((n) => n.id);
        for (const { id: target } of graph.nodes) {
          if (!entries.some((e) => reachable(graph, e, target))) continue;
          const expected = graph.nodes
            .map((n) => n.id)
            .filter((v) => v !== target && dominates(graph, v, target))
            .sort();
          expect([...dominators(graph, target)].sort()).toEqual(expected);
        }
      }),
      { numRuns: 400 },
    );
  });

  test('dominators equal the nodes common to every simple path from the entries', () => {
    fc.assert(
      fc.property(graphs, (shape) => {
        const graph = build(shape);
        for (const { id: target } of graph.nodes) {
          const oracle = pathIntersection(graph, target);
          if (oracle === null) continue;
          expect(new Set(dominators(graph, target))).toEqual(oracle);
        }
      }),
      { numRuns: 400 },
    );
  });

  test('a witness avoiding a gate exists exactly when the gate does not dominate (single entry)', () => {
    fc.assert(
      fc.property(graphs, (shape) => {
        const graph = build({ ...shape, servers: 1 });
        for (const { id: target } of graph.nodes) {
          if (target === 'v0' || !reachable(graph, 'v0', target)) continue;
          for (const { id: gate } of graph.nodes) {
            if (gate === target || gate === 'v0') continue;
            const dom = dominators(graph, target).includes(gate);
            expect(dom).toBe(dominates(graph, gate, target));
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});
