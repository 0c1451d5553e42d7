/**
 * `npm run api-report`: the public API of `palisade-mcp`, `palisade-mcp-auth`,
 * `palisade-mcp-connectome` and `palisade-mcp-client`, as a host sees it.
 * Every subpath a package's `exports` map offers is imported from the built `dist/` (run `npm run
 * build` first) and each export name is recorded with its kind. The result is committed as the
 * package's `api-report.json`; each package's `test/release/api-report.test.ts` compares the two, so
 * adding, removing or retyping an export fails the suite until the report is regenerated and the
 * change is reviewed in its diff. Type-only exports leave no trace at run time and are not listed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const PACKAGE = resolve(dirname(fileURLToPath(import.meta.url)), '../packages/palisade-mcp');
export const REPORT_PATH = join(PACKAGE, 'api-report.json');
/** The other published library packages, whose surfaces are pinned the same way. */
export const AUTH_PACKAGE = resolve(dirname(fileURLToPath(import.meta.url)), '../packages/palisade-mcp-auth');
export const CONNECTOME_PACKAGE = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../packages/palisade-mcp-connectome',
);

export const CLIENT_PACKAGE = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../packages/palisade-mcp-client',
);

export type ApiReport = Record<string, Record<string, string>>;

function kind(value: unknown): string {
  if (typeof value === 'function') {
    return /^class[\s{]/.test(Function.prototype.toString.call(value)) ? 'class' : 'function';
  }
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** Subpath specifier (`palisade-mcp`, `palisade-mcp/stdio`, ...) to its built entry file. */
export function entryPoints(dir: string = PACKAGE): Record<string, string> {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, string | { default: string }>;
  };
  const entries: Record<string, string> = {};
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    if (subpath === './package.json') continue;
    const file = typeof target === 'string' ? target : target.default;
    entries[subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`] = join(dir, file);
  }
  return entries;
}

/** The report, built now from `dist/`. */
export async function apiReport(dir: string = PACKAGE): Promise<ApiReport> {
  const report: ApiReport = {};
  for (const [specifier, file] of Object.entries(entryPoints(dir)).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const namespace = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    const names: Record<string, string> = {};
    for (const name of Object.keys(namespace).sort()) names[name] = kind(namespace[name]);
    report[specifier] = names;
  }
  return report;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const dir of [PACKAGE, AUTH_PACKAGE, CONNECTOME_PACKAGE, CLIENT_PACKAGE]) {
    const path = join(dir, 'api-report.json');
    writeFileSync(path, `${JSON.stringify(await apiReport(dir), null, 2)}\n`);
    console.log(`wrote ${path}`);
  }
}
