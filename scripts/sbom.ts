/**
 * `npm run sbom`: a CycloneDX 1.5 SBOM (JSON) of what installing `palisade-mcp` brings in, the
 * server package and its runtime dependency closure at the versions the lock file pins, with
 * each one's purl, licence, registry URL and SHA-512 integrity. Written to stdout, or to the file
 * after `--out`.
 *
 * Why not `npm sbom -w packages/palisade-mcp` directly: npm always puts the workspace root in the
 * document, and the private root has no version, so npm 11 stops with EINVALIDPURLTYPE. So the
 * server package's closure is cut out of the committed lock into a scratch project whose root
 * *is* the server package, and `npm sbom --package-lock-only` reads that: no install, no network.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { INLINED_PACKAGES } from './bundle-config.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WORKSPACE = 'packages/palisade-mcp';

interface LockEntry {
  readonly version?: string;
  readonly dependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  readonly dev?: boolean;
  readonly [key: string]: unknown;
}

interface Lock {
  readonly lockfileVersion: number;
  readonly packages: Record<string, LockEntry>;
}

/** Node's lookup: `<from>/node_modules/<name>`, then each enclosing `node_modules`, then the root's. */
function locate(lock: Lock, from: string, name: string): string | undefined {
  let dir = from;
  for (;;) {
    const candidate = dir === '' ? `node_modules/${name}` : `${dir}/node_modules/${name}`;
    if (lock.packages[candidate] !== undefined) return candidate;
    if (dir === '') return undefined;
    const cut = dir.lastIndexOf('/node_modules/');
    dir = cut === -1 ? '' : dir.slice(0, cut);
  }
}

/**
 * Every lock path the server package needs at run time (optional dependencies and required peers
 * included). An optional peer is left out: npm never installs one with the package, it is there
 * only when the host installed it for its own use (zod, valibot, ArkType).
 */
function runtimeClosure(lock: Lock): string[] {
  const seen = new Set<string>();
  const queue = [WORKSPACE];
  while (queue.length > 0) {
    const at = queue.shift()!;
    const entry = lock.packages[at]!;
    const optionalPeers = entry.peerDependenciesMeta ?? {};
    const wanted = [
      // Compiled into the server's bundle (scripts/bundle-config.mjs): shipped, so listed.
      ...(at === WORKSPACE ? INLINED_PACKAGES : []).map((name) => ({ name, optional: false })),
      ...Object.keys(entry.dependencies ?? {}).map((name) => ({ name, optional: false })),
      ...Object.keys(entry.optionalDependencies ?? {}).map((name) => ({ name, optional: true })),
      ...Object.keys(entry.peerDependencies ?? {})
        .filter((name) => optionalPeers[name]?.optional !== true)
        .map((name) => ({ name, optional: false })),
    ];
    for (const { name, optional } of wanted) {
      const found = locate(lock, at, name);
      if (found === undefined) {
        if (optional) continue;
        throw new Error(`the lock file has no entry for ${name}, needed by ${at || 'the root'}`);
      }
      if (!seen.has(found)) {
        seen.add(found);
        queue.push(found);
      }
    }
  }
  return [...seen].sort();
}

/** The closure as a lock file whose root is the server package: workspace-nested paths move to the root. */
export function serverLock(): { manifest: Record<string, unknown>; lock: Lock } {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as Lock;
  const manifest = JSON.parse(readFileSync(join(ROOT, WORKSPACE, 'package.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  // The packages compiled into the bundle are development dependencies of the workspace, but what
  // ships holds them: in the scratch project they are runtime dependencies, as npm would see a
  // package that installed them.
  const { devDependencies = {}, ...shipped } = manifest as {
    devDependencies?: Record<string, string>;
    dependencies?: Record<string, string>;
  };
  const inlined = Object.fromEntries(INLINED_PACKAGES.map((name) => [name, devDependencies[name]!]));
  const server = {
    ...shipped,
    dependencies: { ...shipped.dependencies, ...inlined },
  };
  const { devDependencies: _dev, ...root } = lock.packages[WORKSPACE]!;
  const packages: Record<string, LockEntry> = { '': { ...root, dependencies: server.dependencies } };
  for (const path of runtimeClosure(lock)) {
    const moved = path.startsWith(`${WORKSPACE}/`) ? path.slice(WORKSPACE.length + 1) : path;
    if (packages[moved] !== undefined) throw new Error(`two lock entries land on ${moved}`);
    const { dev: _onlyDev, ...entry } = lock.packages[path]!;
    packages[moved] = entry;
  }
  return { manifest: server, lock: { ...lock, packages } as Lock };
}

/** Runs `use` in a scratch folder named palisade-mcp holding the server package's manifest and lock. */
export function inServerProject<T>(use: (project: string) => T): T {
  const { manifest, lock } = serverLock();
  const scratch = mkdtempSync(join(tmpdir(), 'palisade-sbom-'));
  // npm names the document's root component after its folder.
  const project = join(scratch, 'palisade-mcp');
  try {
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify(manifest, null, 2));
    writeFileSync(join(project, 'package-lock.json'), JSON.stringify(lock, null, 2));
    return use(project);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The SBOM as npm writes it, parsed. */
export function sbom(): Record<string, unknown> {
  return inServerProject((project) => {
    const out = execFileSync(
      'npm',
      ['sbom', '--package-lock-only', '--omit=dev', '--sbom-format=cyclonedx', '--sbom-type=library'],
      { cwd: project, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
    );
    return JSON.parse(out) as Record<string, unknown>;
  });
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const text = `${JSON.stringify(sbom(), null, 2)}\n`;
  const at = process.argv.indexOf('--out');
  const file = at === -1 ? undefined : process.argv[at + 1];
  if (file === undefined) process.stdout.write(text);
  else writeFileSync(file, text);
}
