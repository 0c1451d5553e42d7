import { describe, expect, test } from 'vitest';
import { analyzeScope, type StaticGraph } from '../src/index.js';
import { fixture } from './support.js';

function sorted(values: readonly string[]): boolean {
  return values.every((v, i) => i === 0 || values[i - 1]! < v);
}

function key(graph: StaticGraph): { nodes: string[]; edges: string[]; incomplete: string[] } {
  return {
    nodes: graph.nodes.map((n) => n.id),
    edges: graph.edges.map((e) => JSON.stringify([e.from, e.to, e.kind])),
    incomplete: graph.incomplete.map(
      (i) => `${i.file}\u0000${String(i.line).padStart(9, '0')}\u0000${i.reason}\u0000${i.detail}`,
    ),
  };
}

describe('determinism', () => {
  for (const level of ['module', 'function', 'boundary'] as const) {
    test(`two reads at the ${level} level give the same JSON, every list sorted and free of duplicates`, () => {
      const once = analyzeScope({ root: fixture('app'), include: ['src'], level });
      const twice = analyzeScope({ root: fixture('app'), include: ['src/', './src'], level });
      expect(JSON.stringify(twice)).toBe(JSON.stringify(once));
      const k = key(once);
      expect(sorted(once.modules)).toBe(true);
      expect(sorted(k.nodes)).toBe(true);
      expect(sorted(k.edges)).toBe(true);
      expect(sorted(k.incomplete)).toBe(true);
    });
  }

  test('the result is plain JSON: it survives a round trip unchanged', () => {
    const graph = analyzeScope({ root: fixture('functions'), level: 'function' });
    expect(JSON.parse(JSON.stringify(graph))).toEqual(graph);
  });
});
