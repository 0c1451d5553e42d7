/**
 * The static read adapted into the declared graph, end to end: a real `analyzeScope` run (the
 * workspace's `palisade-mcp-static`, a dev-time peer the server package never imports) over a
 * small tree written to a scratch directory, then `staticToDeclared`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer, defineTool, type Server } from 'palisade-mcp';
import { analyzeScope } from 'palisade-mcp-static';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  canonicalGraph,
  declaredFromCatalog,
  nodeId,
  reachable,
  reachableWithout,
  type StaticReadShape,
  staticToDeclared,
} from '../src/index.js';
import { refusedWith } from './refusal.js';

const TREE: Record<string, string> = {
  'src/tools/lookup.ts':
    "import { query } from '../db.js';\nexport function lookup(k: string) { return query(k); }\n",
  'src/tools/remove.ts':
    "import { check } from '../policy.js';\nimport { write } from '../db.js';\n" +
    'export function remove(k: string) { check(k); return write(k); }\n',
  'src/policy.ts': 'export function check(k: string) { return k.length > 0; }\n',
  'src/db.ts':
    "import { readFileSync } from 'node:fs';\n" +
    'export function query(k: string) { return readFileSync(k, "utf8"); }\n' +
    'export function write(k: string) { return k; }\n' +
    "export async function plugin(name: string) { return import('./plugins/' + name); }\n",
};

const tools = ['lookup', 'remove', 'ping'].map((name) =>
  defineTool({ name, inputSchema: { type: 'object' }, handler: () => ({ content: [] }) }),
);
const MODULES = { lookup: 'src/tools/lookup.ts', remove: 'src/tools/remove.ts' };

let root: string;
let server: Server;
const id = (module: string): string => nodeId('app', { kind: 'module', module });

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'palisade-connectome-static-'));
  for (const [file, text] of Object.entries(TREE)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  server = createServer({ name: 'app', version: '1', tools });
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('staticToDeclared over a real analyzeScope read', () => {
  test('module edges join the catalog through the tool-to-module map', () => {
    const read = analyzeScope({ root, include: ['src'], level: 'module' });
    const { graph } = staticToDeclared(server, read, { modules: MODULES });
    const edges = graph.edges.map((e) => `${e.from} -${e.kind}/${e.provenance}/${e.sign}-> ${e.to}`);
    for (const [from, to] of [
      [nodeId('app', { kind: 'tool', name: 'remove' }), id('src/tools/remove.ts')],
      [id('src/tools/remove.ts'), id('src/policy.ts')],
      [id('src/tools/remove.ts'), id('src/db.ts')],
      [id('src/tools/lookup.ts'), id('src/db.ts')],
    ]) {
      expect(edges).toContain(`${from} -invoke/declared/unset-> ${to}`);
    }
    const entry = nodeId('app', { kind: 'server' });
    expect(reachable(graph, entry, id('src/db.ts'))).toBe(true);
    // lookup reaches db without crossing policy; the witness is made of the graph's own edges.
    const witness = reachableWithout(graph, entry, id('src/db.ts'), [id('src/policy.ts')]);
    expect(witness?.nodes).toEqual([
      entry,
      nodeId('app', { kind: 'tool', name: 'lookup' }),
      id('src/tools/lookup.ts'),
      id('src/db.ts'),
    ]);
    // remove reaches db only through its own module, which the gate set below closes off.
    expect(
      reachableWithout(graph, nodeId('app', { kind: 'tool', name: 'remove' }), id('src/db.ts'), [
        id('src/tools/remove.ts'),
      ]),
    ).toBeNull();
  });

  test('the incomplete list becomes the bound, by reason, never a count', () => {
    const read = analyzeScope({ root, include: ['src'], level: 'module' });
    const { bound } = staticToDeclared(server, read, { modules: MODULES });
    expect(bound['dynamic-import']).toEqual([
      { file: 'src/db.ts', line: 4, detail: expect.stringContaining('import(') },
    ]);
    expect(bound['outside-scope']).toEqual([{ file: 'src/db.ts', line: 1, detail: 'node:fs' }]);
    expect(bound['tool-without-module']).toEqual(['ping']);
    expect(bound['tool-module-outside-scope']).toBeUndefined();
  });

  test('a mapped module the read did not cover is listed beside the tool', () => {
    const read = analyzeScope({ root, include: ['src/tools'], level: 'module' });
    const { bound } = staticToDeclared(server, read, { modules: { ...MODULES, ping: 'src/ping.ts' } });
    expect(bound['tool-module-outside-scope']).toEqual([{ module: 'src/ping.ts', tool: 'ping' }]);
  });

  test('function ids split at the last # into module and name', () => {
    const read = analyzeScope({ root, include: ['src'], level: 'function' });
    const { graph } = staticToDeclared(server, read, { modules: MODULES });
    const from = nodeId('app', { kind: 'function', module: 'src/tools/remove.ts', name: 'remove' });
    const to = nodeId('app', { kind: 'function', module: 'src/policy.ts', name: 'check' });
    expect(graph.edges.some((e) => e.from === from && e.to === to && e.kind === 'invoke')).toBe(true);
    expect(graph.nodes.find((n) => n.id === from)).toMatchObject({ kind: 'module', level: 'function' });
  });

  test('boundary nodes, packages and built-ins are boundaries with their source', () => {
    const read = analyzeScope({ root, include: ['src'], level: 'boundary' });
    const { graph } = staticToDeclared(server, read);
    const ids = graph.nodes.filter((n) => n.level === 'boundary').map((n) => n.id);
    expect(ids).toContain(nodeId('app', { kind: 'boundary', source: 'package', name: '.' }));
    expect(ids).toContain(nodeId('app', { kind: 'boundary', source: 'node', name: 'fs' }));
  });

  test('the same tree gives the same hash twice', () => {
    const once = canonicalGraph(staticToDeclared(server, analyzeScope({ root, include: ['src'] })).graph);
    const twice = canonicalGraph(staticToDeclared(server, analyzeScope({ root, include: ['src'] })).graph);
    expect(once.hash).toBe(twice.hash);
  });

  test('with an empty read the graph is the catalog graph', () => {
    const empty: StaticReadShape = { level: 'module', modules: [], nodes: [], edges: [], incomplete: [] };
    const { graph } = staticToDeclared(server, empty);
    expect(canonicalGraph(graph).hash).toBe(canonicalGraph(declaredFromCatalog(server)).hash);
  });
});

describe('a read that is not the analyser shape is refused by name', () => {
  const base: StaticReadShape = {
    level: 'module',
    modules: ['a.ts'],
    nodes: [{ id: 'a.ts', kind: 'module' }],
    edges: [],
    incomplete: [],
  };
  const cases: [string, unknown][] = [
    ['an unknown field', { ...base, extra: [] }],
    ['an unknown level', { ...base, level: 'mfa' }],
    ['an unknown node kind', { ...base, nodes: [{ id: 'a.ts', kind: 'class' }] }],
    ['an unknown edge kind', { ...base, edges: [{ from: 'a.ts', to: 'a.ts', kind: 'spawn' }] }],
    ['an edge to a node the read lacks', { ...base, edges: [{ from: 'a.ts', to: 'b.ts', kind: 'import' }] }],
    ['a function id without a name', { ...base, nodes: [{ id: 'a.ts#', kind: 'function' }] }],
    ['a package id without its prefix', { ...base, nodes: [{ id: 'ajv', kind: 'package' }] }],
    ['a node listed twice', { ...base, nodes: [base.nodes[0], base.nodes[0]] }],
    [
      'a count in place of a line',
      { ...base, incomplete: [{ file: 'a.ts', line: 1.5, reason: 'x', detail: 'y' }] },
    ],
  ];
  for (const [what, read] of cases) {
    test(`${what}`, () => {
      refusedWith(() => staticToDeclared(server, read as StaticReadShape), 'PALISADE_ERR_CONNECTOME_INVALID');
    });
  }

  test('a tool-to-module map naming no tool is refused as the catalog builder refuses it', () => {
    refusedWith(
      () => staticToDeclared(server, base, { modules: { nope: 'a.ts' } }),
      'PALISADE_ERR_CONNECTOME_UNKNOWN_TOOL',
    );
  });
});
