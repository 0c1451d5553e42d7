#!/usr/bin/env node
/**
 * The client half of `npm run conformance`: the official suite drives palisade-mcp-client (the
 * program in client/main.ts) through its client scenarios, in four legs: the 2026-07-28 and
 * 2025-11-25 requirement sets, the two 2025-03-26 back-compat scenarios, and the extension
 * scenarios (every one the suite has, with those a requirement set reports without scoring). It
 * prints one line per scenario, then `client LEG: N passed, M failed` per leg (a WARNING counts as
 * a failure, the suite's baseline rule), and holds every leg, the extensions too, to
 * expected-failures-client.yml in both directions: a regression fails the run, and so does a
 * baselined failure that now passes.
 *
 * Each scenario runs in a suite process of its own (`client --scenario NAME --spec-version REV
 * --force`, what `--requirements REV` runs for each of its scenarios), at most `--concurrency` at
 * once. The suite's `--requirements` starts every scenario of a set at once in one process: ~40
 * mock servers on one event loop and ~40 clients starting together, which on a loaded 2-core
 * machine answered requests 20 s late and ran scenarios out of their time.
 *
 * Options: `--out DIR` keeps the raw results (default a fresh temp dir, printed on stderr);
 * `--timeout MS` per scenario (default 30000); `--concurrency N` scenarios at once (default the
 * machine's parallelism, at most 4). Exit 0 matched, 1 not matched, 2 the run failed.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type Check, judge, readBaseline } from './baseline.js';
import { pool } from './pool.js';

const here = dirname(fileURLToPath(import.meta.url));
const BASELINE = join(here, '..', 'expected-failures-client.yml');
const PRELOAD = join(here, 'glob-sync-preload.js');
const CLIENT = join(here, 'client', 'main.js');
const SUITE = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')),
  'dist',
  'index.js',
);
const SUITE_DEADLINE_MS = 600_000;

interface Leg {
  readonly label: string;
  /** One suite invocation per scenario: its arguments after `client`. */
  readonly runs: readonly (readonly string[])[];
  readonly scored: ReadonlySet<string>;
}

/** The arguments that run one scenario as `--requirements REV` would run it. */
function atRevision(name: string, revision: string): readonly string[] {
  return ['--scenario', name, '--spec-version', revision, '--force'];
}

function runSuite(args: readonly string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', PRELOAD, SUITE, ...args], {
      // The suite's own narration goes to the per-scenario stdout.txt under --out; only the table is printed here.
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), SUITE_DEADLINE_MS);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal === null ? 1 : 128), stdout });
    });
  });
}

/** `list --client --requirements REV`: the names under "Client scenarios", up to the next blank line. */
async function requiredClientScenarios(revision: string): Promise<ReadonlySet<string>> {
  const { code, stdout } = await runSuite(['list', '--client', '--requirements', revision]);
  if (code !== 0) throw new Error(`conformance list --client --requirements ${revision} exited ${code}`);
  const lines = stdout.split('\n');
  const start = lines.findIndex((line) => line.startsWith('Client scenarios'));
  const names = new Set<string>();
  for (const line of lines.slice(start + 1)) {
    const match = /^ {2}- (\S+)$/.exec(line);
    if (match === null) break;
    names.add(match[1] ?? '');
  }
  if (start < 0 || names.size === 0) throw new Error(`no client scenarios listed for ${revision}`);
  return names;
}

/** `list --client --requirements REV`: the client scenarios it runs and reports without scoring. */
async function reportedClientScenarios(revision: string): Promise<ReadonlySet<string>> {
  const { code, stdout } = await runSuite(['list', '--client', '--requirements', revision]);
  if (code !== 0) throw new Error(`conformance list --client --requirements ${revision} exited ${code}`);
  const section = stdout.slice(stdout.indexOf('never scored'));
  return new Set([...section.matchAll(/^ {4}- (\S+) \[client\]$/gm)].map((match) => match[1] ?? ''));
}

/** `list --client`: scenario → its tags (revisions, or `extension`). */
async function clientScenarios(): Promise<ReadonlyMap<string, string>> {
  const { code, stdout } = await runSuite(['list', '--client']);
  if (code !== 0) throw new Error(`conformance list --client exited ${code}`);
  const tags = new Map<string, string>();
  const section = stdout.slice(stdout.indexOf('Client scenarios'));
  for (const match of section.matchAll(/^ {2}- (\S+) \[([^\]]*)\]$/gm))
    tags.set(match[1] ?? '', match[2] ?? '');
  return tags;
}

/** Every `<scenario>-<ISO time>/checks.json` under `dir` (a scenario name may hold `/`). */
function readResults(dir: string): Map<string, readonly Check[]> {
  const results = new Map<string, readonly Check[]>();
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder).sort()) {
      const path = join(folder, entry);
      if (!statSync(path).isDirectory()) continue;
      const match = /^(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(relative(dir, path).split('\\').join('/'));
      if (match !== null) {
        try {
          results.set(match[1] ?? '', JSON.parse(readFileSync(join(path, 'checks.json'), 'utf8')) as Check[]);
        } catch {
          results.set(match[1] ?? '', [{ id: 'no-checks-json', status: 'FAILURE' }]);
        }
      } else walk(path);
    }
  };
  walk(dir);
  return results;
}

function verdictOf(checks: readonly Check[]): 'PASS' | 'WARN' | 'FAIL' | 'SKIP' {
  if (checks.some((check) => check.status === 'FAILURE')) return 'FAIL';
  if (checks.some((check) => check.status === 'WARNING')) return 'WARN';
  return checks.some((check) => check.status === 'SUCCESS') ? 'PASS' : 'SKIP';
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      timeout: { type: 'string', default: '30000' },
      concurrency: { type: 'string', default: String(Math.min(4, availableParallelism())) },
    },
    strict: true,
    allowPositionals: false,
  });
  if (!/^[1-9][0-9]{0,6}$/.test(values.timeout)) throw new Error('--timeout must be a positive integer (ms)');
  if (!/^[1-9][0-9]?$/.test(values.concurrency)) throw new Error('--concurrency must be 1 to 99');
  const concurrency = Number(values.concurrency);
  const out = values.out ?? mkdtempSync(join(tmpdir(), 'palisade-client-conformance-'));
  process.stderr.write(`client conformance: raw results under ${out}\n`);
  const started = Date.now();
  const command = `${process.execPath} ${CLIENT}`;
  if (/\s/.test(process.execPath) || /\s/.test(CLIENT))
    throw new Error('the suite splits --command on spaces: install under a path without spaces');
  const tags = await clientScenarios();
  const named = (tag: string): string[] =>
    [...tags].filter(([, t]) => t.split(',').includes(tag)).map(([name]) => name);
  const backCompat = named('2025-03-26');
  const modern = await requiredClientScenarios('2026-07-28');
  const handshake = await requiredClientScenarios('2025-11-25');
  // What a requirement set runs and reports without scoring (its extensions, scenarios added after
  // its release), and every extension-tagged scenario: scored here, once each, against the baseline.
  const reportedModern = await reportedClientScenarios('2026-07-28');
  const reportedHandshake = [...(await reportedClientScenarios('2025-11-25'))].filter(
    (name) => !reportedModern.has(name),
  );
  const extensionOnly = named('extension').filter(
    (name) => !reportedModern.has(name) && !reportedHandshake.includes(name),
  );
  const extensions: (readonly string[])[] = [
    ...[...reportedModern].map((name) => atRevision(name, '2026-07-28')),
    ...reportedHandshake.map((name) => atRevision(name, '2025-11-25')),
    ...extensionOnly.map((name) => ['--scenario', name]),
  ];
  const legs: Leg[] = [
    {
      label: '2026-07-28',
      runs: [...modern].map((name) => atRevision(name, '2026-07-28')),
      scored: modern,
    },
    {
      label: '2025-11-25',
      runs: [...handshake].map((name) => atRevision(name, '2025-11-25')),
      scored: handshake,
    },
    {
      label: '2025-03-26',
      runs: backCompat.map((name) => ['--scenario', name, '--spec-version', '2025-03-26']),
      scored: new Set(backCompat),
    },
    {
      label: 'extensions',
      runs: extensions,
      scored: new Set(extensions.map((run) => run[1] ?? '')),
    },
  ];
  const baseline = readBaseline(BASELINE, 'client');
  const summaries: string[] = [];
  let ok = true;
  for (const leg of legs) {
    const dir = join(out, leg.label);
    mkdirSync(dir, { recursive: true });
    const common = ['--command', command, '-o', dir, '--timeout', values.timeout];
    await pool(
      leg.runs.map((run) => () => runSuite(['client', ...run, ...common])),
      concurrency,
    );
    const scored = leg.scored;
    const results = readResults(dir);
    for (const name of scored) {
      if (!results.has(name)) results.set(name, [{ id: 'no-checks-json', status: 'FAILURE' }]);
    }
    process.stdout.write(`\n== client ${leg.label} ==\n`);
    for (const [scenario, checks] of [...results].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const bad = checks.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING');
      const ids = bad.map((check) => `${check.id}${check.status === 'WARNING' ? ' (warning)' : ''}`);
      const note = scored.has(scenario) ? '' : ' [not scored]';
      process.stdout.write(
        `${verdictOf(checks)} ${scenario}${note}${ids.length > 0 ? `: ${ids.join(', ')}` : ''}\n`,
      );
    }
    const verdict = judge(new Map([...results].filter(([name]) => scored.has(name))), baseline);
    for (const item of verdict.unexpected)
      process.stdout.write(`  REGRESSION (client ${leg.label}) ${item}\n`);
    for (const item of verdict.stale)
      process.stdout.write(`  NOW PASSING (client ${leg.label}) ${item}: remove it from ${BASELINE}\n`);
    ok &&= verdict.unexpected.length === 0 && verdict.stale.length === 0;
    const rows = [...results].filter(([name]) => scored.has(name));
    const passed = rows.filter(([, checks]) => verdictOf(checks) === 'PASS').length;
    // A scenario that does not apply to this client (the suite records no check that passed or
    // failed: the skills scenarios for a client that lists no skills) is neither.
    const skipped = rows.filter(([, checks]) => verdictOf(checks) === 'SKIP').length;
    const baselined = verdict.expected.length;
    summaries.push(
      `client ${leg.label}: ${passed} passed, ${rows.length - passed - skipped} failed` +
        `${skipped > 0 ? `, ${skipped} skipped` : ''}${baselined > 0 ? ` (${baselined} baselined)` : ''}`,
    );
  }
  process.stdout.write(`\n${summaries.join('\n')}\n`);
  process.stdout.write(
    `client baselines ${ok ? 'matched' : 'NOT matched'} (${BASELINE}); wall ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
  return ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`client conformance: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
