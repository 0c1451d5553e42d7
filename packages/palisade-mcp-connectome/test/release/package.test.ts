/**
 * What publishing palisade-mcp-connectome would upload (`npm pack --dry-run --json`, the list npm
 * computes for a publish, after `npm test` has built `dist/`), and what installing it brings in:
 * nothing but the server package, as a peer, so a host has one palisade-mcp whose dispatch
 * channel the collector hears and whose servers the graphs are read from.
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

interface Manifest {
  readonly exports: Record<string, string | Record<string, string>>;
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, unknown>;
  readonly optionalDependencies?: Record<string, string>;
}

const manifest = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as Manifest;
const server = JSON.parse(readFileSync(join(ROOT, 'packages/palisade-mcp/package.json'), 'utf8')) as {
  version: string;
};

let packed: string[] = [];

beforeAll(() => {
  const out = execFileSync(
    'npm',
    ['pack', '--dry-run', '--json', '--workspace', 'packages/palisade-mcp-connectome'],
    { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const [result] = JSON.parse(out) as [{ files: { path: string }[] }];
  packed = result.files.map((file) => file.path).sort();
});

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [relative(PACKAGE, join(dir, entry.name))],
  );
}

describe('the published tarball of palisade-mcp-connectome', () => {
  test('every file in the tarball is on the allow-list', () => {
    expect(packed.filter((path) => !ALLOWED.some((pattern) => pattern.test(path)))).toEqual([]);
  });

  test('every built module and declaration in dist is in the tarball', () => {
    const built = walk(join(PACKAGE, 'dist')).filter((path) => /\.(?:js|d\.ts)$/.test(path));
    expect(built.length).toBeGreaterThan(0);
    expect(built.filter((path) => !packed.includes(path))).toEqual([]);
  });

  test('every entry the exports map names is in the tarball', () => {
    const targets = Object.values(manifest.exports)
      .flatMap((target) => (typeof target === 'string' ? [target] : Object.values(target)))
      .map((target) => target.replace(/^\.\//, ''));
    expect(targets.filter((target) => !packed.includes(target))).toEqual([]);
  });

  test('the tarball carries the package README and the repository licence', () => {
    expect(packed).toContain('README.md');
    expect(packed).toContain('LICENSE');
    expect(readFileSync(join(PACKAGE, 'LICENSE'), 'utf8')).toBe(readFileSync(join(ROOT, 'LICENSE'), 'utf8'));
  });
});

describe('what installing palisade-mcp-connectome brings in', () => {
  test('no dependency of its own: the server package is its one peer, required, at the version beside it', () => {
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.optionalDependencies).toBeUndefined();
    expect(manifest.peerDependencies).toEqual({ 'palisade-mcp': `^${server.version}` });
    expect(manifest.peerDependenciesMeta).toBeUndefined();
  });

  test('the README says so, in its runtime dependencies section', () => {
    const readme = readFileSync(join(PACKAGE, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('\n## Runtime dependencies\n'));
    expect(section).toContain('`palisade-mcp`');
    expect(section).toContain('peer');
  });
});

describe('the package README', () => {
  test('every name its code imports from the package is one the package exports', async () => {
    const readme = readFileSync(join(PACKAGE, 'README.md'), 'utf8');
    const imported = [...readme.matchAll(/import \{([^}]*)\} from 'palisade-mcp-connectome';/g)].flatMap(
      (match) => (match[1] ?? '').split(',').map((name) => name.trim()),
    );
    expect(imported.length).toBeGreaterThan(0);
    const exported = await import('palisade-mcp-connectome');
    expect(imported.filter((name) => !(name in exported))).toEqual([]);
  });
});
