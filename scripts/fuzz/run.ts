/**
 * `npm run fuzz`: the property tests run far longer than CI runs them. Every *.property.test.ts
 * runs under scripts/fuzz/vitest.config.ts, whose setup multiplies each property's run count by
 * PALISADE_FUZZ_RUNS / 100 (CI: each property's own count, fast-check's 100 where it names none),
 * pins one seed for all and bounds each property in time. Prints a summary; exits 1 on a failure
 * with the command that replays it.
 *
 *   npm run fuzz -- [--runs N] [--seed S] [--property-seconds T] [file filter...]
 *   defaults: --runs 10000 (100 times CI), a random seed, 60 s per property
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CONFIG = fileURLToPath(new URL('./vitest.config.ts', import.meta.url));

const { values, positionals } = parseArgs({
  options: {
    runs: { type: 'string', default: '10000' },
    seed: { type: 'string' },
    'property-seconds': { type: 'string', default: '60' },
  },
  allowPositionals: true,
  strict: true,
});

function integer(name: string, text: string, min: number): number {
  const value = Number(text);
  if (!/^-?[0-9]+$/.test(text) || !Number.isSafeInteger(value) || value < min) {
    process.stderr.write(`fuzz: --${name} must be an integer of at least ${min}\n`);
    process.exit(2);
  }
  return value;
}

const runs = integer('runs', values.runs, 1);
const seed =
  values.seed === undefined
    ? (Date.now() ^ (Math.random() * 0x7fffffff)) | 0
    : integer('seed', values.seed, -(2 ** 31));
const propertySeconds = integer('property-seconds', values['property-seconds'], 1);

const scratch = mkdtempSync(join(tmpdir(), 'palisade-fuzz-'));
const report = join(scratch, 'properties.jsonl');
const results = join(scratch, 'vitest.json');

process.stdout.write(
  `fuzz: ${runs} runs per property (CI: 100), seed ${seed}, at most ${propertySeconds} s per property\n`,
);
const started = performance.now();
const child = spawnSync(
  process.execPath,
  [
    join(ROOT, 'node_modules/vitest/vitest.mjs'),
    'run',
    '--config',
    CONFIG,
    '--reporter=dot',
    '--reporter=json',
    `--outputFile.json=${results}`,
    ...positionals,
  ],
  {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      PALISADE_FUZZ_RUNS: String(runs),
      PALISADE_FUZZ_SEED: String(seed),
      PALISADE_FUZZ_PROPERTY_MS: String(propertySeconds * 1000),
      PALISADE_FUZZ_TEST_TIMEOUT_MS: String((propertySeconds * 4 + 60) * 1000),
      PALISADE_FUZZ_REPORT: report,
    },
  },
);
const seconds = (performance.now() - started) / 1000;

interface Recorded {
  file: string;
  test: string;
  numRuns: number;
  seed: number;
  failed: boolean;
  interrupted: boolean;
}
interface VitestJson {
  testResults: {
    name: string;
    assertionResults: { fullName: string; status: string; duration?: number; failureMessages: string[] }[];
  }[];
}

let recorded: Recorded[] = [];
try {
  recorded = readFileSync(report, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as Recorded);
} catch {
  // No property reached its end: the vitest output above says why.
}
let tests: VitestJson['testResults'] = [];
try {
  tests = (JSON.parse(readFileSync(results, 'utf8')) as VitestJson).testResults;
} catch {
  // As above.
}
rmSync(scratch, { recursive: true, force: true });

const rows: string[][] = [];
let failures = 0;
for (const file of tests) {
  const path = relative(ROOT, file.name);
  for (const test of file.assertionResults) {
    // expect.getState() joins the describe and test names with ' > '; the JSON report with spaces.
    const mine = recorded.filter(
      (entry) => entry.test.replaceAll(' > ', ' ') === test.fullName && relative(ROOT, entry.file) === path,
    );
    const total = mine.reduce((sum, entry) => sum + entry.numRuns, 0);
    const interrupted = mine.some((entry) => entry.interrupted);
    if (test.status !== 'passed') failures += 1;
    rows.push([
      test.status === 'passed' ? 'ok' : test.status.toUpperCase(),
      String(total) + (interrupted ? ' (time budget)' : ''),
      `${((test.duration ?? 0) / 1000).toFixed(1)} s`,
      `${path.replace('packages/palisade-mcp/test/', '')} > ${test.fullName.replace(/^.*? properties /, '')}`,
    ]);
  }
}
const widths = [6, 18, 9];
const line = (cells: string[]): string =>
  cells.map((cell, i) => (i < widths.length ? cell.padEnd(widths[i]!) : cell)).join(' ');
process.stdout.write(`\n${line(['status', 'runs', 'time', 'property'])}\n`);
for (const row of rows) process.stdout.write(`${line(row)}\n`);
const totalRuns = recorded.reduce((sum, entry) => sum + entry.numRuns, 0);
process.stdout.write(
  `\nfuzz: ${rows.length} properties, ${totalRuns} runs in all, ${seconds.toFixed(1)} s, seed ${seed}: ` +
    `${failures > 0 ? `${failures} failed` : child.status === 0 ? 'all held' : `vitest exited with ${child.status}`}\n`,
);
if (failures > 0 || child.status !== 0) {
  process.stdout.write(
    `replay: npm run fuzz -- --seed ${seed} --runs ${runs} --property-seconds ${propertySeconds} <file>\n` +
      "(fast-check's message above gives the counterexample and its path; a time budget may cut a replay short)\n",
  );
  process.exit(1);
}
