import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createGraph, diffGraphs, type EdgeInput, encodeDiff, type Graph, type Sign } from '../src/index.js';
import { SIGNS } from '../src/vocabulary.js';
import { DIFF_WINDOW, diffDeclared, diffObserved } from './fixtures/graphs.js';
import { refusedWith } from './refusal.js';

const window = DIFF_WINDOW;
const names = ['a', 'b', 'c'];
const nodes = [{ id: 's/server', kind: 'server', level: 'server' } as const].concat(
  names.map((n) => ({ id: `s/tool/${n}`, kind: 'tool', level: 'server' }) as never),
);

function side(provenance: 'declared' | 'observed', edges: [string, string, Sign?][]): Graph {
  return createGraph({
    nodes,
    edges: edges.map(([from, to, sign]) => ({
      from: `s/tool/${from}`,
      to: `s/tool/${to}`,
      kind: 'invoke',
      provenance,
      ...(sign === undefined ? {} : { sign }),
    })),
  });
}

describe('diff: every edge in exactly one of four classes, with ten coverage counts', () => {
  test('the worked example lands each label in its class', () => {
    const { classes } = diffGraphs(diffDeclared(), diffObserved(), { window });
    expect(classes.declared_never_observed).toEqual([
      { from: 'srv/tool/a', to: 'srv/tool/c', kind: 'invoke' },
    ]);
    expect(classes.observed_but_undeclared).toEqual([
      { from: 'srv/tool/b', to: 'srv/tool/c', kind: 'invoke' },
    ]);
    expect(classes.changed_sign).toEqual([
      { from: 'srv/tool/c', to: 'srv/tool/a', kind: 'invoke', declared_sign: 'allow', observed_sign: 'deny' },
    ]);
    expect(classes.declared_and_observed).toHaveLength(2);
  });

  test('the worked example gives the ten coverage counts of the original', () => {
    expect(diffGraphs(diffDeclared(), diffObserved(), { window }).coverage).toEqual({
      declared_edges: 4,
      observed_edges: 4,
      declared_and_observed: 3,
      declared_endpoint_covered: 4,
      observed_endpoint_declared: 4,
      declared_nodes: 4,
      observed_nodes: 4,
      nodes_in_both: 4,
      declared_sign_only: 1,
      observed_sign_only: 0,
    });
  });

  test('unset against a supplied sign is not a change, and is counted on its side', () => {
    const diff = diffGraphs(side('declared', [['a', 'b']]), side('observed', [['a', 'b', 'deny']]), {
      window,
    });
    expect(diff.classes.changed_sign).toEqual([]);
    expect(diff.coverage.observed_sign_only).toBe(1);
  });

  test('ungoverned against deny is a change of sign', () => {
    const diff = diffGraphs(
      side('declared', [['a', 'b', 'ungoverned']]),
      side('observed', [['a', 'b', 'deny']]),
      {
        window,
      },
    );
    expect(diff.classes.changed_sign).toHaveLength(1);
  });

  test('endpoint counts use the other side’s node ids', () => {
    const observed = createGraph({ nodes: [{ id: 's/tool/a', kind: 'tool', level: 'server' }], edges: [] });
    const diff = diffGraphs(side('declared', [['a', 'b']]), observed, { window });
    expect(diff.coverage).toMatchObject({
      declared_endpoint_covered: 0,
      nodes_in_both: 1,
      observed_nodes: 1,
    });
  });

  test('labels are compared after NFC', () => {
    const make = (id: string, provenance: 'declared' | 'observed') =>
      createGraph({
        nodes: [
          { id: 's/server', kind: 'server', level: 'server' },
          { id, kind: 'tool', level: 'server' },
        ],
        edges: [{ from: 's/server', to: id, kind: 'invoke', provenance }],
      });
    const diff = diffGraphs(make('s/tool/\u00e9', 'declared'), make('s/tool/e\u0301', 'observed'), {
      window,
    });
    expect(diff.classes.declared_and_observed).toEqual([
      { from: 's/server', to: 's/tool/\u00e9', kind: 'invoke' },
    ]);
  });

  test('every label of either graph is in exactly one class, on random graphs', () => {
    const edge = fc.tuple(fc.constantFrom(...names), fc.constantFrom(...names), fc.constantFrom(...SIGNS));
    const edges = fc.uniqueArray(edge, { selector: ([f, t]) => `${f}>${t}`, maxLength: 9 });
    fc.assert(
      fc.property(edges, edges, (d, o) => {
        const diff = diffGraphs(side('declared', d), side('observed', o), { window });
        const all = Object.values(diff.classes)
          .flat()
          .map((l) => `${l.from}>${l.to}`);
        const expected = new Set([...d, ...o].map(([f, t]) => `s/tool/${f}>s/tool/${t}`));
        expect(all.length).toBe(expected.size);
        expect(new Set(all)).toEqual(expected);
      }),
    );
  });

  test('the window is carried verbatim into the record', () => {
    const w = { run: 'nightly', seq: 2n ** 60n, tags: ['a', 'b'] };
    const diff = diffGraphs(side('declared', []), side('observed', []), { window: w });
    expect(diff.window).toEqual(w);
    expect(Buffer.from(encodeDiff(diff)).toString()).toContain(
      '"window":{"run":"nightly","seq":1152921504606846976,"tags":["a","b"]}',
    );
  });

  test('a diff without a window is refused by name', () => {
    refusedWith(
      () => diffGraphs(side('declared', []), side('observed', []), {} as never),
      'PALISADE_ERR_CONNECTOME_WINDOW_MISSING',
    );
  });

  test('a window with no canonical bytes is refused', () => {
    refusedWith(
      () => diffGraphs(side('declared', []), side('observed', []), { window: { ratio: 0.5 } as never }),
      'PALISADE_ERR_CONNECTOME_FLOAT',
    );
  });

  test('an unknown diff option is refused by name before the window is looked for', () => {
    const error = refusedWith(
      () => diffGraphs(side('declared', []), side('observed', []), { windw: window } as never),
      'PALISADE_ERR_UNKNOWN_OPTION',
    );
    expect(error.message).toContain('"windw"');
  });

  test('an observed edge in the declared graph is refused', () => {
    refusedWith(
      () => diffGraphs(side('observed', [['a', 'b']]), side('observed', []), { window }),
      'PALISADE_ERR_CONNECTOME_PROVENANCE',
    );
  });

  test('a declared edge in the observed graph is refused', () => {
    refusedWith(
      () => diffGraphs(side('declared', []), side('declared', [['a', 'b']]), { window }),
      'PALISADE_ERR_CONNECTOME_PROVENANCE',
    );
  });

  test('the declared graph is refused before the observed one and before the window', () => {
    const dangling = {
      nodes: [],
      edges: [{ from: 'x', to: 'y', kind: 'invoke', provenance: 'declared' } as EdgeInput],
    };
    refusedWith(
      () => diffGraphs(dangling as never, { nodes: [], edges: [{}] } as never, {} as never),
      'PALISADE_ERR_CONNECTOME_DANGLING_EDGE',
    );
  });

  test('the record is the same bytes whatever order the edges were given in', () => {
    const forward = side('declared', [
      ['a', 'b'],
      ['b', 'c'],
      ['c', 'a'],
    ]);
    const backward = side('declared', [
      ['c', 'a'],
      ['b', 'c'],
      ['a', 'b'],
    ]);
    const observed = side('observed', [['b', 'a']]);
    expect(encodeDiff(diffGraphs(forward, observed, { window }))).toEqual(
      encodeDiff(diffGraphs(backward, observed, { window })),
    );
  });
});
