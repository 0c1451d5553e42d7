/**
 * What `npm publish` would upload for palisade-mcp-client, read from `npm pack --dry-run --json`
 * after the build: the compiled modules and their declarations, the manifest, the README and the
 * licence; no source, test, map or build info.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';

const PACKAGE = fileURLToPath(new URL('../..', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));

const ALLOWED: readonly RegExp[] = [
  /^package\.json$/,
  /^LICENSE$/,
  /^README\.md$/,
  /^dist\/(?:[a-z0-9-]+\/)*[a-z0-9-]+\.js$/,
  /^dist\/(?:[a-z0-9-]+\/)*[a-z0-9-]+\.d\.ts$/,
];

let packed: string[] = [];

beforeAll(() => {
  const out = execFileSync(
    'npm',
    ['pack', '--dry-run', '--json', '--workspace', 'packages/palisade-mcp-client'],
    {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  const [result] = JSON.parse(out) as [{ files: { path: string }[] }];
  packed = result.files.map((file) => file.path).sort();
});

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [relative(PACKAGE, join(dir, entry.name))],
  );
}

describe('the published tarball of palisade-mcp-client', () => {
  test('every file in the tarball is on the allow-list', () => {
    expect(packed.filter((path) => !ALLOWED.some((pattern) => pattern.test(path)))).toEqual([]);
  });

  test('every built module and declaration in dist is in the tarball', () => {
    const built = walk(join(PACKAGE, 'dist')).filter((path) => /\.(?:js|d\.ts)$/.test(path));
    expect(built.length).toBeGreaterThan(10);
    expect(built.filter((path) => !packed.includes(path))).toEqual([]);
  });

  test('the tarball carries the README and the same Apache-2.0 licence text as the repository root', () => {
    expect(packed).toContain('README.md');
    expect(packed).toContain('LICENSE');
    expect(readFileSync(join(PACKAGE, 'LICENSE'), 'utf8')).toBe(readFileSync(join(ROOT, 'LICENSE'), 'utf8'));
  });
});
