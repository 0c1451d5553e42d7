/**
 * The published-tarball checks the workspace's compiled packages share: what `npm pack --dry-run
 * --json` lists for the workspace (the file list npm computes for a publish, after `npm test` has
 * built `dist/`) holds the compiled modules, their declarations, the manifest, the README and the
 * repository's licence, and nothing else (no source, test, map or build info). One place, so the
 * rules cannot drift apart between packages; a package adds its own checks through `packed()`.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));

/** What a package of plain tsc output may ship. */
const ALLOWED: readonly RegExp[] = [
  /^package\.json$/,
  /^LICENSE$/,
  /^README\.md$/,
  /^dist\/(?:[a-z0-9-]+\/)*[a-z0-9-]+\.js$/,
  /^dist\/(?:[a-z0-9-]+\/)*[a-z0-9-]+\.d\.ts$/,
];

function walk(dir: string, base: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name), base) : [relative(base, join(dir, entry.name))],
  );
}

export interface Tarball {
  /** The workspace's folder. */
  readonly dir: string;
  /** The tarball's file paths, sorted; read once, before the file's tests run. */
  packed(): readonly string[];
}

/**
 * Registers `the published tarball of NAME` for the workspace `packages/NAME`: the allow-list,
 * every built module and declaration shipped, the README and the root licence text.
 */
export function describeTarball(name: string): Tarball {
  const dir = join(ROOT, 'packages', name);
  let packed: string[] = [];
  beforeAll(() => {
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--workspace', `packages/${name}`], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const [result] = JSON.parse(out) as [{ files: { path: string }[] }];
    packed = result.files.map((file) => file.path).sort();
  });

  describe(`the published tarball of ${name}`, () => {
    test('every file in the tarball is on the allow-list', () => {
      expect(packed.filter((path) => !ALLOWED.some((pattern) => pattern.test(path)))).toEqual([]);
    });

    test('every built module and declaration in dist is in the tarball', () => {
      const built = walk(join(dir, 'dist'), dir).filter((path) => /\.(?:js|d\.ts)$/.test(path));
      expect(built.length).toBeGreaterThan(0);
      expect(built.filter((path) => !packed.includes(path))).toEqual([]);
    });

    test('the tarball carries the README and the same Apache-2.0 licence text as the repository root', () => {
      expect(packed).toContain('README.md');
      expect(packed).toContain('LICENSE');
      expect(readFileSync(join(dir, 'LICENSE'), 'utf8')).toBe(readFileSync(join(ROOT, 'LICENSE'), 'utf8'));
    });
  });

  return { dir, packed: () => packed };
}
