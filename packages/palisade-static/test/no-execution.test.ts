import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { analyzeScope } from '../src/index.js';
import { edgeList, fixture } from './support.js';

describe('no host code runs', () => {
  test('a module that writes a marker and throws at import time is read, neither run nor thrown', () => {
    const root = fixture('no-exec');
    const marker = path.join(root, 'src', 'MARKER');
    expect(existsSync(marker)).toBe(false);
    for (const level of ['module', 'function', 'boundary'] as const) {
      const graph = analyzeScope({ root, level });
      expect(graph.modules).toEqual(['src/entry.ts', 'src/explosive.ts']);
      if (level === 'module') expect(edgeList(graph)).toEqual(['src/entry.ts -import-> src/explosive.ts']);
    }
    expect(existsSync(marker)).toBe(false);
  });
});
