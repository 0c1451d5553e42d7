/**
 * Vitest global setup: compiles the stdio fixtures (`test/fixtures/serve-*.ts`) once for the whole run (see fixture-bundles.ts),
 * and unpacks the browser tests' Chromium when it is not yet (chromium.ts).
 *
 * The bundles go to a directory of their own per run, under the workspace's node_modules so that a
 * package the fixture imports resolves there; two runs side by side (the Node version matrix) never
 * share one. The directory is removed when the run ends.
 */
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_VARIABLE, chromiumPath } from './chromium.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const CACHE = fileURLToPath(new URL('../../../../node_modules/.cache/', import.meta.url));

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  await mkdir(CACHE, { recursive: true });
  const dir = await mkdtemp(join(CACHE, 'palisade-fixtures-'));
  const servers = (await readdir(FIXTURES)).filter((file) => /^serve-.*\.ts$/.test(file));
  await build({
    entryPoints: servers.map((file) => join(FIXTURES, file)),
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
  });
  project.provide('fixtureBundleDir', dir);
  // The browser tests' Chromium, unpacked here once after an `npm ci` (about 3 s idle) rather than
  // inside a test's beforeAll, where two files unpacking 190 MB at once on a loaded machine ran
  // past the hook timeout. A failure here is left for those tests to report, by name.
  if (process.env[CHROMIUM_VARIABLE] === undefined) await chromiumPath().catch(() => undefined);
  return () => rm(dir, { recursive: true, force: true });
}
