import { createServer, defineTool } from 'palisade-mcp';
import { afterEach, describe, expect, test } from 'vitest';
import {
  type Collector,
  canonicalGraph,
  createGraph,
  declaredFromCatalog,
  type EdgeInput,
  effectiveConnectivity,
  encodeSidecar,
  type Graph,
  nodeId,
  pathHeat,
  startCollector,
} from '../src/index.js';
import { refusedWith } from './refusal.js';
import { modern, serveInProcess } from './support/in-process.js';

const nodes = ['s', 'a', 'b', 'c', 'd', 'm'].map((id) => ({
  id,
  kind: id === 's' ? ('server' as const) : id === 'm' ? ('module' as const) : ('tool' as const),
  level: id === 'm' ? ('module' as const) : ('server' as const),
}));

function declaredOf(pairs: [string, string][]): Graph {
  return createGraph({
    nodes,
    edges: pairs.map(([from, to]) => ({ from, to, kind: 'invoke', provenance: 'declared' })),
  });
}

function observedOf(rows: [string, string, unknown][]): Graph {
  return createGraph({
    nodes,
    edges: rows.map(
      ([from, to, weight]) => ({ from, to, kind: 'invoke', provenance: 'observed', weight }) as EdgeInput,
    ),
  });
}

const declared = declaredOf([
  ['s', 'a'],
  ['s', 'b'],
  ['s', 'c'],
  ['s', 'd'],
  ['a', 'm'],
  ['b', 'm'],
]);

function classes(graph: Graph, observed: Graph, options?: Parameters<typeof effectiveConnectivity>[2]) {
  return effectiveConnectivity(graph, observed, options).edges.map((e) => `${e.from}>${e.to}:${e.class}`);
}

describe('effective connectivity', () => {
  test('each declared edge gets its counterpart weight, or dead when it was never observed', () => {
    const observed = observedOf([
      ['s', 'a', { count: 10, latency_us: { min: 1, max: 9 } }],
      ['s', 'b', { count: 2 }],
    ]);
    const effective = effectiveConnectivity(declared, observed, { thresholds: { calls: 5 } });
    expect(effective.edges.map((e) => [e.from, e.to, e.class, e.measure?.value ?? null])).toEqual([
      ['a', 'm', 'dead', null],
      ['b', 'm', 'dead', null],
      ['s', 'a', 'hot', 10],
      ['s', 'b', 'cold', 2],
      ['s', 'c', 'dead', null],
      ['s', 'd', 'dead', null],
    ]);
    expect(effective.edges[2]!.observed).toEqual({ count: 10, latency_us: { min: 1, max: 9 } });
  });

  test('the default threshold is the upper quartile by nearest rank, and ties go hot', () => {
    const observed = observedOf([
      ['s', 'a', { count: 1 }],
      ['s', 'b', { count: 2 }],
      ['s', 'c', { count: 3 }],
      ['s', 'd', { count: 3 }],
    ]);
    const effective = effectiveConnectivity(declared, observed);
    expect(effective.summary.thresholds).toEqual({ calls: 3, samples: null });
    expect(effective.summary.threshold_source).toEqual({ calls: 'quantile', samples: 'quantile' });
    expect(classes(declared, observed).slice(2)).toEqual(['s>a:cold', 's>b:cold', 's>c:hot', 's>d:hot']);
  });

  test('calls and samples are separate units with separate thresholds', () => {
    const observed = observedOf([
      ['s', 'a', { count: 100 }],
      ['a', 'm', { samples: 3, sampled_us: 3000 }],
    ]);
    const effective = effectiveConnectivity(declared, observed, { thresholds: { calls: 1000 } });
    expect(effective.summary.thresholds).toEqual({ calls: 1000, samples: 3 });
    expect(classes(declared, observed, { thresholds: { calls: 1000 } })).toContain('a>m:hot');
    expect(classes(declared, observed, { thresholds: { calls: 1000 } })).toContain('s>a:cold');
  });

  test('an observed edge whose weight carries no count or samples is unmeasured, not cold', () => {
    const observed = observedOf([['s', 'a', { latency_us: { min: 1 } }]]);
    expect(classes(declared, observed)).toContain('s>a:unmeasured');
  });

  test('the summary counts every class and the observed edges nobody declared', () => {
    const observed = observedOf([
      ['s', 'a', { count: 4 }],
      ['s', 'b', {}],
      ['c', 'd', { count: 1 }],
    ]);
    expect(effectiveConnectivity(declared, observed).summary).toMatchObject({
      declared_edges: 6,
      hot: 1,
      cold: 0,
      dead: 4,
      unmeasured: 1,
      observed_undeclared: 1,
    });
  });

  test('the effective graph hashes exactly as the declared graph: classes live in the sidecar', () => {
    const observed = observedOf([['s', 'a', { count: 4 }]]);
    const effective = effectiveConnectivity(declared, observed);
    expect(canonicalGraph(effective.graph).hash).toBe(canonicalGraph(declared).hash);
    const sidecar = new TextDecoder().decode(encodeSidecar(effective.graph));
    expect(sidecar).toContain(
      '"weight":{"class":"hot","measure":{"unit":"calls","value":4},"observed":{"count":4}}',
    );
    expect(sidecar).toContain('"weight":{"class":"dead"}');
  });

  test('a path is as hot as its weakest hop', () => {
    const observed = observedOf([
      ['s', 'a', { count: 9 }],
      ['s', 'b', { count: 1 }],
      ['a', 'm', { count: 8 }],
    ]);
    const effective = effectiveConnectivity(declared, observed, { thresholds: { calls: 5 } });
    expect(pathHeat(effective, ['s', 'a', 'm'])).toMatchObject({
      class: 'hot',
      bottleneck: { from: 'a', to: 'm' },
    });
    expect(pathHeat(effective, ['s', 'b', 'm'])).toMatchObject({
      class: 'dead',
      bottleneck: { from: 'b', to: 'm' },
    });
    expect(pathHeat(effective, ['s', 'b'])).toMatchObject({ class: 'cold' });
  });

  test('a path through a pair with no declared edge is refused by name', () => {
    const effective = effectiveConnectivity(declared, observedOf([]));
    refusedWith(() => pathHeat(effective, ['s', 'm']), 'PALISADE_ERR_CONNECTOME_NOT_A_PATH');
    refusedWith(() => pathHeat(effective, ['s']), 'PALISADE_ERR_CONNECTOME_NOT_A_PATH');
    refusedWith(() => pathHeat(effective, ['s', 'nowhere']), 'PALISADE_ERR_CONNECTOME_UNKNOWN_NODE');
  });

  test('an edge of the wrong provenance on either side is refused', () => {
    refusedWith(
      () => effectiveConnectivity(observedOf([['s', 'a', {}]]), observedOf([])),
      'PALISADE_ERR_CONNECTOME_PROVENANCE',
    );
    refusedWith(() => effectiveConnectivity(declared, declared), 'PALISADE_ERR_CONNECTOME_PROVENANCE');
  });

  test('a threshold that is not a positive integer, and an unknown option, are refused by name', () => {
    for (const calls of [0, 1.5, -1, '3' as never]) {
      refusedWith(
        () => effectiveConnectivity(declared, observedOf([]), { thresholds: { calls } }),
        'PALISADE_ERR_INVALID_OPTION',
      );
    }
    const error = refusedWith(
      () => effectiveConnectivity(declared, observedOf([]), { threshold: 3 } as never),
      'PALISADE_ERR_UNKNOWN_OPTION',
    );
    expect(error.message).toContain('"threshold"');
  });
});

describe('effective connectivity on a real server', () => {
  let collector: Collector | undefined;
  afterEach(() => {
    collector?.stop();
    collector = undefined;
  });

  test('calls through the dispatch site make their declared server-to-tool edges hot or cold', async () => {
    const tool = (name: string) =>
      defineTool({ name, inputSchema: { type: 'object' }, handler: () => ({ content: [] }) });
    const server = createServer({
      name: 'eff',
      version: '1',
      tools: [tool('busy'), tool('rare'), tool('idle')],
    });
    collector = startCollector();
    const peer = serveInProcess(server);
    const calls = ['busy', 'busy', 'busy', 'rare'];
    for (const [i, name] of calls.entries()) await peer.request(modern(i, 'tools/call', { name }));
    await peer.close();

    const declared = declaredFromCatalog(server, { modules: { busy: 'src/busy.ts' } });
    const effective = effectiveConnectivity(declared, collector.graph(), { thresholds: { calls: 2 } });
    const id = (name: string) => nodeId('eff', { kind: 'tool', name });
    const server_ = nodeId('eff', { kind: 'server' });
    const heat = (to: string) => effective.edges.find((e) => e.from === server_ && e.to === to);
    expect(heat(id('busy'))).toMatchObject({ class: 'hot', measure: { unit: 'calls', value: 3 } });
    expect(heat(id('rare'))).toMatchObject({ class: 'cold', measure: { unit: 'calls', value: 1 } });
    expect(heat(id('idle'))).toMatchObject({ class: 'dead', measure: null });
    expect((heat(id('busy'))!.observed as { latency_us: { count: number } }).latency_us.count).toBe(3);
    // The collector cannot see a tool's module, so the server -> tool -> module path is dead at its last hop.
    const module = nodeId('eff', { kind: 'module', module: 'src/busy.ts' });
    expect(pathHeat(effective, [server_, id('busy'), module])).toMatchObject({
      class: 'dead',
      bottleneck: { from: id('busy'), to: module },
    });
    expect(canonicalGraph(effective.graph).hash).toBe(canonicalGraph(declared).hash);
  });
});
