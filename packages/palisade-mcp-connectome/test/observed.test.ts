import diagnosticsChannel from 'node:diagnostics_channel';
import { createServer, defineTool } from 'palisade-mcp';
import { afterEach, describe, expect, test } from 'vitest';
import {
  type Collector,
  encodeGraph,
  encodeSidecar,
  nodeId,
  observedGraph,
  startCollector,
} from '../src/index.js';
import { currentCollector } from '../src/observed.js';
import { refusedWith } from './refusal.js';
import { modern, serveInProcess } from './support/in-process.js';

const COMPLETION = 'tracing:palisade:dispatch:asyncEnd';

const server = createServer({
  name: 'obs',
  version: '1',
  tools: ['a', 'b', 'c'].map((name) =>
    defineTool({ name, inputSchema: { type: 'object' }, handler: () => ({ content: [] }) }),
  ),
});

async function call(tools: string[]): Promise<void> {
  const peer = serveInProcess(server);
  for (const [i, name] of tools.entries()) await peer.request(modern(i, 'tools/call', { name }));
  await peer.close();
}

let collector: Collector | undefined;
afterEach(() => {
  collector?.stop();
  collector = undefined;
});

describe('the observed graph collector', () => {
  test('reading the observed graph with no collector running is refused by name', {
    tags: ['threat-model'],
  }, () => {
    refusedWith(() => observedGraph(), 'PALISADE_ERR_CONNECTOME_NOT_COLLECTING');
  });

  test('a second collector is refused while one runs', () => {
    collector = startCollector();
    refusedWith(() => startCollector(), 'PALISADE_ERR_CONNECTOME_COLLECTOR_RUNNING');
  });

  test('calls give one observed invoke edge per tool, from the server, with the declared ids', async () => {
    collector = startCollector();
    await call(['a', 'a', 'b', 'a']);
    const graph = collector.graph();
    expect(graph.edges.map((e) => [e.from, e.to, e.kind, e.provenance, e.sign])).toEqual([
      [
        nodeId('obs', { kind: 'server' }),
        nodeId('obs', { kind: 'tool', name: 'a' }),
        'invoke',
        'observed',
        'unset',
      ],
      [
        nodeId('obs', { kind: 'server' }),
        nodeId('obs', { kind: 'tool', name: 'b' }),
        'invoke',
        'observed',
        'unset',
      ],
    ]);
    expect(graph.nodes.every((n) => Object.keys(n.labels).length === 0)).toBe(true);
  });

  test('each row carries its count, outcomes and an integer latency summary', async () => {
    collector = startCollector();
    await call(['a', 'a', 'a']);
    const weight = collector.graph().edges[0]!.weight as unknown as {
      count: number;
      latency_us: { count: number; min: number; max: number; sum: number; histogram: { counts: number[] } };
    };
    expect(weight).toMatchObject({ count: 3, outcomes: { ok: 3, tool_error: 0, fault: 0 } });
    const latency = weight.latency_us;
    expect(latency.count).toBe(3);
    for (const n of [latency.min, latency.max, latency.sum]) expect(Number.isInteger(n)).toBe(true);
    expect(latency.min).toBeLessThanOrEqual(latency.max);
    expect(latency.sum).toBeGreaterThanOrEqual(latency.max);
    const histogram = latency.histogram;
    expect(histogram.counts.reduce((x, y) => x + y, 0)).toBe(3);
  });

  test('weights go to the sidecar and leave the canonical bytes unchanged', async () => {
    collector = startCollector();
    await call(['a']);
    const once = encodeGraph(collector.graph());
    await call(['a', 'a']);
    expect(encodeGraph(collector.graph())).toEqual(once);
    expect(new TextDecoder().decode(encodeSidecar(collector.graph()))).toContain('"count":3');
  });

  test('the store is bounded by distinct edges: a new identity past maxEdges is dropped and counted', {
    tags: ['threat-model'],
  }, async () => {
    collector = startCollector({ maxEdges: 1 });
    await call(['a', 'b', 'b', 'a', 'c']);
    expect(collector.graph().edges.map((e) => e.to)).toEqual([nodeId('obs', { kind: 'tool', name: 'a' })]);
    expect(collector.stats()).toEqual({ edges: 1, calls: 2, dropped: 3, malformed: 0 });
  });

  test('the graph can be narrowed to one server', async () => {
    collector = startCollector();
    await call(['a']);
    expect(collector.graph({ server: 'other' }).edges).toEqual([]);
    expect(collector.graph({ server: 'obs' }).edges).toHaveLength(1);
  });

  test('an event without a server, tool, outcome and duration is counted as malformed, not stored', () => {
    collector = startCollector();
    const channel = diagnosticsChannel.channel(COMPLETION);
    channel.publish({ server: 'obs', tool: 'a', outcome: 'ok', durationMs: Number.NaN });
    channel.publish({ server: 'obs', tool: '\ud800', outcome: 'ok', durationMs: 1 });
    channel.publish('not an object');
    expect(collector.stats()).toMatchObject({ edges: 0, malformed: 3 });
  });

  test('stop unsubscribes, forgets the rows and leaves nothing behind', async () => {
    const first = startCollector();
    await call(['a']);
    first.stop();
    expect(diagnosticsChannel.channel(COMPLETION).hasSubscribers).toBe(false);
    expect(currentCollector()).toBeUndefined();
    refusedWith(() => first.graph(), 'PALISADE_ERR_CONNECTOME_NOT_COLLECTING');
    refusedWith(() => observedGraph(), 'PALISADE_ERR_CONNECTOME_NOT_COLLECTING');
    expect(first.stats().edges).toBe(0);
    collector = startCollector();
    expect(collector.graph().edges).toEqual([]);
  });

  test('stopping twice is harmless and does not stop a later collector', () => {
    const first = startCollector();
    first.stop();
    collector = startCollector();
    first.stop();
    expect(currentCollector()).toBe(collector);
  });

  test('maxEdges must be a positive integer no larger than its ceiling', () => {
    for (const maxEdges of [0, -1, 1.5, Number.POSITIVE_INFINITY, 1_000_001, '10' as never]) {
      refusedWith(() => startCollector({ maxEdges }), 'PALISADE_ERR_INVALID_OPTION');
    }
    expect(currentCollector()).toBeUndefined();
  });

  test('an unknown option is refused by name', () => {
    const error = refusedWith(() => startCollector({ maxEdge: 5 } as never), 'PALISADE_ERR_UNKNOWN_OPTION');
    expect(error.message).toContain('"maxEdge"');
  });
});

const reader = createServer({
  name: 'reads',
  version: '1',
  resources: [{ uri: 'file:///notes', name: 'notes', read: () => [{ uri: 'file:///notes', text: 'n' }] }],
  resourceTemplates: [
    { uriTemplate: 'file:///docs/{name}', name: 'docs', read: (uri) => [{ uri, text: 'd' }] },
  ],
  prompts: [
    {
      name: 'greet',
      get: () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] }),
    },
    {
      name: 'broken',
      get: () => {
        throw new Error('getter failed');
      },
    },
  ],
});

async function requests(messages: [string, Record<string, unknown>][]): Promise<void> {
  const peer = serveInProcess(reader);
  for (const [i, [method, params]] of messages.entries()) await peer.request(modern(i, method, params));
  await peer.close();
}

function weightOn(graph: ReturnType<Collector['graph']>, to: string, kind: string): unknown {
  const server = nodeId('reads', { kind: 'server' });
  return graph.edges.find((e) => e.from === server && e.to === to && e.kind === kind)?.weight;
}

describe('reads and prompts on the observed graph', () => {
  test('a resource read shows up as an observed read edge from the server, with its count', async () => {
    collector = startCollector();
    await requests([
      ['resources/read', { uri: 'file:///notes' }],
      ['resources/read', { uri: 'file:///notes' }],
    ]);
    const to = nodeId('reads', { kind: 'resource', uri: 'file:///notes' });
    expect(weightOn(collector.graph(), to, 'read')).toMatchObject({ count: 2, outcomes: { ok: 2 } });
  });

  test('a templated read is counted on its template, never on the URI the caller sent', async () => {
    collector = startCollector();
    await requests([
      ['resources/read', { uri: 'file:///docs/a' }],
      ['resources/read', { uri: 'file:///docs/b' }],
    ]);
    const graph = collector.graph();
    const to = nodeId('reads', { kind: 'resource_template', uriTemplate: 'file:///docs/{name}' });
    expect(weightOn(graph, to, 'read')).toMatchObject({ count: 2 });
    expect(graph.edges).toHaveLength(1);
  });

  test('a prompt get shows up as an observed read edge from the server, with its count', async () => {
    collector = startCollector();
    await requests([['prompts/get', { name: 'greet' }]]);
    const to = nodeId('reads', { kind: 'prompt', name: 'greet' });
    expect(weightOn(collector.graph(), to, 'read')).toMatchObject({ count: 1, outcomes: { ok: 1 } });
  });

  test('a getter that throws is counted as a fault on its prompt', async () => {
    collector = startCollector();
    await requests([['prompts/get', { name: 'broken' }]]);
    const to = nodeId('reads', { kind: 'prompt', name: 'broken' });
    expect(weightOn(collector.graph(), to, 'read')).toMatchObject({ count: 1, outcomes: { fault: 1 } });
  });

  test('an unknown URI or prompt reaches no host code and is not observed', async () => {
    collector = startCollector();
    await requests([
      ['resources/read', { uri: 'file:///elsewhere' }],
      ['prompts/get', { name: 'missing' }],
    ]);
    expect(collector.stats()).toMatchObject({ edges: 0, calls: 0, malformed: 0 });
  });

  test('an event naming two targets is counted as malformed, not stored', () => {
    collector = startCollector();
    diagnosticsChannel
      .channel(COMPLETION)
      .publish({ server: 'reads', tool: 'a', prompt: 'greet', outcome: 'ok', durationMs: 1 });
    expect(collector.stats()).toMatchObject({ edges: 0, malformed: 1 });
  });
});
