/**
 * Will-not-implement, the connectome's share: no sign but `unset` written, no verdict, no
 * enumeration of all paths. The behavioural half drives every graph the package builds (declared,
 * merged, observed, diffed, and the same served as resources); the source half reads this
 * package's `src/`. The refusal of `allPaths` itself is held by `test/reach.test.ts` ("enumerating
 * all paths is refused by name"), and the absence of payload bytes in the observed graph by
 * `test/observed-marker.test.ts`.
 */

import { createServer, type Server, type ServerDefinition } from 'palisade-mcp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { EVERY_KIND as EVERY_KIND_SOURCE } from '../../../palisade-mcp/test/census/every-kind.js';
import { plant, runCensus, sourceFiles } from '../../../palisade-mcp/test/census/source.js';
import {
  CONNECTOME_DECLARED_URI,
  CONNECTOME_DIFF_URI,
  CONNECTOME_OBSERVED_URI,
  type Collector,
  connectomeResources,
  declaredFromCatalog,
  diffGraphs,
  type Graph,
  type GraphDiff,
  mergeStaticGraph,
  observedGraph,
  startCollector,
} from '../../src/index.js';
import { modern, serveInProcess } from '../support/in-process.js';
import { noPathEnumeration, noSignWritten, noVerdict } from './rules-connectome.js';

/** The server package's one-of-every-kind catalog, typed there against its sources; the same value here. */
const EVERY_KIND = EVERY_KIND_SOURCE as unknown as ServerDefinition;

const PACKAGE = 'palisade-mcp-connectome';

const WINDOW = { started_at: '2026-11-30T00:00:00Z', ended_at: '2026-11-30T01:00:00Z' };

/** Every value under a `sign` key anywhere in a JSON value. */
function signsIn(value: unknown): unknown[] {
  if (Array.isArray(value)) return value.flatMap(signsIn);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => (key === 'sign' ? [inner] : signsIn(inner)));
}

describe('the graphs the package builds carry no sign but unset', () => {
  let collector: Collector;
  let server: Server;
  let declared: Graph;
  let merged: Graph;
  let observed: Graph;
  let diff: GraphDiff;
  let served: unknown[];

  beforeAll(async () => {
    collector = startCollector();
    const self: { server?: Server } = {};
    const resources = connectomeResources({
      declared: () => declaredFromCatalog(self.server!, { modules: { echo: './tools/echo.js' } }),
      window: () => WINDOW,
    });
    server = createServer({ ...EVERY_KIND, resources: [...(EVERY_KIND.resources ?? []), ...resources] });
    self.server = server;
    declared = declaredFromCatalog(server, { modules: { echo: './tools/echo.js' } });
    const module = declared.nodes.find((node) => node.kind === 'module')!;
    merged = mergeStaticGraph(declared, {
      graph: {
        nodes: [module, { id: 'mod:helper', kind: 'module', level: 'module' }],
        edges: [{ from: module.id, to: 'mod:helper', kind: 'invoke', provenance: 'declared' }],
      },
      bound: {},
    }).graph;
    const peer = serveInProcess(server);
    await peer.request(modern(1, 'tools/call', { name: 'echo', arguments: { text: 'a' } }));
    await peer.request(modern(2, 'tools/call', { name: 'echo', arguments: {} }));
    served = [];
    for (const [id, uri] of [
      CONNECTOME_DECLARED_URI,
      CONNECTOME_OBSERVED_URI,
      CONNECTOME_DIFF_URI,
    ].entries()) {
      const reply = await peer.request(modern(10 + id, 'resources/read', { uri }));
      const contents = (reply['result'] as { contents: Array<{ text: string }> }).contents;
      served.push(JSON.parse(contents[0]!.text));
    }
    await peer.close();
    observed = observedGraph();
    diff = diffGraphs(declared, observed, { window: WINDOW });
  });
  afterAll(() => collector.stop());

  test('the declared graph of a catalog of every kind has edges, each signed unset', () => {
    expect(declared.edges.length).toBeGreaterThanOrEqual(5);
    expect(new Set(declared.edges.map((edge) => edge.sign))).toEqual(new Set(['unset']));
  });

  test('the declared graph merged with a static code graph has every edge signed unset', () => {
    expect(merged.edges.length).toBe(declared.edges.length + 1);
    expect(new Set(merged.edges.map((edge) => edge.sign))).toEqual(new Set(['unset']));
  });

  test('the observed graph of the calls has edges, each signed unset', () => {
    expect(observed.edges.length).toBeGreaterThan(0);
    expect(new Set(observed.edges.map((edge) => edge.sign))).toEqual(new Set(['unset']));
  });

  test('the diff of the two finds no sign on either side', () => {
    expect(diff.classes.declared_and_observed.length).toBeGreaterThan(0);
    expect(diff.classes.changed_sign).toEqual([]);
    expect(diff.coverage.declared_sign_only).toBe(0);
    expect(diff.coverage.observed_sign_only).toBe(0);
  });

  test('the graphs served as connectome resources carry no sign but unset', () => {
    const signs = served.flatMap(signsIn);
    expect(signs.length).toBeGreaterThan(0);
    expect(new Set(signs)).toEqual(new Set(['unset']));
  });
});

describe('census: no sign written but unset', () => {
  test('no connectome source writes a sign other than unset', () => {
    expect(runCensus(noSignWritten, sourceFiles(PACKAGE))).toEqual([]);
  });

  test('a planted edge signed allow is named', () => {
    const planted = "edges.push({ from, to, kind: 'invoke', provenance: 'declared', sign: 'allow' });\n";
    expect(plant(noSignWritten, 'planted.ts', planted)).toEqual([
      'planted.ts:1 writes sign "allow"',
      'planted.ts:1 spells the consumer sign "allow"',
    ]);
  });

  test('a planted assignment of a consumer sign is named', () => {
    const planted = "export function hold(edge) {\n  edge.sign = 'hold';\n}\n";
    expect(plant(noSignWritten, 'planted.ts', planted)).toEqual([
      'planted.ts:2 writes sign "hold"',
      'planted.ts:2 spells the consumer sign "hold"',
    ]);
  });
});

describe('census: no verdict, approval or risk decision', () => {
  test('nothing the connectome exports or records is named for a verdict', () => {
    expect(runCensus(noVerdict, sourceFiles(PACKAGE))).toEqual([]);
  });

  test('a planted exported approve function is named', () => {
    const planted = 'export function approve(edge) {\n  return true;\n}\n';
    expect(plant(noVerdict, 'planted.ts', planted)).toEqual(['planted.ts:1 exports approve']);
  });

  test('a planted risk field in a record is named', () => {
    const planted = 'export interface EdgeReport {\n  readonly from: string;\n  readonly risk: number;\n}\n';
    expect(plant(noVerdict, 'planted.ts', planted)).toEqual(['planted.ts:3 has a field risk']);
  });
});

describe('census: no enumeration of all paths', () => {
  test('every connectome function named for enumerating paths only refuses', () => {
    expect(runCensus(noPathEnumeration, sourceFiles(PACKAGE))).toEqual([]);
  });

  test('a planted allPaths that answers is named', () => {
    const planted = 'export function allPaths(graph, from, to) {\n  return [];\n}\n';
    expect(plant(noPathEnumeration, 'reach.ts', planted)).toEqual([
      'reach.ts:1 allPaths does more than refuse',
    ]);
  });

  test("today's reach.ts with allPaths made to answer before it throws is named", () => {
    const reach = sourceFiles(PACKAGE).find(({ file }) => file === 'reach.ts')!;
    const planted = reach.source.replace(
      /(allPaths\([^)]*\): never \{)/,
      '$1\n  if (_from === _to) return [] as never;',
    );
    expect(plant(noPathEnumeration, reach.file, planted)).toEqual([
      expect.stringMatching(/^reach\.ts:\d+ allPaths does more than refuse$/),
    ]);
  });

  test('an allPaths whose body only throws is not a violation', () => {
    const source = "export function allPaths() {\n  throw new Error('refused');\n}\n";
    expect(plant(noPathEnumeration, 'reach.ts', source)).toEqual([]);
  });
});
