/**
 * Cold start over stdio: a desktop client spawns a stdio server for every session, so the time
 * from spawn to the first answer is time its user waits. Each contender is spawned, sent an
 * `initialize` at once, and timed from `spawn()` to the first line on its stdout (the answer);
 * then stdin is closed and the process waited for. Contenders take turns, round after round, so
 * drift and noise on a shared machine fall on all of them alike; each is spawned twice first,
 * untimed, so every run reads files from the page cache.
 *
 *   bare node          a `node` that reads one line and writes one back: the floor
 *   palisade one tool  createServer with one JSON-Schema tool, runStdio (bench/start/)
 *   sdk v2 one tool    the official SDK v2 (@modelcontextprotocol/server) with the same tool
 *   palisade demo      packages/demo --stdio: the demo catalog, its connectome, its collector
 *
 *   npm run bench:start                 20 timed spawns each (median and p90)
 *   npm run bench:start -- --runs=50    another count
 *   npm run bench:start -- --profile    also a --cpu-prof of one one-tool start, summarized by
 *                                       file: where the one-tool server's start-up time goes
 *   npm run bench:start -- --base=.bench-base   also the one-tool server built from another
 *                                       checkout, to measure a change against the code before it:
 *                                         git worktree add .bench-base <ref>
 *                                         node node_modules/typescript/bin/tsc -b .bench-base/packages/palisade-mcp
 *                                       (inside this folder, so it resolves this node_modules)
 *
 * Targets: the one-tool Palisade server no slower than the SDK v2 (median), and within 2x of bare node.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { percentile, row } from './http/stats.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const args = process.argv.slice(2);
const runsArg = args.find((arg) => arg.startsWith('--runs='));
const RUNS = runsArg === undefined ? 20 : Number(runsArg.slice('--runs='.length));
const WARMUP = 2;
const baseArg = args.find((arg) => arg.startsWith('--base='))?.slice('--base='.length);

const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
})}\n`;

interface Contender {
  readonly label: string;
  readonly args: readonly string[];
}

const CONTENDERS: readonly Contender[] = [
  { label: 'bare node', args: [join(ROOT, 'bench/start/bare.mjs')] },
  { label: 'palisade one tool', args: [join(ROOT, 'bench/start/palisade-one-tool.mjs')] },
  ...(baseArg === undefined
    ? []
    : [
        {
          label: 'one tool at --base',
          args: [join(ROOT, 'bench/start/palisade-one-tool.mjs'), resolve(baseArg)],
        },
      ]),
  { label: 'sdk v2 one tool', args: [join(ROOT, 'bench/start/sdk-one-tool.mjs')] },
  { label: 'palisade demo', args: [join(ROOT, 'packages/demo/dist/main.js'), '--stdio'] },
];

/** One spawn: ms from spawn() to the first stdout line, which must answer the initialize. */
function startOnce(contender: Contender, nodeFlags: readonly string[] = []): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [...nodeFlags, ...contender.args], {
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let seen = '';
    let elapsed: number | undefined;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (elapsed !== undefined) return;
      seen += chunk;
      const newline = seen.indexOf('\n');
      if (newline === -1) return;
      elapsed = performance.now() - started;
      const answer = JSON.parse(seen.slice(0, newline)) as { id?: unknown; result?: unknown };
      if (answer.id !== 1 || answer.result === undefined) {
        reject(new Error(`${contender.label} answered ${seen.slice(0, newline)}`));
      }
      child.stdin.end();
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (elapsed === undefined)
        reject(new Error(`${contender.label} exited (${code ?? signal}) before answering`));
      else resolve(elapsed);
    });
    child.stdin.write(INITIALIZE);
  });
}

async function measure(): Promise<Map<string, number[]>> {
  const times = new Map<string, number[]>(CONTENDERS.map((contender) => [contender.label, []]));
  for (let round = 0; round < WARMUP; round++) for (const contender of CONTENDERS) await startOnce(contender);
  for (let round = 0; round < RUNS; round++) {
    // Rotating the order spreads drift over the contenders.
    for (let k = 0; k < CONTENDERS.length; k++) {
      const contender = CONTENDERS[(k + round) % CONTENDERS.length]!;
      times.get(contender.label)!.push(await startOnce(contender));
    }
  }
  return times;
}

let failures = 0;
function verdict(ok: boolean): string {
  if (!ok) failures++;
  return ok ? 'pass' : 'FAIL';
}

function report(times: Map<string, number[]>): void {
  const median = (label: string): number => percentile(times.get(label) ?? [], 50);
  const bare = median('bare node');
  const sdk = median('sdk v2 one tool');
  console.log(
    `\nspawn to the first initialize answer over stdio, ${RUNS} timed spawns each (after ${WARMUP} untimed), ` +
      `Node ${process.version}, ${new Date().toISOString()}\n`,
  );
  const widths = [19, 11, 11, 9, 9, 22, 10];
  console.log(row(['server', 'median ms', 'p90 ms', 'vs bare', 'vs sdk', 'target', 'result'], widths));
  for (const { label } of CONTENDERS) {
    const samples = times.get(label) ?? [];
    const value = median(label);
    let target = '';
    let result = '';
    if (label === 'palisade one tool') {
      target = '≤ sdk, ≤ 2x bare';
      result = verdict(value <= sdk && value <= 2 * bare);
    }
    console.log(
      row(
        [
          label,
          value.toFixed(1),
          percentile(samples, 90).toFixed(1),
          `${(value / bare).toFixed(2)}x`,
          `${(value / sdk).toFixed(2)}x`,
          target,
          result,
        ],
        widths,
      ),
    );
  }
}

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly url: string; readonly functionName: string };
  readonly children?: readonly number[];
}

/** One --cpu-prof start of the one-tool server, its self time summed by the file it ran in. */
async function profile(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'palisade-start-prof-'));
  try {
    await startOnce(CONTENDERS[1]!, ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=100']);
    const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
    if (file === undefined) throw new Error('no profile written');
    const { nodes, samples, timeDeltas } = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
      nodes: ProfileNode[];
      samples: number[];
      timeDeltas: number[];
    };
    const byId = new Map(nodes.map((node) => [node.id, node]));
    const selfMs = new Map<string, number>();
    samples.forEach((id, index) => {
      const url = byId.get(id)?.callFrame.url ?? '';
      const where =
        url === ''
          ? `(${byId.get(id)?.callFrame.functionName || 'native'})`
          : url
              .replace(`file://${ROOT}`, '')
              .replace(/^node_modules\/((?:@[^/]+\/)?[^/]+)\/.*$/, '$1 (package)')
              .replace(/^packages\/palisade-mcp\/dist\/([^/]+)\/.*$/, 'palisade-mcp dist/$1/')
              .replace(/^node:.*$/, 'node: built-ins');
      selfMs.set(where, (selfMs.get(where) ?? 0) + (timeDeltas[index] ?? 0) / 1_000);
    });
    const total = [...selfMs.values()].reduce((sum, ms) => sum + ms, 0);
    console.log(`\nwhere one one-tool start spends its CPU (--cpu-prof, ${total.toFixed(0)} ms sampled):\n`);
    for (const [where, ms] of [...selfMs].sort((a, b) => b[1] - a[1]).slice(0, 15)) {
      console.log(row([where, `${ms.toFixed(1)} ms`, `${((ms / total) * 100).toFixed(0)}%`], [44, 10, 5]));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const began = performance.now();
report(await measure());
if (args.includes('--profile')) await profile();
console.log(
  `\n${failures === 0 ? 'all targets met' : `${failures} target(s) missed`} in ${((performance.now() - began) / 1_000).toFixed(0)} s`,
);
process.exitCode = failures === 0 ? 0 : 1;
