/**
 * Will-not-implement: a tool, resource or prompt of its own. The host supplies the catalog; the
 * demo's lives in `packages/demo`. The one offer the project makes, the three `connectome://`
 * resources of `connectomeResources`, lives in palisade-mcp-connectome (its census allows that
 * one file) and is served only when the host puts them in its catalog.
 */
import { describe, expect, test } from 'vitest';
import { noOwnCatalog, noOwnCatalogExcept } from './rules-code.js';
import { plant, runCensus } from './source.js';

describe('census: no concrete catalog or tool inside the package', () => {
  test('no source file calls createServer or defineTool, or builds a catalog entry literal', () => {
    expect(runCensus(noOwnCatalog)).toEqual([]);
  });

  test('a planted server with a tool of its own is named', () => {
    const planted = [
      'export const demo = createServer({',
      "  name: 'demo',",
      "  version: '1',",
      "  tools: [defineTool({ name: 'echo', inputSchema: {}, handler: () => ({ content: [] }) })],",
      '});',
      '',
    ].join('\n');
    expect(plant(noOwnCatalog, 'server.ts', planted)).toEqual([
      'server.ts:1 calls createServer',
      'server.ts:4 calls defineTool',
      'server.ts:4 builds a tool literal',
    ]);
  });

  test('a planted prompt literal is named', () => {
    const planted = "export const prompt = { name: 'greet', get: () => ({ messages: [] }) };\n";
    expect(plant(noOwnCatalog, 'catalog/planted.ts', planted)).toEqual([
      'catalog/planted.ts:1 builds a prompt literal',
    ]);
  });

  test('a planted resource literal outside the connectome offer is named', () => {
    const planted = "export const readme = { uri: 'file:///etc/passwd', name: 'r', read: () => [] };\n";
    expect(plant(noOwnCatalog, 'http/planted.ts', planted)).toEqual([
      'http/planted.ts:1 builds a resource literal',
    ]);
    expect(plant(noOwnCatalogExcept('resources.ts'), 'resources.ts', planted)).toEqual([]);
    expect(plant(noOwnCatalog, 'resources.ts', planted)).toEqual([
      'resources.ts:1 builds a resource literal',
    ]);
  });

  test("node:http's createServer is not a violation", () => {
    const source = "import { createServer } from 'node:http';\nexport const s = createServer(() => {});\n";
    expect(plant(noOwnCatalog, 'http/planted.ts', source)).toEqual([]);
  });
});
