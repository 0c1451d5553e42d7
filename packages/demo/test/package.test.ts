/**
 * palisade-demo is published so `npx -p palisade-mcp -p palisade-demo palisade demo` works: its
 * tarball, read from `npm pack --dry-run --json` after the build, carries the compiled entry the
 * CLI loads, the bin, the manifest, the README and the licence, and nothing else.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';

const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

const ALLOWED: readonly RegExp[] = [
  /^package\.json$/,
  /^LICENSE$/,
  /^README\.md$/,
  /^bin\/palisade-demo\.js$/,
  /^dist\/[a-z0-9-]+\.js$/,
  /^dist\/[a-z0-9-]+\.d\.ts$/,
];

const manifest = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as {
  private?: boolean;
  exports: Record<string, string | Record<string, string>>;
  bin: Record<string, string>;
};

let packed: string[] = [];

beforeAll(() => {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--workspace', 'packages/demo'], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [result] = JSON.parse(out) as [{ files: { path: string }[] }];
  packed = result.files.map((file) => file.path).sort();
});

describe('the published tarball of palisade-demo', () => {
  test('the package is publishable: not marked private', () => {
    expect(manifest.private).toBeUndefined();
  });

  test('every file in the tarball is on the allow-list', () => {
    expect(packed.filter((path) => !ALLOWED.some((pattern) => pattern.test(path)))).toEqual([]);
  });

  test('every entry the exports map and bin name is in the tarball', () => {
    const targets = [
      ...Object.values(manifest.exports).flatMap((target) =>
        typeof target === 'string' ? [target] : Object.values(target),
      ),
      ...Object.values(manifest.bin),
    ].map((target) => target.replace(/^\.\//, ''));
    expect(targets.length).toBeGreaterThan(2);
    expect(targets.filter((target) => !packed.includes(target))).toEqual([]);
  });

  test('the tarball carries the package README', () => {
    // npm shows README.md from the package folder, never the repository root's, on the package page.
    expect(packed).toContain('README.md');
  });

  test('the entry the palisade CLI loads exports startDemo', async () => {
    const entry = (await import('palisade-demo')) as Record<string, unknown>;
    expect(typeof entry['startDemo']).toBe('function');
  });
});
