/**
 * What publishing palisade-mcp-connectome would upload (`npm pack --dry-run --json`, the list npm
 * computes for a publish, after `npm test` has built `dist/`), and what installing it brings in:
 * nothing but the server package, as a peer, so a host has one palisade-mcp whose dispatch
 * channel the collector hears and whose servers the graphs are read from.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { describeTarball } from '../../../palisade-mcp/test/support/release-tarball.js';

const tarball = describeTarball('palisade-mcp-connectome');
const PACKAGE = tarball.dir;
const ROOT = join(PACKAGE, '..', '..');

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

describe('the exports of palisade-mcp-connectome', () => {
  test('every entry the exports map names is in the tarball', () => {
    const targets = Object.values(manifest.exports)
      .flatMap((target) => (typeof target === 'string' ? [target] : Object.values(target)))
      .map((target) => target.replace(/^\.\//, ''));
    expect(targets.filter((target) => !tarball.packed().includes(target))).toEqual([]);
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
