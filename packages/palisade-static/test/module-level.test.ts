import { describe, expect, test } from 'vitest';
import { analyzeScope } from '../src/index.js';
import { edgeList, fixture, listed } from './support.js';

const app = analyzeScope({ root: fixture('app'), include: ['src'] });
const edges = edgeList(app);

describe('the module level', () => {
  test('is the default level and lists every source file in scope with POSIX ids relative to root', () => {
    expect(app.level).toBe('module');
    expect(app.modules).toEqual([
      'src/cycle-a.ts',
      'src/cycle-b.ts',
      'src/lazy.ts',
      'src/legacy.cjs',
      'src/main.ts',
      'src/named.ts',
      'src/plain.js',
      'src/reexported.ts',
      'src/shape.ts',
      'src/util.ts',
    ]);
    expect(app.nodes.map((n) => n.id)).toEqual(app.modules);
  });

  test('a static import of ./x.js is an edge to ./x.ts, as NodeNext resolves it', () => {
    expect(edges).toContain('src/main.ts -import-> src/util.ts');
  });

  test('a re-export, named or star, is an import edge', () => {
    expect(edges).toContain('src/main.ts -import-> src/named.ts');
    expect(edges).toContain('src/main.ts -import-> src/reexported.ts');
  });

  test('an import type is erased by the compiler and gives no edge', () => {
    expect(edges.filter((e) => e.endsWith('src/shape.ts'))).toEqual([]);
  });

  test('a dynamic import with a literal specifier is an edge', () => {
    expect(edges).toContain('src/main.ts -import-> src/lazy.ts');
  });

  test('a dynamic import with a computed specifier is listed, not guessed', () => {
    expect(listed(app, 'dynamic-import')).toEqual([
      {
        file: 'src/main.ts',
        line: 15,
        reason: 'dynamic-import',
        detail: 'import(`./plugins/\u0024{name}.js`)',
      },
    ]);
  });

  test('a literal require in a CommonJS file is an edge, extensionless specifiers included', () => {
    expect(edges).toContain('src/legacy.cjs -import-> src/plain.js');
  });

  test('a require with a computed specifier is listed', () => {
    expect(listed(app, 'dynamic-require')).toEqual([
      {
        file: 'src/legacy.cjs',
        line: 2,
        reason: 'dynamic-require',
        detail: 'require(process.env.LEGACY_PLUGIN)',
      },
    ]);
  });

  test('a cycle gives both edges and no error', () => {
    expect(edges).toContain('src/cycle-a.ts -import-> src/cycle-b.ts');
    expect(edges).toContain('src/cycle-b.ts -import-> src/cycle-a.ts');
  });

  test('a file outside the scope, a package and a built-in are listed as outside-scope, never as nodes', () => {
    expect(listed(app, 'outside-scope')).toEqual([
      { file: 'src/main.ts', line: 3, reason: 'outside-scope', detail: 'node:fs' },
      { file: 'src/main.ts', line: 4, reason: 'outside-scope', detail: 'left-pad' },
      { file: 'src/main.ts', line: 5, reason: 'outside-scope', detail: '../lib/outside.js' },
    ]);
    expect(app.modules).not.toContain('lib/outside.ts');
  });

  test('a relative import of a file that does not exist is listed as unresolved-import', () => {
    expect(listed(app, 'unresolved-import')).toEqual([
      { file: 'src/main.ts', line: 6, reason: 'unresolved-import', detail: './missing.js' },
    ]);
  });

  test('widening the scope turns an outside-scope file into a node with an edge', () => {
    const wide = analyzeScope({ root: fixture('app'), include: ['src', 'lib'] });
    expect(edgeList(wide)).toContain('src/main.ts -import-> lib/outside.ts');
    expect(listed(wide, 'outside-scope').map((i) => i.detail)).toEqual(['node:fs', 'left-pad']);
  });

  test('the module level has import edges only and no self-edge', () => {
    expect(app.edges.every((e) => e.kind === 'import' && e.from !== e.to)).toBe(true);
  });
});
