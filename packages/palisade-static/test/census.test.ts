import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';

const SRC = new URL('../src/', import.meta.url);
const files = readdirSync(SRC).filter((f) => f.endsWith('.ts'));

/** Every way this package could load or run the code it reads; none may appear in its source. */
const FORBIDDEN: readonly [string, RegExp][] = [
  ['dynamic import', /\bimport\s*\(/],
  ['require', /\brequire\s*\(/],
  ['createRequire', /\bcreateRequire\b/],
  ['eval', /\beval\s*\(/],
  ['Function constructor', /\bnew\s+Function\b/],
  ['node:vm', /['"](?:node:)?vm['"]/],
  ['child processes', /['"](?:node:)?child_process['"]/],
  ['workers', /['"](?:node:)?worker_threads['"]/],
];

describe('census of the package source', () => {
  test('no source file can load, evaluate or spawn the host code it reads', () => {
    expect(files.length).toBeGreaterThan(0);
    const found: string[] = [];
    for (const file of files) {
      // Comments may name what the code must not do; only the code is searched.
      const text = readFileSync(new URL(file, SRC), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '');
      for (const [what, pattern] of FORBIDDEN) if (pattern.test(text)) found.push(`${file}: ${what}`);
    }
    expect(found).toEqual([]);
  });
});
