import { createServer, defineTool } from 'palisade-mcp';
import { describe, expect, test } from 'vitest';
import {
  createGraph,
  declaredFromCatalog,
  type Graph,
  identifiedNode,
  mergeStaticGraph,
  nodeId,
} from '../src/index.js';
import { refusedWith } from './refusal.js';

const noop = defineTool({
  name: 'noop',
  inputSchema: { type: 'object' },
  handler: () => ({ content: [] }),
});

function catalogServer() {
  return createServer({
    name: 'srv',
    version: '1',
    tools: [noop, { ...noop, name: 'write' }],
    resources: [{ uri: 'file:///a', name: 'a', read: () => [] }],
    resourceTemplates: [{ uriTemplate: 'file:///{path}', name: 't', read: () => [] }],
    prompts: [{ name: 'greet', get: () => ({ messages: [] }) }],
  });
}

const id = {
  server: nodeId('srv', { kind: 'server' }),
  noop: nodeId('srv', { kind: 'tool', name: 'noop' }),
  write: nodeId('srv', { kind: 'tool', name: 'write' }),
  module: nodeId('srv', { kind: 'module', module: 'src/tools/io.ts' }),
};

function labels(graph: Graph): string[] {
  return graph.edges.map((e) => `${e.from} -${e.kind}-> ${e.to}`);
}

describe('the declared graph from the catalog', () => {
  test('the server invokes every tool and reads every resource, template and prompt', () => {
    expect(labels(declaredFromCatalog(catalogServer()))).toEqual([
      'srv/server -read-> srv/prompt/greet',
      'srv/server -read-> srv/resource/file:%2F%2F%2Fa',
      'srv/server -read-> srv/resource_template/file:%2F%2F%2F{path}',
      'srv/server -invoke-> srv/tool/noop',
      'srv/server -invoke-> srv/tool/write',
    ]);
  });

  test('every node comes from the one id function with its kind and level', () => {
    const graph = declaredFromCatalog(catalogServer());
    expect(graph.nodes).toContainEqual(identifiedNode('srv', { kind: 'prompt', name: 'greet' }));
    expect(graph.nodes).toContainEqual(
      identifiedNode('srv', { kind: 'resource_template', uriTemplate: 'file:///{path}' }),
    );
    expect(graph.nodes.find((n) => n.id.includes('resource_template'))?.kind).toBe('resource');
  });

  test('every edge is declared, with sign unset and no weight', () => {
    for (const edge of declaredFromCatalog(catalogServer()).edges) {
      expect(edge).toMatchObject({ provenance: 'declared', sign: 'unset' });
      expect(edge.weight).toBeUndefined();
    }
  });

  test('a template and a resource spelled alike are two nodes', () => {
    const server = createServer({
      name: 'srv',
      version: '1',
      resources: [{ uri: 'x:{y}', name: 'r', read: () => [] }],
      resourceTemplates: [{ uriTemplate: 'x:{y}', name: 't', read: () => [] }],
    });
    expect(declaredFromCatalog(server).nodes).toHaveLength(3);
  });

  test('a tool mapped to a module invokes that module, and two tools share its node', () => {
    const graph = declaredFromCatalog(catalogServer(), {
      modules: { noop: 'src/tools/io.ts', write: 'src/tools/io.ts' },
    });
    expect(graph.nodes.filter((n) => n.id === id.module)).toEqual([
      { id: id.module, kind: 'module', level: 'module', labels: {} },
    ]);
    expect(labels(graph)).toContain(`${id.noop} -invoke-> ${id.module}`);
    expect(labels(graph)).toContain(`${id.write} -invoke-> ${id.module}`);
  });

  test('a mapping naming a tool the catalog lacks is refused by name', () => {
    const error = refusedWith(
      () => declaredFromCatalog(catalogServer(), { modules: { nope: 'src/x.ts' } }),
      'PALISADE_ERR_CONNECTOME_UNKNOWN_TOOL',
    );
    expect(error.message).toContain('"nope"');
  });

  test('a mapping to an empty module name is refused', () => {
    refusedWith(
      () => declaredFromCatalog(catalogServer(), { modules: { noop: '' } }),
      'PALISADE_ERR_INVALID_OPTION',
    );
  });

  test('an unknown option is refused by name', () => {
    const error = refusedWith(
      () => declaredFromCatalog(catalogServer(), { moduls: {} } as never),
      'PALISADE_ERR_UNKNOWN_OPTION',
    );
    expect(error.message).toContain('"moduls"');
  });

  test('something other than a built server is refused', () => {
    refusedWith(() => declaredFromCatalog({} as never), 'PALISADE_ERR_CONNECTOME_INVALID');
  });
});

describe('the seam for the static call graph', () => {
  const helper = identifiedNode('srv', { kind: 'module', module: 'src/lib/fs.ts' });
  const ioNode = identifiedNode('srv', { kind: 'module', module: 'src/tools/io.ts' });
  const codeEdge = { from: ioNode.id, to: helper.id, kind: 'invoke', provenance: 'declared' } as const;
  const codeGraph = { nodes: [ioNode, helper], edges: [codeEdge] };
  const mapped = () => declaredFromCatalog(catalogServer(), { modules: { noop: 'src/tools/io.ts' } });

  test('a module graph merges into the declared graph on shared ids', () => {
    const { graph } = mergeStaticGraph(mapped(), { graph: codeGraph, bound: {} });
    expect(labels(graph)).toContain(`${id.noop} -invoke-> ${id.module}`);
    expect(labels(graph)).toContain(`${ioNode.id} -invoke-> ${helper.id}`);
    expect(graph.nodes.filter((n) => n.id === ioNode.id)).toHaveLength(1);
  });

  test('an edge both graphs hold is one edge', () => {
    const both = {
      nodes: [
        identifiedNode('srv', { kind: 'server' }),
        identifiedNode('srv', { kind: 'tool', name: 'noop' }),
      ],
      edges: [{ from: id.server, to: id.noop, kind: 'invoke', provenance: 'declared' } as const],
    };
    const { graph } = mergeStaticGraph(mapped(), { graph: both, bound: {} });
    expect(graph.edges).toHaveLength(mapped().edges.length);
  });

  test('the completeness bound comes back as sorted lists beside the graph', () => {
    const { bound } = mergeStaticGraph(mapped(), {
      graph: codeGraph,
      bound: { dynamic_imports: ['src/z.ts', 'src/a.ts'], unreadable_files: [] },
    });
    expect(bound).toEqual({ dynamic_imports: ['src/a.ts', 'src/z.ts'], unreadable_files: [] });
  });

  test('a bound entry may be a record, as the static analyser lists what it could not see', () => {
    const unseen = { file: 'src/x.ts', line: 3, reason: 'dynamic-import', detail: 'name' };
    const { bound } = mergeStaticGraph(mapped(), { graph: codeGraph, bound: { incomplete: [unseen] } });
    expect(bound['incomplete']).toEqual([unseen]);
  });

  test('a float in a bound record is refused: the bound holds no bytes without a canonical form', () => {
    const unseen = { file: 'src/x.ts', line: 3.5 };
    refusedWith(
      () => mergeStaticGraph(mapped(), { graph: codeGraph, bound: { incomplete: [unseen] } }),
      'PALISADE_ERR_CONNECTOME_FLOAT',
    );
  });

  test('a count in the bound is refused: the bound lists, it never counts', () => {
    const error = refusedWith(
      () => mergeStaticGraph(mapped(), { graph: codeGraph, bound: { dynamic_imports: 3 } as never }),
      'PALISADE_ERR_CONNECTOME_BOUND',
    );
    expect(error.message).toContain('a count');
  });

  test('a name listed twice in the bound is refused', () => {
    refusedWith(
      () => mergeStaticGraph(mapped(), { graph: codeGraph, bound: { external_callees: ['fs', 'fs'] } }),
      'PALISADE_ERR_CONNECTOME_BOUND',
    );
  });

  test('an observed edge in the code graph is refused by provenance', () => {
    const observed = { ...codeGraph, edges: [{ ...codeEdge, provenance: 'observed' } as const] };
    refusedWith(
      () => mergeStaticGraph(mapped(), { graph: observed, bound: {} }),
      'PALISADE_ERR_CONNECTOME_PROVENANCE',
    );
  });

  test('a sign in the code graph is refused: a verdict is the consumer’s to add', () => {
    const signed = { ...codeGraph, edges: [{ ...codeEdge, sign: 'allow' } as const] };
    refusedWith(
      () => mergeStaticGraph(mapped(), { graph: signed, bound: {} }),
      'PALISADE_ERR_CONNECTOME_INVALID',
    );
  });

  test('one id given as two different nodes is refused as a conflict', () => {
    const clash = { nodes: [{ ...ioNode, level: 'boundary' } as const], edges: [] };
    refusedWith(
      () => mergeStaticGraph(mapped(), { graph: clash, bound: {} }),
      'PALISADE_ERR_CONNECTOME_MERGE_CONFLICT',
    );
  });

  test('a code edge to a node the code graph does not hold is refused as dangling', () => {
    const dangling = { nodes: [helper], edges: [codeEdge] };
    refusedWith(
      () => mergeStaticGraph(declaredFromCatalog(catalogServer()), { graph: dangling, bound: {} }),
      'PALISADE_ERR_CONNECTOME_DANGLING_EDGE',
    );
  });

  test('the code graph is checked as any graph is', () => {
    const duplicate = { nodes: [helper, helper], edges: [] };
    refusedWith(
      () => mergeStaticGraph(mapped(), { graph: duplicate, bound: {} }),
      'PALISADE_ERR_CONNECTOME_DUPLICATE_ID',
    );
  });

  test('the merged graph is a built graph', () => {
    const { graph } = mergeStaticGraph(mapped(), { graph: createGraph(codeGraph), bound: {} });
    expect(Object.isFrozen(graph)).toBe(true);
  });
});
