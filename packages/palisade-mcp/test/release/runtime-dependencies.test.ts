/**
 * What installing the server package brings in is decided in one place a reader sees: the README's
 * "Runtime dependencies" table, one row per package with the reason it is there. This holds the
 * manifest to that table, both ways, so a dependency cannot be added (or dropped) in
 * `package.json` alone; the same section names every registry dependency the other published
 * packages of the family add, so the reason for every dependency a user installs is in the README.
 * Peer dependencies are the schema libraries a host may declare tools with:
 * each optional, so never installed with the package, and named in docs/tools.md.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { INLINED_PACKAGES } from '../../../../scripts/bundle-config.mjs';

const README = fileURLToPath(new URL('../../../../README.md', import.meta.url));
const MANIFEST = fileURLToPath(new URL('../../package.json', import.meta.url));
const PACKAGES = fileURLToPath(new URL('../../../', import.meta.url));
const TOOLS_PAGE = fileURLToPath(new URL('../../../../docs/tools.md', import.meta.url));

interface PackageManifest {
  readonly name: string;
  readonly private?: boolean;
  readonly dependencies?: Readonly<Record<string, string>>;
}

interface Row {
  readonly name: string;
  readonly why: string;
}

/** The README's `## Runtime dependencies` section, to the next `## `. */
function readmeSection(readme: string): string {
  const start = readme.indexOf('\n## Runtime dependencies\n');
  if (start === -1) throw new Error('the README has no "## Runtime dependencies" section');
  const rest = readme.slice(start + 1);
  const next = rest.indexOf('\n## ');
  return next === -1 ? rest : rest.slice(0, next);
}

/** The rows of the table under `## Runtime dependencies`: `| \`name\` | why |`. */
function dependencyTable(readme: string): Row[] {
  const rows: Row[] = [];
  for (const line of readmeSection(readme).split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    // A table row: `| a | b |` splits into ['', a, b, ''].
    if (cells.length !== 4 || !line.trimStart().startsWith('|')) continue;
    const name = /^`([^`]+)`$/.exec(cells[1] ?? '')?.[1];
    if (name === undefined) continue; // the header and the separator row
    rows.push({ name, why: cells[2] ?? '' });
  }
  return rows;
}

const rows = dependencyTable(readFileSync(README, 'utf8'));
const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Record<string, Record<string, string>>;

describe('runtime dependencies of palisade-mcp', () => {
  test('the README table lists exactly the dependencies the package declares or compiles in', () => {
    const listed = rows.map((row) => row.name).sort();
    const shipped = [...Object.keys(manifest['dependencies'] ?? {}), ...INLINED_PACKAGES].sort();
    expect(listed).toEqual(shipped);
  });

  test('every package compiled into the bundle is pinned as a development dependency, so the lock file holds its version', () => {
    for (const name of INLINED_PACKAGES) expect(manifest['devDependencies']?.[name], name).toBeDefined();
  });

  test('the README table lists each dependency once', () => {
    const names = rows.map((row) => row.name);
    expect(names.filter((name, at) => names.indexOf(name) !== at)).toEqual([]);
  });

  test('every dependency in the README table gives its reason', () => {
    for (const row of rows) {
      // A reason is a phrase, not a placeholder: at least three words.
      expect(row.why.split(/\s+/).filter(Boolean).length, row.name).toBeGreaterThanOrEqual(3);
    }
  });

  test('the package declares no optional or bundled dependency the table would miss', () => {
    for (const field of ['optionalDependencies', 'bundleDependencies', 'bundledDependencies']) {
      expect(manifest[field], field).toBeUndefined();
    }
  });

  test('every peer dependency is optional, so installing the package never brings one in', () => {
    const meta = (manifest['peerDependenciesMeta'] ?? {}) as unknown as Record<
      string,
      { optional?: boolean }
    >;
    for (const name of Object.keys(manifest['peerDependencies'] ?? {})) {
      expect(meta[name]?.optional, name).toBe(true);
    }
  });

  test('the README section names every runtime dependency of every published package of the family', () => {
    const section = readmeSection(readFileSync(README, 'utf8'));
    const workspace = readdirSync(PACKAGES).map(
      (dir) => JSON.parse(readFileSync(join(PACKAGES, dir, 'package.json'), 'utf8')) as PackageManifest,
    );
    const ours = new Set(workspace.map((entry) => entry.name));
    const needed = workspace
      .filter((entry) => entry.private !== true)
      .flatMap((entry) => Object.keys(entry.dependencies ?? {}).filter((name) => !ours.has(name)));
    expect(needed.length).toBeGreaterThan(2);
    expect(needed.filter((name) => !section.includes(`\`${name}\``))).toEqual([]);
  });

  test('docs/tools.md names every peer dependency, the schema libraries a tool may be declared with', () => {
    const page = readFileSync(TOOLS_PAGE, 'utf8');
    for (const name of Object.keys(manifest['peerDependencies'] ?? {})) {
      expect(page, name).toContain(`\`${name}\``);
    }
  });
});
