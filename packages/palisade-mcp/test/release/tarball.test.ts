/**
 * What `npm publish` would upload, read from `npm pack --dry-run --json` (the same file list npm
 * computes for a publish) after `npm test` has built `dist/`. Shipped: the bundle (dist/bundle, one
 * file per entry point and shared chunks, scripts/bundle.mjs), the declarations, the `palisade`
 * command's entry (bin/), the manifest, the README and the licence. Not shipped: the per-file
 * modules tsc writes (they import Ajv, which is compiled into the bundle and not installed),
 * sources, tests, source maps and declaration maps (they point at `src/`), build info.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';

const PACKAGE = fileURLToPath(new URL('../..', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));

/** Every file the tarball may hold; anything else fails. */
const ALLOWED: readonly RegExp[] = [
  /^package\.json$/,
  /^LICENSE$/,
  /^README\.md$/,
  /^bin\/palisade\.js$/,
  /^dist\/bundle\/[a-z]+\.js$/,
  /^dist\/bundle\/chunks\/chunk-[A-Z0-9]+\.js$/,
  // `.generated` marks code a script wrote (scripts/meta-schema-validator.ts).
  /^dist\/(?:[a-z0-9-]+\/)*[a-z0-9-]+(?:\.generated)?\.d\.ts$/,
];

let packed: string[] = [];

beforeAll(() => {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--workspace', 'packages/palisade-mcp'], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [result] = JSON.parse(out) as [{ files: { path: string }[] }];
  packed = result.files.map((file) => file.path).sort();
});

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [relative(PACKAGE, join(dir, entry.name))],
  );
}

describe('the published tarball of palisade-mcp', () => {
  test('every file in the tarball is on the allow-list', () => {
    expect(packed.filter((path) => !ALLOWED.some((pattern) => pattern.test(path)))).toEqual([]);
  });

  test('every bundled module and every declaration in dist is in the tarball', () => {
    const built = walk(join(PACKAGE, 'dist')).filter(
      (path) => path.endsWith('.d.ts') || (path.startsWith('dist/bundle/') && path.endsWith('.js')),
    );
    expect(built.length).toBeGreaterThan(0);
    expect(built.filter((path) => !packed.includes(path))).toEqual([]);
  });

  test('no per-file module ships, since each would import an Ajv that is not installed', () => {
    expect(packed.filter((path) => path.endsWith('.js') && /^dist\/(?!bundle\/)/.test(path))).toEqual([]);
  });

  test('the declarations a host compiles against import nothing but Node built-ins, since Ajv is not installed', () => {
    const manifest = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as {
      exports: Record<string, string | Record<string, string>>;
    };
    const seen = new Set<string>();
    const imported = new Set<string>();
    const visit = (path: string): void => {
      if (seen.has(path)) return;
      seen.add(path);
      const text = readFileSync(join(PACKAGE, path), 'utf8');
      for (const m of text.matchAll(/(?:\bfrom|\bimport\()\s*'([^']+)'/g)) {
        const specifier = m[1]!;
        if (specifier.startsWith('.')) visit(join(dirname(path), specifier.replace(/\.js$/, '.d.ts')));
        else imported.add(specifier);
      }
    };
    for (const target of Object.values(manifest.exports)) {
      if (typeof target !== 'string' && target['types'] !== undefined)
        visit(target['types'].replace(/^\.\//, ''));
    }
    expect(seen.size).toBeGreaterThan(5);
    expect([...seen].filter((path) => !packed.includes(path))).toEqual([]);
    expect([...imported].filter((name) => !name.startsWith('node:'))).toEqual([]);
  });

  test('the shipped bundle imports nothing but Node built-ins and the packages the CLI loads on demand', () => {
    const bundled = packed.filter((path) => path.startsWith('dist/bundle/'));
    const imported = new Set<string>();
    for (const path of bundled) {
      const code = readFileSync(join(PACKAGE, path), 'utf8');
      for (const m of code.matchAll(/(?:\bfrom|\bimport\(?)\s*"([^"./][^"]*)"/g)) imported.add(m[1]!);
    }
    const foreign = [...imported].filter((name) => !name.startsWith('node:'));
    expect(foreign.sort()).toEqual(['palisade-demo', 'palisade-mcp-connectome/cli']);
  });

  test('every entry the exports map and bin name is in the tarball', () => {
    const manifest = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as {
      exports: Record<string, string | Record<string, string>>;
      bin: Record<string, string>;
    };
    const targets = [
      ...Object.values(manifest.exports).flatMap((target) =>
        typeof target === 'string' ? [target] : Object.values(target),
      ),
      ...Object.values(manifest.bin),
    ].map((target) => target.replace(/^\.\//, ''));
    expect(targets.filter((target) => !packed.includes(target))).toEqual([]);
  });

  test('the tarball carries the package README', () => {
    // npm shows README.md from the package folder, never the repository root's, on the package page.
    expect(packed).toContain('README.md');
  });

  test('the tarball carries the same Apache-2.0 licence text as the repository root', () => {
    // npm takes LICENSE from the package folder only, so the package keeps its own copy.
    expect(packed).toContain('LICENSE');
    const copy = readFileSync(join(PACKAGE, 'LICENSE'), 'utf8');
    expect(copy).toBe(readFileSync(join(ROOT, 'LICENSE'), 'utf8'));
    expect(copy).toContain('Apache License\n                           Version 2.0, January 2004');
  });
});
