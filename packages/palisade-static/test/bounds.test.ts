import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { analyzeScope, MAX_FILE_BYTES, StaticAnalysisError } from '../src/index.js';
import { edgeList, removeScratch, scratch } from './support.js';

afterAll(removeScratch);

function tree(files: Record<string, string | Uint8Array>): string {
  const root = scratch();
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), content);
  }
  return root;
}

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof StaticAnalysisError) return error.code;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('bounds and unreadable input', () => {
  test('a file over MAX_FILE_BYTES is listed as too-large, stays a node, and is not parsed', () => {
    const root = tree({
      'main.ts': "import './big.js';\n",
      // Past the bound by one byte, and a syntax error the parser would report if it ever saw it.
      'big.ts': `${'/'.repeat(MAX_FILE_BYTES - 2)}\n)(`,
    });
    const graph = analyzeScope({ root });
    expect(edgeList(graph)).toEqual(['main.ts -import-> big.ts']);
    expect(graph.incomplete).toEqual([
      {
        file: 'big.ts',
        line: 0,
        reason: 'too-large',
        detail: `${MAX_FILE_BYTES + 1} bytes > maxFileBytes ${MAX_FILE_BYTES}`,
      },
    ]);
  });

  test('a file that is not UTF-8 is listed as unreadable', () => {
    const root = tree({
      'main.ts': "import './bad.js';\n",
      'bad.ts': new Uint8Array([0x63, 0xff, 0xfe, 0x0a]),
    });
    const graph = analyzeScope({ root });
    expect(graph.incomplete).toEqual([
      { file: 'bad.ts', line: 0, reason: 'unreadable', detail: 'not UTF-8' },
    ]);
    expect(graph.modules).toEqual(['bad.ts', 'main.ts']);
  });

  test.skipIf(process.getuid?.() === 0)('a file the process may not read is listed as unreadable', () => {
    const root = tree({ 'main.ts': "import './secret.js';\n", 'secret.ts': 'export {};\n' });
    chmodSync(path.join(root, 'secret.ts'), 0o000);
    const graph = analyzeScope({ root });
    expect(graph.incomplete).toEqual([
      { file: 'secret.ts', line: 0, reason: 'unreadable', detail: 'EACCES' },
    ]);
  });

  test('a file the parser refuses is listed as unparseable with its line', () => {
    const root = tree({ 'main.ts': 'export const ok = 1;\nconst = ;\n' });
    const graph = analyzeScope({ root });
    expect(graph.incomplete).toEqual([
      { file: 'main.ts', line: 2, reason: 'unparseable', detail: 'Unexpected token' },
    ]);
  });

  test('a symbolic link is listed and never followed', () => {
    const root = tree({ 'main.ts': 'export {};\n' });
    const elsewhere = tree({ 'away.ts': "import 'node:fs';\n" });
    symlinkSync(path.join(elsewhere, 'away.ts'), path.join(root, 'link.ts'));
    const graph = analyzeScope({ root });
    expect(graph.modules).toEqual(['main.ts']);
    expect(graph.incomplete).toEqual([{ file: 'link.ts', line: 0, reason: 'symlink', detail: 'link.ts' }]);
  });

  test('a scope past maxFiles is refused by name rather than read in part', () => {
    const root = tree({ 'a.ts': '', 'b.ts': '', 'c.ts': '' });
    expect(refusal(() => analyzeScope({ root, maxFiles: 2 }))).toBe('PALISADE_STATIC_ERR_TOO_MANY_FILES');
    expect(analyzeScope({ root, maxFiles: 3 }).modules).toEqual(['a.ts', 'b.ts', 'c.ts']);
  });

  test('node_modules, dot-directories and declaration files are not in the scope', () => {
    const root = tree({
      'main.ts': '',
      'types.d.ts': '',
      'node_modules/pkg/index.js': '',
      '.cache/x.ts': '',
    });
    expect(analyzeScope({ root }).modules).toEqual(['main.ts']);
  });

  test('an unknown option, an include that leaves root and a root that is not a directory are refused by name', () => {
    const root = tree({ 'main.ts': '' });
    expect(refusal(() => analyzeScope({ root, levle: 'module' } as never))).toBe(
      'PALISADE_STATIC_ERR_UNKNOWN_OPTION',
    );
    expect(refusal(() => analyzeScope({ root, include: ['../elsewhere'] }))).toBe(
      'PALISADE_STATIC_ERR_INVALID_OPTION',
    );
    expect(refusal(() => analyzeScope({ root, maxFileBytes: 0 }))).toBe('PALISADE_STATIC_ERR_INVALID_OPTION');
    expect(refusal(() => analyzeScope({ root: path.join(root, 'main.ts') }))).toBe(
      'PALISADE_STATIC_ERR_ROOT',
    );
  });
});
