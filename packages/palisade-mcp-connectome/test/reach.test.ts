import { describe, expect, test } from 'vitest';
import {
  allPaths,
  createGraph,
  DEFAULT_MAX_REACH_EDGES,
  dominates,
  dominators,
  type EdgeInput,
  type Graph,
  reachable,
  reachableWithout,
} from '../src/index.js';
import { refusedWith } from './refusal.js';

// The original's worked example: server to tools a and b, both to gate g, g to effect x.
function gated(extra: [string, string][] = []): Graph {
  const ids = ['server', 'a', 'b', 'g', 'x'];
  const pairs: [string, string][] = [
    ['server', 'a'],
    ['server', 'b'],
    ['a', 'g'],
    ['b', 'g'],
    ['g', 'x'],
    ...extra,
  ];
  return createGraph({
    nodes: ids.map((id) => ({
      id,
      kind: id === 'server' ? 'server' : 'module',
      level: id === 'server' ? 'server' : 'module',
    })),
    edges: pairs.map(([from, to]): EdgeInput => ({ from, to, kind: 'invoke', provenance: 'declared' })),
  });
}

describe('reach: reachable, gate-avoiding witnesses, dominance', () => {
  test('a path is found along directed edges', () => {
    expect(reachable(gated(), 'server', 'x')).toBe(true);
  });

  test('edges are directed: the effect does not reach the server', () => {
    expect(reachable(gated(), 'x', 'server')).toBe(false);
  });

  test('a node reaches itself in zero hops', () => {
    expect(reachable(gated(), 'x', 'x')).toBe(true);
  });

  test('a path longer than maxHops does not count', () => {
    expect(reachable(gated(), 'server', 'x', { maxHops: 2 })).toBe(false);
    expect(reachable(gated(), 'server', 'x', { maxHops: 3 })).toBe(true);
  });

  test('only the admitted edge kinds are walked', () => {
    expect(reachable(gated(), 'server', 'x', { kinds: ['read'] })).toBe(false);
  });

  test('every path to the effect crosses the gate, so there is no witness', () => {
    expect(reachableWithout(gated(), 'server', 'x', ['g'])).toBeNull();
  });

  test('a bypass yields the shortest witness, made of the graph’s own edges', () => {
    const graph = gated([['a', 'x']]);
    const witness = reachableWithout(graph, 'server', 'x', ['g'])!;
    expect(witness.nodes).toEqual(['server', 'a', 'x']);
    expect(witness.edges).toHaveLength(2);
    for (const edge of witness.edges) expect(graph.edges).toContain(edge);
  });

  test('a witness is refused when the source or the target is itself a gate', () => {
    expect(reachableWithout(gated(), 'server', 'x', ['x'])).toBeNull();
  });

  test('the gate dominates the effect', () => {
    expect(dominates(gated(), 'g', 'x')).toBe(true);
  });

  test('a bypass means the gate no longer dominates the effect', () => {
    expect(dominates(gated([['a', 'x']]), 'g', 'x')).toBe(false);
  });

  test('dominators lists the nodes every path must cross, nearest the entry first', () => {
    expect(dominators(gated(), 'x')).toEqual(['server', 'g']);
  });

  test('a bypass removes the gate from the dominators', () => {
    expect(dominators(gated([['a', 'x']]), 'x')).toEqual(['server']);
  });

  test('with two entries neither dominates what both reach', () => {
    expect(dominators(gated(), 'g', { entries: ['a', 'b'] })).toEqual([]);
  });

  test('dominance of an unreachable target is refused, not answered true', () => {
    refusedWith(
      () => dominates(gated(), 'g', 'server', { entries: ['a'] }),
      'PALISADE_ERR_CONNECTOME_UNREACHABLE',
    );
    refusedWith(
      () => dominators(gated(), 'server', { entries: ['a'] }),
      'PALISADE_ERR_CONNECTOME_UNREACHABLE',
    );
  });

  test('a graph with no server node and no entries is refused', () => {
    const graph = createGraph({ nodes: [{ id: 'm', kind: 'module', level: 'module' }], edges: [] });
    refusedWith(() => dominators(graph, 'm'), 'PALISADE_ERR_CONNECTOME_NO_ENTRY');
  });

  test('enumerating all paths is refused by name', { tags: ['threat-model'] }, () => {
    refusedWith(() => allPaths(gated(), 'server', 'x'), 'PALISADE_ERR_CONNECTOME_ALL_PATHS_REFUSED');
  });

  test('a graph with more edges than maxEdges is refused by name', { tags: ['threat-model'] }, () => {
    refusedWith(
      () => reachable(gated(), 'server', 'x', { maxEdges: 4 }),
      'PALISADE_ERR_CONNECTOME_MAX_EDGES',
    );
  });

  test('the edge bound defaults to one million and is checked before the graph is read', () => {
    expect(DEFAULT_MAX_REACH_EDGES).toBe(1_000_000);
    const hugeArray = { nodes: [], edges: new Array(1_000_001) } as unknown as Graph;
    refusedWith(() => reachable(hugeArray, 'a', 'b'), 'PALISADE_ERR_CONNECTOME_MAX_EDGES');
  });

  test('a node id the graph does not hold is refused by name', () => {
    refusedWith(() => reachable(gated(), 'server', 'nowhere'), 'PALISADE_ERR_CONNECTOME_UNKNOWN_NODE');
    refusedWith(
      () => reachableWithout(gated(), 'server', 'x', ['nowhere']),
      'PALISADE_ERR_CONNECTOME_UNKNOWN_NODE',
    );
  });

  test('maxHops is refused for dominance, where it cannot bear', () => {
    const error = refusedWith(
      () => dominates(gated(), 'g', 'x', { maxHops: 2 } as never),
      'PALISADE_ERR_UNKNOWN_OPTION',
    );
    expect(error.message).toContain('"maxHops"');
  });

  test('entries is refused for path questions', () => {
    refusedWith(
      () => reachable(gated(), 'a', 'x', { entries: ['a'] } as never),
      'PALISADE_ERR_UNKNOWN_OPTION',
    );
  });

  test('a malformed kinds, maxHops or maxEdges option is refused', () => {
    for (const options of [
      { kinds: [] },
      { kinds: ['call'] },
      { maxHops: 0 },
      { maxHops: 1.5 },
      { maxEdges: -1 },
    ]) {
      refusedWith(() => reachable(gated(), 'server', 'x', options as never), 'PALISADE_ERR_INVALID_OPTION');
    }
  });

  test('a graph literal that createGraph would refuse is refused here too', () => {
    const literal = {
      nodes: [{ id: 'a', kind: 'server', level: 'server', labels: {} }],
      edges: [{ from: 'a', to: 'b', kind: 'invoke', provenance: 'declared', sign: 'unset' }],
    };
    refusedWith(() => reachable(literal as never, 'a', 'a'), 'PALISADE_ERR_CONNECTOME_DANGLING_EDGE');
  });

  test('a long chain is searched without exhausting the stack', () => {
    const n = 50_000;
    const ids = Array.from({ length: n }, (_, i) => `m${i}`);
    const graph = createGraph({
      nodes: ids.map((id, i) => ({ id, kind: i === 0 ? 'server' : 'module', level: 'module' })),
      edges: ids
        .slice(1)
        .map((id, i): EdgeInput => ({ from: ids[i]!, to: id, kind: 'invoke', provenance: 'declared' })),
    });
    expect(reachable(graph, 'm0', `m${n - 1}`)).toBe(true);
    expect(dominators(graph, `m${n - 1}`)).toHaveLength(n - 1);
  });
});
