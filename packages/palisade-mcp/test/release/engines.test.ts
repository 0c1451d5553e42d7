/**
 * `engines.node` in every workspace manifest is a promise about which Node versions run the package.
 * It must be stated, and it must not promise a version that a runtime dependency, as the lock file
 * pins it, declares it cannot run on (npm would warn at install; the code might not load).
 * The suite itself runs on Node 20, and on 22, 24 and 26 through scripts/node-matrix.sh (less the
 * checks that only read text, which the script names).
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

interface Manifest {
  readonly name: string;
  readonly workspaces?: readonly string[];
  readonly engines?: { readonly node?: string };
  readonly dependencies?: Readonly<Record<string, string>>;
}

function manifest(path: string): Manifest {
  return JSON.parse(readFileSync(`${ROOT}${path}`, 'utf8')) as Manifest;
}

const root = manifest('package.json');
const workspaces = (root.workspaces ?? []).map((dir) => ({ dir, manifest: manifest(`${dir}/package.json`) }));
const lock = JSON.parse(readFileSync(`${ROOT}package-lock.json`, 'utf8')) as {
  packages: Record<string, { engines?: { node?: string } | readonly string[] }>;
};

type Version = readonly [number, number, number];

/**
 * The range forms manifests here use: `>=X.Y.Z`, `>X`, `<=X`, `<X`, `^X.Y.Z`, a bare version, each
 * missing part zero, joined by spaces (all must hold) and `||` (either side). Anything else is
 * thrown by name, so a new form fails this test rather than being read wrongly.
 */
function admits(range: string, version: Version): boolean {
  return range.split('||').some((set) =>
    set
      .trim()
      .replace(/([<>]=?|=|\^)\s+/g, '$1')
      .split(/\s+/)
      .every((comparator) => {
        const found = /^(>=|<=|>|<|\^|=)?\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(comparator);
        if (found === null) throw new Error(`cannot read the range comparator ${JSON.stringify(comparator)}`);
        const bound: Version = [Number(found[2]), Number(found[3] ?? 0), Number(found[4] ?? 0)];
        const order = compare(version, bound);
        switch (found[1]) {
          case '>=':
            return order >= 0;
          case '>':
            return order > 0;
          case '<=':
            return order <= 0;
          case '<':
            return order < 0;
          case '^':
            return order >= 0 && version[0] === bound[0];
          default:
            return order === 0;
        }
      }),
  );
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** Every version a range names, and the first release of each line we run: where answers change. */
function probes(ranges: readonly string[]): Version[] {
  const named = ranges.flatMap((range) =>
    [...range.matchAll(/(\d+)(?:\.(\d+))?(?:\.(\d+))?/g)].map(
      (m): Version => [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)],
    ),
  );
  return [...named, [20, 0, 0], [22, 0, 0], [24, 0, 0], [26, 0, 0]];
}

function nodeRangeOf(lockPath: string): string | undefined {
  const engines = lock.packages[lockPath]?.engines;
  return engines !== undefined && !Array.isArray(engines) ? (engines as { node?: string }).node : undefined;
}

describe('engines.node in every manifest', () => {
  test('the root and every workspace package state the Node versions they support', () => {
    const unstated = [{ dir: '.', manifest: root }, ...workspaces]
      .filter((entry) => typeof entry.manifest.engines?.node !== 'string')
      .map((entry) => entry.dir);
    expect(unstated).toEqual([]);
  });

  test('no package promises a Node version one of its runtime dependencies declares it cannot run on', () => {
    const broken: string[] = [];
    for (const { dir, manifest: pkg } of workspaces) {
      const ours = pkg.engines?.node;
      if (ours === undefined) continue;
      for (const dependency of Object.keys(pkg.dependencies ?? {})) {
        const theirs =
          nodeRangeOf(`${dir}/node_modules/${dependency}`) ?? nodeRangeOf(`node_modules/${dependency}`);
        if (theirs === undefined) continue;
        for (const version of probes([ours, theirs])) {
          if (admits(ours, version) && !admits(theirs, version)) {
            broken.push(
              `${pkg.name} (${ours}) admits ${version.join('.')}, ${dependency} (${theirs}) does not`,
            );
            break;
          }
        }
      }
    }
    expect(broken).toEqual([]);
  });

  test('the range reader agrees with npm on the forms the manifests use', () => {
    expect(admits('^20.19.0 || >=22.12.0', [20, 19, 0])).toBe(true);
    expect(admits('^20.19.0 || >=22.12.0', [22, 11, 9])).toBe(false);
    expect(admits('^20.19.0 || >=22.12.0', [26, 0, 0])).toBe(true);
    expect(admits('>=20.19.0', [20, 18, 9])).toBe(false);
    expect(admits('>= 12.13.0', [12, 13, 0])).toBe(true);
    expect(admits('^20.0.0 || ^22.0.0 || >=24.0.0', [23, 1, 0])).toBe(false);
    expect(() => admits('20.x', [20, 0, 0])).toThrow('cannot read the range comparator "20.x"');
  });
});

describe('the Node versions CI runs the suite on', () => {
  const matrixScript = readFileSync(`${ROOT}scripts/node-matrix.sh`, 'utf8');
  const matrix = /^\[\[ \$\{#versions\[@\]\} -gt 0 \]\] \|\| versions=\(([\d. ]+)\)$/m.exec(
    matrixScript,
  )?.[1];
  const lines = ['20', ...(matrix ?? '').split(' ')];

  test('are 20, then 20.19, 22, 24 and 26 through the matrix script, which .ci/run calls with no version named', () => {
    expect(lines).toEqual(['20', '20.19', '22', '24', '26']);
    const steps = readFileSync(`${ROOT}.ci/run`, 'utf8')
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'));
    expect(steps).toContain('npm test');
    expect(steps).toContain('npm run -s test:matrix');
    expect((root as { scripts?: Record<string, string> }).scripts?.['test:matrix']).toBe(
      'scripts/node-matrix.sh --sequential',
    );
  });

  test('every manifest admits each of those release lines', () => {
    const refused = [{ dir: '.', manifest: root }, ...workspaces].flatMap(({ dir, manifest: pkg }) =>
      lines
        .map((line) => line.split('.').map(Number))
        .map(([major = 0, minor]) => [major, minor ?? 99, 0] as const)
        .filter((version) => !admits(pkg.engines?.node ?? '', [...version]))
        .map(([major, minor]) => (minor === 99 ? `${major}` : `${major}.${minor}`))
        .map((line) => `${dir} (${pkg.engines?.node}) refuses Node ${line}`),
    );
    expect(refused).toEqual([]);
  });

  test('the README names the same lines', () => {
    const readme = readFileSync(`${ROOT}README.md`, 'utf8').replace(/\s+/g, ' ');
    expect(readme).toContain(
      'CI runs the whole suite on Node 20 and on 20.19, the oldest `engines` admits, and every test that runs code again on Node 22, 24 and 26',
    );
  });

  test('the Inspector CLI walks run on every version: the matrix leaves none of them out', () => {
    const listed = /^run_once=\(\n([^)]*)\n\)$/m.exec(matrixScript)?.[1] ?? '';
    expect(listed).not.toContain('inspector-cli');
    expect(listed).toContain('test/docs/links.test.ts');
  });

  test('every test file the matrix leaves out exists, so the list cannot name a file that moved', () => {
    const listed = /^run_once=\(\n([^)]*)\n\)$/m.exec(matrixScript)?.[1];
    const files = (listed ?? '').split('\n').map((line) => line.trim());
    expect(files.length).toBeGreaterThan(5);
    expect(files.filter((file) => !existsSync(`${ROOT}${file}`))).toEqual([]);
    expect(files.filter((file) => !file.endsWith('.test.ts'))).toEqual([]);
  });
});
