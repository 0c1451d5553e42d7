/**
 * The browser the browser tests drive, so that `npm ci && npm test` needs nothing but Node: by
 * default the Chromium shipped inside the `@sparticuz/chromium` npm package (a devDependency),
 * unpacked once into `node_modules/.cache/palisade-chromium/<version>/` and reused by every later
 * run. `PALISADE_CHROMIUM=/path/to/chromium` names a browser of your own instead (a system
 * Chromium or Chrome); a path that does not exist fails the test, naming the variable.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { type Browser, chromium } from 'playwright-core';

/** Names a browser to use instead of the packaged one. */
export const CHROMIUM_VARIABLE = 'PALISADE_CHROMIUM';

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const require = createRequire(import.meta.url);

/** Launches headless Chromium: the one `PALISADE_CHROMIUM` names, or the packaged one. */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: await chromiumPath(), args: FLAGS, headless: true });
}

/** The executable to launch, unpacking the packaged browser on first use. */
export async function chromiumPath(): Promise<string> {
  const named = process.env[CHROMIUM_VARIABLE];
  if (named !== undefined && named !== '') {
    if (!existsSync(named)) throw new Error(`${CHROMIUM_VARIABLE}=${named} names no file`);
    return named;
  }
  return unpackedChromium();
}

async function unpackedChromium(): Promise<string> {
  // The package exports no ./package.json: its manifest sits three folders above its entry.
  const manifest = join(dirname(require.resolve('@sparticuz/chromium')), '..', '..', 'package.json');
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  // The workspace's node_modules, beside the package: removed with it, shared by every test file.
  const modules = join(dirname(manifest), '..', '..');
  const cache = join(modules, '.cache', 'palisade-chromium');
  const target = join(cache, version);
  const executable = join(target, 'chromium');
  if (existsSync(executable)) return executable;
  // The package unpacks into os.tmpdir(), which it reads from TMPDIR: a child process pointed at a
  // directory of our own unpacks there, and a rename publishes the whole directory at once, so two
  // test files unpacking together never see each other's half-written binary (the loser's copy is
  // dropped). /tmp itself is left alone: other checkouts on the machine may hold another version.
  mkdirSync(cache, { recursive: true });
  const scratch = join(cache, `.unpacking-${process.pid}-${Date.now()}`);
  mkdirSync(scratch);
  try {
    await promisify(execFile)(
      process.execPath,
      ['--input-type=module', '-e', "await (await import('@sparticuz/chromium')).default.executablePath()"],
      { cwd: dirname(modules), env: { ...process.env, TMPDIR: scratch } },
    );
    try {
      renameSync(scratch, target);
    } catch (error) {
      if (!existsSync(executable)) throw error;
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return executable;
}
