import { describe, expect, test } from 'vitest';
import { analyzeScope } from '../src/index.js';
import { edgeList, fixture, listed } from './support.js';

describe('the boundary level', () => {
  test('groups modules by their nearest package.json and makes packages and built-ins boundary nodes', () => {
    const graph = analyzeScope({ root: fixture('workspace'), level: 'boundary' });
    expect(graph.nodes).toEqual([
      { id: '.', kind: 'boundary' },
      { id: 'node:path', kind: 'builtin' },
      { id: 'npm:zod', kind: 'package' },
      { id: 'packages/one', kind: 'boundary' },
      { id: 'packages/two', kind: 'boundary' },
    ]);
    expect(edgeList(graph)).toEqual([
      '. -import-> packages/one',
      'packages/one -import-> node:path',
      'packages/one -import-> npm:zod',
      'packages/one -import-> packages/two',
    ]);
    expect(graph.incomplete).toEqual([]);
  });

  test('host-declared boundaries win by longest prefix and an ungrouped module is listed', () => {
    const graph = analyzeScope({
      root: fixture('workspace'),
      level: 'boundary',
      boundaries: [
        { name: 'libraries', prefix: 'packages' },
        { name: 'core', prefix: 'packages/two' },
      ],
    });
    expect(edgeList(graph)).toEqual([
      'libraries -import-> core',
      'libraries -import-> node:path',
      'libraries -import-> npm:zod',
    ]);
    expect(listed(graph, 'ungrouped')).toEqual([
      { file: 'tools/script.ts', line: 0, reason: 'ungrouped', detail: 'tools/script.ts' },
    ]);
  });
});
