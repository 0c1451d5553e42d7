#!/usr/bin/env node
/**
 * `npm run conformance`: starts the fixture on an ephemeral loopback port, runs the official suite
 * (@modelcontextprotocol/conformance, pinned) three times — the 2026-07-28 and 2025-11-25
 * requirement sets and the pending suite — reads every checks.json, prints one line per scenario
 * and one `REVISION: N passed, M failed` line per leg over its scored set (a WARNING counts as a
 * failure, the suite's baseline rule), and holds the result to expected-failures.yml.
 *
 * Exit 0 only when the result matches the baseline exactly: a regression fails the run and so
 * does a baselined failure that now passes. The suite judges each leg against the same file;
 * the runner judges its own table too, so neither verdict is taken on trust.
 *
 * Options: `--out DIR` keeps the raw results there (default a fresh temp dir, printed on stderr);
 * `--timeout MS` per scenario (default 5000); `--baseline FILE` instead of expected-failures.yml.
 * Exit codes: 0 matched, 1 not matched, 2 the run itself failed (usage, fixture, suite).
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

const here = dirname(fileURLToPath(import.meta.url));
const packageRoot = join(here, '..');
const DEFAULT_BASELINE = join(packageRoot, 'expected-failures.yml');
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
  readonly args: readonly string[];
  /** The scenarios this leg scores, asked of the suite itself. */
  readonly scored: () => Promise<ReadonlySet<string>>;
}

type Row = {
  readonly scenario: string;
  readonly verdict: 'PASS' | 'WARN' | 'FAIL';
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
  return checks.some((check) => check.status === 'WARNING') ? 'WARN' : 'PASS';
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

function printVerdict(label: string, verdict: Verdict): void {
  for (const item of verdict.unexpected) process.stdout.write(`  REGRESSION (${label}) ${item}\n`);
  for (const item of verdict.stale)
    process.stdout.write(`  NOW PASSING (${label}) ${item}: remove it from expected-failures.yml\n`);
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      timeout: { type: 'string', default: '5000' },
      baseline: { type: 'string', default: DEFAULT_BASELINE },
    },
    strict: true,
    allowPositionals: false,
  });
  if (!/^[1-9][0-9]{0,6}$/.test(values.timeout)) throw new Error('--timeout must be a positive integer (ms)');
  const out = values.out ?? mkdtempSync(join(tmpdir(), 'palisade-conformance-'));
  process.stderr.write(`conformance: raw results under ${out}\n`);
  const BASELINE = values.baseline;
  const baseline = readBaseline(BASELINE);
  const started = Date.now();

  const legs: Leg[] = [
    {
      label: '2026-07-28',
      args: ['--requirements', '2026-07-28'],
      scored: () => requiredScenarios('2026-07-28'),
    },
    {
      label: '2025-11-25',
      args: ['--requirements', '2025-11-25'],
      scored: () => requiredScenarios('2025-11-25'),
    },
    // `--suite pending` runs the pending scenarios, each at its own revision, and the extensions
    // (tasks, skills) with them; only the pending ones are scored here, as `--requirements` does.
    { label: 'pending', args: ['--suite', 'pending'], scored: nonExtensionScenarios },
  ];

  const { child, url } = await startFixture();
  const summaries: string[] = [];
  let ok = true;
  try {
    for (const leg of legs) {
      const dir = join(out, leg.label);
      mkdirSync(dir, { recursive: true });
      const [run, scored] = await Promise.all([
        runSuite(
          [
            'server',
            '--url',
            url,
            ...leg.args,
            '-o',
            dir,
            '--timeout',
            values.timeout,
            '--expected-failures',
            BASELINE,
          ],
          false,
        ),
        leg.scored(),
      ]);
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
      printVerdict(leg.label, verdict);
      // The suite's baseline verdict over the same leg (with --requirements: scored scenarios only;
      // with --suite pending: every scenario it ran, extensions included).
      if (run.code !== 0) {
        process.stdout.write(
          `  the suite's baseline verdict for ${leg.label}: exit ${run.code} (see ${dir})\n`,
        );
        const tail = run.stdout.search(/\n[^\n]*(Expected failures|Stale baseline|Unexpected failures)/);
        if (tail >= 0) process.stderr.write(run.stdout.slice(tail));
      }
      ok &&= run.code === 0 && verdict.unexpected.length === 0 && verdict.stale.length === 0;
      const scoredRows = rows.filter((row) => scored.has(row.scenario));
      const passed = scoredRows.filter((row) => row.verdict === 'PASS').length;
      summaries.push(`${leg.label}: ${passed} passed, ${scoredRows.length - passed} failed`);
    }
  } finally {
    child.kill('SIGTERM');
  }
  process.stdout.write(`\n${summaries.join('\n')}\n`);
  process.stdout.write(
    `baseline ${ok ? 'matched' : 'NOT matched'} (${BASELINE}); wall ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
  return ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`conformance: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
