import { describe, expect, test } from 'vitest';
import { isGraph } from '../src/graph.js';
import { createGraph, type EdgeInput, type NodeInput } from '../src/index.js';
import { refusedWith } from './refusal.js';

const server: NodeInput = { id: 's/server', kind: 'server', level: 'server' };
const tool: NodeInput = { id: 's/tool/t', kind: 'tool', level: 'server' };
const invoke: EdgeInput = { from: 's/server', to: 's/tool/t', kind: 'invoke', provenance: 'declared' };

describe('createGraph validates and never corrects', () => {
  test('a valid graph is built, frozen, and recognised as built', () => {
    const graph = createGraph({ nodes: [tool, server], edges: [invoke] });
    expect(isGraph(graph)).toBe(true);
    expect(Object.isFrozen(graph.nodes)).toBe(true);
    expect(Object.isFrozen(graph.edges[0])).toBe(true);
  });

  test('nodes are held in canonical order whatever order they were given in', () => {
    const graph = createGraph({ nodes: [tool, server], edges: [] });
    expect(graph.nodes.map((n) => n.id)).toEqual(['s/server', 's/tool/t']);
  });

  test('an edge given without a sign gets unset, the only sign the package writes', () => {
    expect(createGraph({ nodes: [server, tool], edges: [invoke] }).edges[0]!.sign).toBe('unset');
  });

  test('a consumer-supplied sign is kept as given', () => {
    expect(createGraph({ nodes: [server, tool], edges: [{ ...invoke, sign: 'deny' }] }).edges[0]!.sign).toBe(
      'deny',
    );
  });

  test('a duplicate edge is refused, not merged', () => {
    refusedWith(
      () => createGraph({ nodes: [server, tool], edges: [invoke, { ...invoke, sign: 'allow' }] }),
      'PALISADE_ERR_CONNECTOME_DUPLICATE_EDGE',
    );
  });

  test('the same endpoints with another provenance are a different edge', () => {
    const graph = createGraph({
      nodes: [server, tool],
      edges: [invoke, { ...invoke, provenance: 'observed' }],
    });
    expect(graph.edges).toHaveLength(2);
  });

  test('an edge naming a node the graph does not hold is refused as dangling', () => {
    const error = refusedWith(
      () => createGraph({ nodes: [server], edges: [invoke] }),
      'PALISADE_ERR_CONNECTOME_DANGLING_EDGE',
    );
    expect(error.message).toContain('s/tool/t');
  });

  test('an endpoint equal to a node id only after NFC is dangling, not repaired', () => {
    const nodes: NodeInput[] = [server, { id: 's/tool/\u00e9', kind: 'tool', level: 'server' }];
    refusedWith(
      () => createGraph({ nodes, edges: [{ ...invoke, to: 's/tool/e\u0301' }] }),
      'PALISADE_ERR_CONNECTOME_DANGLING_EDGE',
    );
  });

  test('two node ids that are one id after NFC are refused', () => {
    const nodes: NodeInput[] = [
      { id: 's/tool/\u00e9', kind: 'tool', level: 'server' },
      { id: 's/tool/e\u0301', kind: 'tool', level: 'server' },
    ];
    refusedWith(() => createGraph({ nodes, edges: [] }), 'PALISADE_ERR_CONNECTOME_NFC_COLLISION');
  });

  test('the same node id twice is refused', () => {
    refusedWith(
      () => createGraph({ nodes: [server, server], edges: [] }),
      'PALISADE_ERR_CONNECTOME_DUPLICATE_ID',
    );
  });

  test('a kind, level, edge kind, provenance or sign outside the vocabulary is refused', () => {
    const bad: [NodeInput[], EdgeInput[]][] = [
      [[{ ...tool, kind: 'socket' as never }], []],
      [[{ ...tool, level: 'mfa' as never }], []],
      [[server, tool], [{ ...invoke, kind: 'call' as never }]],
      [[server, tool], [{ ...invoke, provenance: 'inferred' as never }]],
      [[server, tool], [{ ...invoke, sign: 'unknown' as never }]],
    ];
    for (const [nodes, edges] of bad)
      refusedWith(() => createGraph({ nodes, edges }), 'PALISADE_ERR_CONNECTOME_INVALID');
  });

  test('an unknown field on a node is refused by name', () => {
    const error = refusedWith(
      () => createGraph({ nodes: [{ ...server, weight: 1 } as never], edges: [] }),
      'PALISADE_ERR_UNKNOWN_OPTION',
    );
    expect(error.message).toContain('"graph.nodes[0].weight"');
  });

  test('a graph that is not an object with two arrays is refused', () => {
    refusedWith(() => createGraph({ nodes: [] } as never), 'PALISADE_ERR_CONNECTOME_INVALID');
    refusedWith(() => createGraph(null as never), 'PALISADE_ERR_CONNECTOME_INVALID');
  });

  test('labels are copied, so mutating the host object afterwards changes nothing', () => {
    const labels = { mode: 'read_only' };
    const graph = createGraph({ nodes: [{ ...tool, labels }], edges: [] });
    labels.mode = 'proposal';
    expect(graph.nodes[0]!.labels['mode']).toBe('read_only');
  });
});
