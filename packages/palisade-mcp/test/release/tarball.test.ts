/**
 * What `npm publish` would upload, read from `npm pack --dry-run --json` (the same file list npm
 * computes for a publish) after `npm test` has built `dist/`. Shipped: the compiled modules and
 * their declarations, the `palisade` command's entry (bin/), the manifest, the README and the
 * licence. Not shipped: sources, tests,
 * source maps and declaration maps (they point at `src/`, which is not shipped), build info.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
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
  // `.generated` marks code a script wrote (scripts/meta-schema-validator.ts).
  /^dist\/(?:[a-z0-9-]+\/)*[a-z0-9-]+(?:\.generated)?\.js$/,
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

  test('every built module and declaration in dist is in the tarball', () => {
    const built = walk(join(PACKAGE, 'dist')).filter((path) => /\.(?:js|d\.ts)$/.test(path));
    expect(built.length).toBeGreaterThan(0);
    expect(built.filter((path) => !packed.includes(path))).toEqual([]);
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
