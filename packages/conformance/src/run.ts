#!/usr/bin/env node
/**
 * `npm run conformance`: starts the fixture on an ephemeral loopback port, runs the official suite
 * (@modelcontextprotocol/conformance, pinned) in five legs — the 2026-07-28 and 2025-11-25
 * requirement sets, the pending suite, every scenario the suite offers at 2025-06-18, and at
 * 2025-03-26 the one it offers plus the 2025-06-18 ones forced down to it — reads every
 * checks.json, prints one line per scenario and one `LEG: N passed, M failed` line per leg over
 * its scored set (a WARNING counts as a failure, the suite's baseline rule), and holds each leg to
 * its baseline: expected-failures.yml for the first three, expected-failures-<revision>.yml for
 * the older revisions.
 *
 * The suite's client always offers 2025-11-25; the two older legs reach the fixture through a
 * forwarder that makes its `initialize` offer the leg's revision (pin-proxy.ts), and a leg whose
 * wire was not that revision (an initialize answered otherwise, a POST naming another) fails.
 *
 * Exit 0 only when every leg matches its baseline exactly: a regression fails the run and so
 * does a baselined failure that now passes. The suite judges each leg against its file; the
 * runner judges its own table too, so neither verdict is taken on trust.
 *
 * Options: `--out DIR` keeps the raw results there (default a fresh temp dir, printed on stderr);
 * `--timeout MS` per scenario (default 30000: a loaded machine answered scenarios past 5 s, and a
 * passing scenario ends when it passes); `--baseline FILE` instead of expected-failures.yml (the
 * first three legs). Exit codes: 0 matched, 1 not matched, 2 the run itself failed (usage,
 * fixture, suite).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type Check, judge, readBaseline, type Verdict } from './baseline.js';
import { describeWire, startPinProxy, wireProblems } from './pin-proxy.js';

const here = dirname(fileURLToPath(import.meta.url));
const packageRoot = join(here, '..');
const DEFAULT_BASELINE = join(packageRoot, 'expected-failures.yml');
const revisionBaseline = (revision: string): string => join(packageRoot, `expected-failures-${revision}.yml`);
const PRELOAD = join(here, 'glob-sync-preload.js');
const FIXTURE = join(here, 'main.js');
const SUITE = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')),
  'dist',
  'index.js',
);
/** The fixture prints its URL within a second here; a wait this long means it did not start. */
const FIXTURE_START_MS = 15_000;
/** A whole leg takes 2–7 s on this machine; past this it is hung, not slow. */
const LEG_DEADLINE_MS = 120_000;

interface Leg {
  readonly label: string;
  /** One suite run (`--scenario` runs force the scenario down to `spec`, one process each). */
  readonly runs: () => Promise<readonly SuiteRun[]>;
  /** The scenarios this leg scores, asked of the suite itself. */
  readonly scored: () => Promise<ReadonlySet<string>>;
  readonly baseline: string;
  /** The revision the forwarder pins `initialize` to; undefined: the suite talks to the fixture. */
  readonly pin?: string;
}

interface SuiteRun {
  readonly args: readonly string[];
  /** A forced scenario: judged against the baseline by the runner; the suite only runs it. */
  readonly forced?: true;
}

/** Forced runs side by side: each is mostly a suite process starting up. */
const FORCED_CONCURRENCY = 4;

type Row = {
  readonly scenario: string;
  /** SKIP: no check failed, warned or succeeded (a scenario the server's design makes moot). */
  readonly verdict: 'PASS' | 'WARN' | 'FAIL' | 'SKIP';
  readonly checks: readonly Check[];
};

function suiteArgs(args: readonly string[]): string[] {
  return ['--import', PRELOAD, SUITE, ...args];
}

/** Runs the suite; resolves with its exit code and stdout. Its stderr passes through. */
function runSuite(args: readonly string[], echo: boolean): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, suiteArgs(args), { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
      if (echo) process.stderr.write(chunk);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), LEG_DEADLINE_MS);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal === null ? 1 : 128), stdout });
    });
  });
}

/** `list --server --requirements REV`: the names under "Server scenarios", up to the next blank line. */
async function requiredScenarios(revision: string): Promise<ReadonlySet<string>> {
  const { code, stdout } = await runSuite(['list', '--server', '--requirements', revision], false);
  if (code !== 0) throw new Error(`conformance list --requirements ${revision} exited ${code}`);
  const lines = stdout.split('\n');
  const start = lines.findIndex((line) => line.startsWith('Server scenarios'));
  const names = new Set<string>();
  for (const line of lines.slice(start + 1)) {
    const match = /^ {2}- (\S+)$/.exec(line);
    if (match === null) break;
    names.add(match[1] ?? '');
  }
  if (start < 0 || names.size === 0) throw new Error(`no server scenarios listed for ${revision}`);
  return names;
}

/** `list --server --spec-version REV`: the scenarios the suite offers at that revision. */
async function offeredScenarios(revision: string): Promise<ReadonlySet<string>> {
  const { code, stdout } = await runSuite(['list', '--server', '--spec-version', revision], false);
  if (code !== 0) throw new Error(`conformance list --spec-version ${revision} exited ${code}`);
  const names = new Set<string>();
  for (const match of stdout.matchAll(/^ {2}- (\S+) \[([^\]]*)\]$/gm)) names.add(match[1] ?? '');
  if (names.size === 0) throw new Error(`no server scenarios offered at ${revision}`);
  return names;
}

/** `list --server`: every server scenario not tagged `[extension]` (extensions are never scored). */
async function nonExtensionScenarios(): Promise<ReadonlySet<string>> {
  const { code, stdout } = await runSuite(['list', '--server'], false);
  if (code !== 0) throw new Error(`conformance list --server exited ${code}`);
  const names = new Set<string>();
  for (const match of stdout.matchAll(/^ {2}- (\S+) \[([^\]]*)\]$/gm)) {
    if (match[2] !== 'extension') names.add(match[1] ?? '');
  }
  return names;
}

/** `DIR/server-<scenario>-<ISO time with : and . as ->/checks.json`, one per scenario run. */
function readResults(dir: string): Map<string, readonly Check[]> {
  const results = new Map<string, readonly Check[]>();
  for (const entry of readdirSync(dir).sort()) {
    const match = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry);
    if (match === null) continue;
    const checks = JSON.parse(readFileSync(join(dir, entry, 'checks.json'), 'utf8')) as Check[];
    results.set(match[1] ?? '', checks);
  }
  return results;
}

function verdictOf(checks: readonly Check[]): Row['verdict'] {
  if (checks.some((check) => check.status === 'FAILURE')) return 'FAIL';
  if (checks.some((check) => check.status === 'WARNING')) return 'WARN';
  return checks.some((check) => check.status === 'SUCCESS') ? 'PASS' : 'SKIP';
}

function startFixture(): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [FIXTURE, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the fixture printed no URL within ${FIXTURE_START_MS} ms`));
    }, FIXTURE_START_MS);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the fixture exited (${code}) before printing its URL`));
    });
    createInterface({ input: child.stdout as NonNullable<typeof child.stdout> }).once('line', (url) => {
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve({ child, url });
    });
  });
}

function printLeg(label: string, rows: readonly Row[], scored: ReadonlySet<string>): void {
  process.stdout.write(`\n== ${label} ==\n`);
  for (const row of rows) {
    const bad = row.checks.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING');
    const ids = bad.map((check) => `${check.id}${check.status === 'WARNING' ? ' (warning)' : ''}`);
    const note = scored.has(row.scenario) ? '' : ' [not scored]';
    process.stdout.write(
      `${row.verdict} ${row.scenario}${note}${ids.length > 0 ? `: ${ids.join(', ')}` : ''}\n`,
    );
  }
}

function printVerdict(label: string, verdict: Verdict, baseline: string): void {
  for (const item of verdict.unexpected) process.stdout.write(`  REGRESSION (${label}) ${item}\n`);
  for (const item of verdict.stale)
    process.stdout.write(`  NOW PASSING (${label}) ${item}: remove it from ${baseline}\n`);
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      timeout: { type: 'string', default: '30000' },
      baseline: { type: 'string', default: DEFAULT_BASELINE },
    },
    strict: true,
    allowPositionals: false,
  });
  if (!/^[1-9][0-9]{0,6}$/.test(values.timeout)) throw new Error('--timeout must be a positive integer (ms)');
  const out = values.out ?? mkdtempSync(join(tmpdir(), 'palisade-conformance-'));
  process.stderr.write(`conformance: raw results under ${out}\n`);
  const BASELINE = values.baseline;
  const started = Date.now();
  const suite = (...args: string[]): readonly SuiteRun[] => [{ args }];

  const legs: Leg[] = [
    {
      label: '2026-07-28',
      runs: async () => suite('--requirements', '2026-07-28'),
      scored: () => requiredScenarios('2026-07-28'),
      baseline: BASELINE,
    },
    {
      label: '2025-11-25',
      runs: async () => suite('--requirements', '2025-11-25'),
      scored: () => requiredScenarios('2025-11-25'),
      baseline: BASELINE,
    },
    // `--suite pending` runs the pending scenarios, each at its own revision, and the extensions
    // (tasks, skills) with them; only the pending ones are scored here, as `--requirements` does.
    {
      label: 'pending',
      runs: async () => suite('--suite', 'pending'),
      scored: nonExtensionScenarios,
      baseline: BASELINE,
    },
    {
      label: '2025-06-18',
      runs: async () => suite('--suite', 'all', '--spec-version', '2025-06-18'),
      scored: () => offeredScenarios('2025-06-18'),
      baseline: revisionBaseline('2025-06-18'),
      pin: '2025-06-18',
    },
    // The suite offers one scenario at 2025-03-26; the 2025-06-18 ones run there too, forced
    // (`--force`, one suite process each), since nothing in them needs what 2025-06-18 added.
    {
      label: '2025-03-26',
      runs: async () => {
        const offered = await offeredScenarios('2025-03-26');
        const forced = [...(await offeredScenarios('2025-06-18'))].filter((name) => !offered.has(name));
        return [
          ...suite('--suite', 'all', '--spec-version', '2025-03-26'),
          ...forced.map(
            (name): SuiteRun => ({
              args: ['--scenario', name, '--spec-version', '2025-03-26', '--force'],
              forced: true,
            }),
          ),
        ];
      },
      scored: async () =>
        new Set([...(await offeredScenarios('2025-03-26')), ...(await offeredScenarios('2025-06-18'))]),
      baseline: revisionBaseline('2025-03-26'),
      pin: '2025-03-26',
    },
  ];

  const { child, url } = await startFixture();
  const summaries: string[] = [];
  let ok = true;
  try {
    for (const leg of legs) {
      const dir = join(out, leg.label);
      mkdirSync(dir, { recursive: true });
      const baseline = readBaseline(leg.baseline);
      const proxy = leg.pin === undefined ? undefined : await startPinProxy(url, leg.pin);
      let runs: readonly { code: number; stdout: string }[];
      let scored: ReadonlySet<string>;
      try {
        const target = proxy?.url ?? url;
        const common = ['-o', dir, '--timeout', values.timeout, '--expected-failures', leg.baseline];
        const planned = await leg.runs();
        [runs, scored] = await Promise.all([
          inBatches(planned, (run) => runSuite(['server', '--url', target, ...run.args, ...common], false)),
          leg.scored(),
        ]);
      } finally {
        await proxy?.close();
      }
      const results = readResults(dir);
      for (const name of scored) {
        // A scored scenario that left no checks.json failed in a way the suite could not record.
        if (!results.has(name) && leg.label !== 'pending')
          results.set(name, [
            { id: 'no-checks-json', status: 'FAILURE', errorMessage: 'the suite wrote no checks.json' },
          ]);
      }
      const rows = [...results].map(([scenario, checks]) => ({
        scenario,
        checks,
        verdict: verdictOf(checks),
      }));
      printLeg(leg.label, rows, scored);
      const scoredResults = new Map([...results].filter(([name]) => scored.has(name)));
      const verdict = judge(scoredResults, baseline);
      printVerdict(leg.label, verdict, leg.baseline);
      // The suite's baseline verdict over the same leg (with --requirements: scored scenarios only;
      // with --suite: every scenario it ran, extensions included; a forced --scenario run: that one).
      const suiteFailed = runs.filter((run) => run.code !== 0);
      for (const run of suiteFailed) {
        process.stdout.write(
          `  the suite's baseline verdict for ${leg.label}: exit ${run.code} (see ${dir})\n`,
        );
        const tail = run.stdout.search(/\n[^\n]*(Expected failures|Stale baseline|Unexpected failures)/);
        if (tail >= 0) process.stderr.write(run.stdout.slice(tail));
      }
      const wire = proxy === undefined || leg.pin === undefined ? [] : wireProblems(leg.pin, proxy.seen);
      for (const problem of wire) process.stdout.write(`  WIRE (${leg.label}) ${problem}\n`);
      if (proxy !== undefined) process.stdout.write(`  wire (${leg.label}): ${describeWire(proxy.seen)}\n`);
      ok &&=
        suiteFailed.length === 0 &&
        verdict.unexpected.length === 0 &&
        verdict.stale.length === 0 &&
        wire.length === 0;
      const scoredRows = rows.filter((row) => scored.has(row.scenario));
      const passed = scoredRows.filter((row) => row.verdict === 'PASS').length;
      const skipped = scoredRows.filter((row) => row.verdict === 'SKIP').length;
      summaries.push(
        `${leg.label}: ${passed} passed, ${scoredRows.length - passed - skipped} failed${skipped > 0 ? `, ${skipped} skipped (no check applied)` : ''}`,
      );
    }
  } finally {
    child.kill('SIGTERM');
  }
  process.stdout.write(`\n${summaries.join('\n')}\n`);
  process.stdout.write(
    `baselines ${ok ? 'matched' : 'NOT matched'} (${BASELINE} and expected-failures-<revision>.yml); wall ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
  return ok ? 0 : 1;
}

/** Runs `work` over `items`, at most FORCED_CONCURRENCY at once, results in order. */
async function inBatches<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(FORCED_CONCURRENCY, items.length) }, worker));
  return results;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`conformance: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
