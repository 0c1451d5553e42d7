/** Will-not-implement: code built from text in the package's own source. */
import { describe, expect, test } from 'vitest';
import { noEval } from './rules-code.js';
import { plant, runCensus } from './source.js';

describe('census: no eval, Function, vm or input-derived import()', () => {
  test('no source file runs code built from text', () => {
    expect(runCensus(noEval)).toEqual([]);
  });

  test('a planted eval is named', () => {
    expect(plant(noEval, 'protocol/planted.ts', 'export const run = (text) => eval(text);\n')).toEqual([
      'protocol/planted.ts:1 calls eval',
    ]);
  });

  test('a planted new Function is named', () => {
    const planted = "export const run = (body) => new Function('args', body);\n";
    expect(plant(noEval, 'catalog/planted.ts', planted)).toEqual([
      'catalog/planted.ts:1 constructs Function',
    ]);
  });

  test('a planted node:vm import is named', () => {
    const planted = "import { runInNewContext } from 'node:vm';\nexport { runInNewContext };\n";
    expect(plant(noEval, 'catalog/planted.ts', planted)).toEqual(['catalog/planted.ts:1 imports node:vm']);
  });

  test('a planted import() of a specifier taken from input is named', () => {
    const planted = "export async function load(name) {\n  return import('./handlers/' + name);\n}\n";
    expect(plant(noEval, 'cli/planted.ts', planted)).toEqual([
      'cli/planted.ts:2 imports a module named by a computed specifier',
    ]);
  });

  test('an import() of a literal specifier is not a violation', () => {
    expect(plant(noEval, 'cli/planted.ts', "export const m = await import('./main.js');\n")).toEqual([]);
  });
});
