/**
 * The HTTP transport under load, each part measured in the same run so ratios hold on a shared,
 * noisy machine. Every server runs in a child process of its own; the load comes from this one.
 *
 *   1. throughput: tools/call and tools/list, req/s and p50/p99 latency, for a bare `node:http`
 *      JSON echo (the ceiling), Palisade `serve()`, and the official SDK v2 served statelessly
 *      (2026-07-28 through `createMcpHandler`, 2025-11-25 through the Streamable HTTP transport
 *      with `sessionIdGenerator: undefined`). Windows rotate over the contenders, round after round.
 *   2. memory: N requests in flight with a 1,048,576-byte body, first one byte short of the end
 *      (held by the body reader), then complete and parked in a tool; server RSS/heap delta ÷ N.
 *   3. drip: a paced legitimate tools/call while 12,000 connections (another child process) each
 *      sent a head with Content-Length and then drip one body byte a second.
 *
 *   npm run bench:http                      everything, about 3 minutes
 *   npm run bench:http -- --quick           shorter windows, fewer requests and drippers
 *   npm run bench:http -- throughput --floor   also the bare echo plus the wire rules alone
 *   npm run bench:http -- throughput --floor --base=../palisade-main   also the build of another
 *                                           checkout (built there first), to hold a change to the
 *                                           code before it: the CPU target needs it
 *   npm run bench:http -- memory drip       only the named parts (throughput, memory, drip)
 *   npm run bench:http -- throughput --only=bare,palisade   only these throughput rows (bare, rules,
 *                                           palisade, sdk-modern, sdk-legacy): quicker while tuning
 *   BENCH_CHILD_FLAGS='--trace-gc' npm run bench:http -- throughput   Node flags for every server child
 *   npm run bench:http -- --drippers=4000   another number of drip connections
 *   npm run bench:http -- drip --read-timeout=15000   drips cut by the default body deadline
 *   npm run bench:http -- drip --drip-interval=3600000   connections that send a head, then nothing
 */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { Child } from './http/child.js';
import type { FromDripper, ToDripper } from './http/drip-process.js';
import { closedLoop, pacedProbe, type Window } from './http/load.js';
import { KeepAliveConnection } from './http/raw-client.js';
import {
  ECHO_TEXT,
  echoCall,
  holdCall,
  type RevisionName,
  requestBytes,
  toolsList,
} from './http/requests.js';
import type { FromServer, ToServer } from './http/server-process.js';
import type { Contender, ServerSettings } from './http/servers.js';
import { kib, percentile, row } from './http/stats.js';

const MIB = 1_048_576;
/**
 * The standing targets (docs/benchmarks.md), each judged in the same run: tools/call over HTTP at
 * least 6x the official SDK v2 on each revision; no more server CPU per request than the code
 * before the change (`--base`), with 5% for the noise of a shared machine; the 12,000-drip p99
 * under 10 ms. The old 0.75x-of-bare throughput target is retired: the rules alone cost more
 * (the floor row shows it), so `vs bare` is reported, not judged.
 */
const VS_SDK_TARGET = 6;
const CPU_VS_BASE_ALLOWANCE = 1.05;
const DRIP_P99_TARGET_MS = 10;

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const floor = args.includes('--floor');
const flag = (name: string): number | undefined => {
  const value = args.find((arg) => arg.startsWith(`--${name}=`));
  return value === undefined ? undefined : Number(value.slice(name.length + 3));
};
const parts = args.filter((arg) => !arg.startsWith('--'));
const baseArg = args.find((arg) => arg.startsWith('--base='))?.slice('--base='.length);
const baseRoot = baseArg === undefined ? undefined : resolve(baseArg);
const only = args
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const runs = (part: string): boolean => parts.length === 0 || parts.includes(part);

const config = {
  concurrency: 32,
  rounds: quick ? 1 : 3,
  windowMs: quick ? 1_000 : 2_500,
  warmupMs: quick ? 500 : 1_500,
  inFlight: quick ? 25 : 100,
  drippers: flag('drippers') ?? (quick ? 2_000 : 12_000),
  /** Long enough that no drip is cut during the probe; `--read-timeout=15000` shows the default cutting them. */
  dripReadTimeoutMs: flag('read-timeout') ?? 600_000,
  probeIntervalMs: 10,
  probeMs: quick ? 4_000 : 20_000,
  baselineProbeMs: quick ? 2_000 : 10_000,
  dripContentLength: 65_536,
  dripIntervalMs: flag('drip-interval') ?? 1_000,
};

type ServerChild = Child<ToServer, FromServer>;

async function startServer(
  contender: Contender,
  settings: ServerSettings,
): Promise<{ child: ServerChild; port: number }> {
  const { child, ready } = await Child.fork<ToServer, FromServer>('./server-process.ts', [
    contender,
    JSON.stringify(settings),
  ]);
  if (ready.type !== 'ready') throw new Error('server not ready');
  return { child, port: ready.port };
}

async function memoryOf(child: ServerChild): Promise<Extract<FromServer, { type: 'memory' }>> {
  const answer = await child.ask({ type: 'memory' });
  if (answer.type !== 'memory') throw new Error(`expected memory, got ${answer.type}`);
  return answer;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

let failures = 0;
function verdict(ok: boolean): string {
  if (!ok) failures++;
  return ok ? 'pass' : 'FAIL';
}

// 1. Throughput ------------------------------------------------------------------------------

interface Cell {
  readonly label: string;
  readonly contender: Contender;
  readonly revision: RevisionName;
  readonly method: 'tools/call' | 'tools/list';
  windows: Window[];
  /** CPU time this (load) process spent during the windows, µs. */
  loadCpu: number;
  /** CPU time the server's process spent during the windows, µs. */
  serverCpu: number;
}

async function serverCpuOf(child: ServerChild): Promise<number> {
  const answer = await child.ask({ type: 'cpu' });
  if (answer.type !== 'cpu') throw new Error(`expected cpu, got ${answer.type}`);
  return answer.micros;
}

/** `a ÷ b` as `0.61x`, or nothing when either row was not run (`--only`). */
function ratioText(a: number, b: number): string {
  return Number.isFinite(a) && Number.isFinite(b) ? `${(a / b).toFixed(2)}x` : '';
}

async function throughput(): Promise<void> {
  let contenders: Contender[] = ['bare', 'palisade', 'sdk-modern', 'sdk-legacy'];
  // `--floor`: also the bare echo plus the wire rules alone (bench/http/rules-floor.ts).
  if (floor || only?.includes('rules')) contenders.push('rules');
  if (baseRoot !== undefined) contenders.push('palisade-base');
  if (only !== undefined) contenders = contenders.filter((contender) => only.includes(contender));
  const settings: ServerSettings = {
    maxConnections: 1_024,
    readTimeoutMs: 15_000,
    ...(baseRoot === undefined ? {} : { baseRoot }),
  };
  const servers = new Map<Contender, { child: ServerChild; port: number }>();
  for (const contender of contenders) servers.set(contender, await startServer(contender, settings));

  const lines = (
    [
      { label: 'bare node:http (ceiling)', contender: 'bare', revision: '2026-07-28' },
      { label: 'wire rules only (floor)', contender: 'rules', revision: '2026-07-28' },
      { label: 'palisade serve()', contender: 'palisade', revision: '2026-07-28' },
      { label: 'palisade serve() at --base', contender: 'palisade-base', revision: '2026-07-28' },
      { label: 'sdk v2 createMcpHandler', contender: 'sdk-modern', revision: '2026-07-28' },
      { label: 'palisade serve()', contender: 'palisade', revision: '2025-11-25' },
      { label: 'sdk v2 transport, no session', contender: 'sdk-legacy', revision: '2025-11-25' },
    ] as const
  ).filter((line) => servers.has(line.contender));
  const cells: Cell[] = [];
  for (const method of ['tools/call', 'tools/list'] as const) {
    for (const line of lines) cells.push({ ...line, method, windows: [], loadCpu: 0, serverCpu: 0 });
  }
  const bytesOf = (cell: Cell): Buffer =>
    requestBytes(
      servers.get(cell.contender)!.port,
      cell.method === 'tools/call' ? echoCall(cell.revision) : toolsList(cell.revision),
    );
  const expectOf = (cell: Cell): string => (cell.method === 'tools/call' ? ECHO_TEXT : '"echo"');

  for (const cell of cells) {
    await closedLoop(
      servers.get(cell.contender)!.port,
      bytesOf(cell),
      config.concurrency,
      config.warmupMs,
      expectOf(cell),
    );
  }
  for (let round = 0; round < config.rounds; round++) {
    // Rotating the order spreads drift and noise evenly over the contenders.
    for (let k = 0; k < cells.length; k++) {
      const cell = cells[(k + round * 3) % cells.length]!;
      const { child, port } = servers.get(cell.contender)!;
      const serverBefore = await serverCpuOf(child);
      const cpu = process.cpuUsage();
      cell.windows.push(
        await closedLoop(port, bytesOf(cell), config.concurrency, config.windowMs, expectOf(cell)),
      );
      const used = process.cpuUsage(cpu);
      cell.loadCpu += used.user + used.system;
      cell.serverCpu += (await serverCpuOf(child)) - serverBefore;
    }
  }
  for (const { child } of servers.values()) await child.stop({ type: 'close' });

  const rate = (cell: Cell | undefined): number =>
    cell === undefined
      ? Number.NaN
      : cell.windows.reduce((sum, w) => sum + w.requests, 0) /
        cell.windows.reduce((sum, w) => sum + w.seconds, 0);
  // The server's CPU per answered request: steadier than req/s on a shared machine, since a
  // window that lost the core to another process loses requests and CPU time together.
  const cpuPerRequest = (cell: Cell | undefined): number =>
    cell === undefined ? Number.NaN : cell.serverCpu / cell.windows.reduce((sum, w) => sum + w.requests, 0);
  const find = (method: string, contender: Contender, revision: RevisionName): Cell | undefined =>
    cells.find((c) => c.method === method && c.contender === contender && c.revision === revision);

  console.log(
    `\n1. throughput: ${config.concurrency} keep-alive connections, closed loop, ${config.rounds} rotating round(s) of ${config.windowMs} ms per row after a ${config.warmupMs} ms warm-up`,
  );
  console.log('   ratios are Palisade ÷ the named row of the same method (vs sdk: the same revision)');
  console.log(
    "   over floor: this row's srv µs/req less the wire-rules floor's (--floor), Palisade's own plumbing",
  );
  console.log('   load cpu: share of one core this load process used, so a row is not capped by the client');
  console.log(
    "   srv µs/req: the server process's CPU time per answered request; cpu vs bare: bare's ÷ this row's\n",
  );
  const widths = [11, 30, 11, 9, 8, 8, 7, 9, 11, 11, 12, 8, 8, 24, 10];
  console.log(
    row(
      [
        'method',
        'server',
        'revision',
        'req/s',
        'p50 ms',
        'p99 ms',
        'errors',
        'load cpu',
        'srv µs/req',
        'over floor',
        'cpu vs bare',
        'vs bare',
        'vs sdk',
        'target',
        'result',
      ],
      widths,
    ),
  );
  for (const cell of cells) {
    const latencies = cell.windows.flatMap((w) => w.latenciesMs);
    const errors = cell.windows.reduce((sum, w) => sum + w.errors, 0);
    let vsBare = '';
    let cpuVsBare = '';
    let vsSdk = '';
    let overFloor = '';
    const targets: string[] = [];
    const missed: string[] = [];
    const bare = find(cell.method, 'bare', '2026-07-28');
    const rules = find(cell.method, 'rules', '2026-07-28');
    if (cell.contender === 'rules') {
      vsBare = ratioText(rate(cell), rate(bare));
      cpuVsBare = ratioText(cpuPerRequest(bare), cpuPerRequest(cell));
    } else if (cell.contender === 'palisade' || cell.contender === 'palisade-base') {
      const sdk = find(
        cell.method,
        cell.revision === '2026-07-28' ? 'sdk-modern' : 'sdk-legacy',
        cell.revision,
      );
      vsBare = ratioText(rate(cell), rate(bare));
      cpuVsBare = ratioText(cpuPerRequest(bare), cpuPerRequest(cell));
      vsSdk = ratioText(rate(cell), rate(sdk));
      if (cell.revision === '2026-07-28' && rules !== undefined) {
        overFloor = (cpuPerRequest(cell) - cpuPerRequest(rules)).toFixed(0);
      }
      // Judged only against rows of the same run, and only for this checkout's Palisade.
      if (cell.contender === 'palisade' && cell.method === 'tools/call' && sdk !== undefined) {
        targets.push(`≥ ${VS_SDK_TARGET}x sdk`);
        if (!(rate(cell) / rate(sdk) >= VS_SDK_TARGET && errors === 0)) missed.push('sdk');
      }
      const base = find(cell.method, 'palisade-base', cell.revision);
      if (cell.contender === 'palisade' && base !== undefined) {
        targets.push('cpu ≤ base');
        if (!(cpuPerRequest(cell) <= cpuPerRequest(base) * CPU_VS_BASE_ALLOWANCE)) missed.push('cpu');
      }
    }
    const result =
      targets.length === 0
        ? ''
        : verdict(missed.length === 0) + (missed.length ? ` (${missed.join(', ')})` : '');
    console.log(
      row(
        [
          cell.method,
          cell.label,
          cell.revision,
          rate(cell).toFixed(0),
          percentile(latencies, 50).toFixed(2),
          percentile(latencies, 99).toFixed(2),
          String(errors),
          `${(cell.loadCpu / 1e4 / cell.windows.reduce((sum, w) => sum + w.seconds, 0)).toFixed(0)}%`,
          cpuPerRequest(cell).toFixed(0),
          overFloor,
          cpuVsBare,
          vsBare,
          vsSdk,
          targets.join(', '),
          result,
        ],
        widths,
      ),
    );
  }
  if (baseRoot === undefined) {
    console.log(
      '\n   cpu ≤ base (no change adds CPU per request) is judged only with --base=DIR, a built checkout of the code before the change',
    );
  } else {
    console.log(
      `\n   cpu ≤ base: this checkout's srv µs/req at most ${CPU_VS_BASE_ALLOWANCE}x that of ${baseRoot}, same method and revision`,
    );
  }
}

// 2. Memory per in-flight request at the body cap ----------------------------------------------

async function settledMemory(child: ServerChild): Promise<Extract<FromServer, { type: 'memory' }>> {
  // The server reads bytes as they come; wait until its RSS stops growing.
  let last = await memoryOf(child);
  for (let i = 0; i < 20; i++) {
    await sleep(500);
    const now = await memoryOf(child);
    if (Math.abs(now.rss - last.rss) < MIB) return now;
    last = now;
  }
  return last;
}

async function memory(): Promise<void> {
  const n = config.inFlight;
  const hold = holdCall(MIB);
  console.log(
    `\n2. memory: ${n} requests in flight, each with a ${Buffer.byteLength(hold.body)}-byte body; server delta after a full GC ÷ ${n}`,
  );
  console.log(
    '   mid-body: head and all but the last body byte sent; in tool: body complete, parked in `hold`\n',
  );
  const widths = [26, 10, 12, 10, 12, 12, 9];
  console.log(
    row(['server', 'state', 'RSS KiB/req', 'RSS/body', 'heap KiB/req', 'bufs KiB/req', 'answers'], widths),
  );
  for (const [label, contender] of [
    ['palisade serve()', 'palisade'],
    ['sdk v2 createMcpHandler', 'sdk-modern'],
  ] as const) {
    const { child, port } = await startServer(contender, { maxConnections: n + 64, readTimeoutMs: 120_000 });
    const bytes = requestBytes(port, hold);
    const connections = await Promise.all(Array.from({ length: n }, () => KeepAliveConnection.open(port)));
    // One small exchange on each, so per-connection parser state is in the baseline.
    const echo = requestBytes(port, echoCall('2026-07-28'));
    await Promise.all(connections.map((connection) => connection.request(echo)));
    const base = await settledMemory(child);
    await Promise.all(
      connections.map(
        (connection) =>
          new Promise<void>((resolve) =>
            connection.socket.write(bytes.subarray(0, bytes.length - 1), () => resolve()),
          ),
      ),
    );
    const midBody = await settledMemory(child);
    const answers = connections.map((connection) => connection.request(bytes.subarray(bytes.length - 1)));
    let inTool = await memoryOf(child);
    for (let i = 0; i < 120 && inTool.entered < n; i++) {
      await sleep(250);
      inTool = await memoryOf(child);
    }
    inTool = await settledMemory(child);
    await child.ask({ type: 'release' });
    const statuses = await Promise.all(
      answers.map((answer) =>
        answer.then(
          (r) => r.status,
          () => 0,
        ),
      ),
    );
    const ok = statuses.filter((status) => status === 200).length;
    for (const connection of connections) connection.close();
    await child.stop({ type: 'close' });
    for (const [state, sample] of [
      ['mid-body', midBody],
      ['in tool', inTool],
    ] as const) {
      const rss = (sample.rss - base.rss) / n;
      console.log(
        row(
          [
            label,
            state,
            kib(rss),
            `${(rss / MIB).toFixed(2)}x`,
            kib((sample.heapUsed - base.heapUsed) / n),
            kib((sample.arrayBuffers - base.arrayBuffers) / n),
            state === 'in tool' ? `${ok}/${n}` : `${sample.entered}`,
          ],
          widths,
        ),
      );
    }
  }
  console.log('   bufs: process.memoryUsage().arrayBuffers (Buffers); heap: heapUsed (strings, objects)');
}

// 3. A legitimate call while thousands of connections drip -------------------------------------

async function drip(): Promise<void> {
  const readTimeoutMs = config.dripReadTimeoutMs;
  const { child, port } = await startServer('palisade', {
    maxConnections: config.drippers + 256,
    readTimeoutMs,
  });
  const echo = requestBytes(port, echoCall('2026-07-28'));
  console.log(
    `\n3. drip: one tools/call every ${config.probeIntervalMs} ms on one keep-alive connection, while ${config.drippers} connections`,
  );
  console.log(
    `   (another process) each sent a head with Content-Length ${config.dripContentLength} and drip a byte every ${config.dripIntervalMs} ms`,
  );
  console.log(
    `   palisade serve(): maxConnections ${config.drippers + 256}, readTimeoutMs ${readTimeoutMs}, requestTimeoutMs ${readTimeoutMs + 1_000}\n`,
  );
  const baseline = await pacedProbe(port, echo, config.probeIntervalMs, config.baselineProbeMs);
  const baseMemory = await memoryOf(child);

  const { child: dripper, ready } = await Child.fork<ToDripper, FromDripper>('./drip-process.ts', [
    String(port),
    String(config.drippers),
    String(config.dripContentLength),
    String(config.dripIntervalMs),
  ]);
  if (ready.type !== 'ready') throw new Error('dripper not ready');
  await sleep(2_000);
  const during = await pacedProbe(port, echo, config.probeIntervalMs, config.probeMs);
  const status = await dripper.ask({ type: 'status' });
  const dripMemory = await memoryOf(child);
  await dripper.stop({ type: 'close' });
  await child.stop({ type: 'close' });
  if (status.type !== 'status') throw new Error('no dripper status');

  console.log(
    `   drippers: ${ready.open} connected in ${ready.seconds.toFixed(1)} s (${ready.failed} failed); after the probe ${status.open} open, ${status.closedByServer} closed by the server, ${status.bytes} bytes dripped`,
  );
  const perConnection =
    status.open === 0 ? '' : ` (${kib((dripMemory.rss - baseMemory.rss) / status.open)} KiB per connection)`;
  console.log(
    `   server RSS ${(baseMemory.rss / MIB).toFixed(0)} MiB idle, ${(dripMemory.rss / MIB).toFixed(0)} MiB with the drippers${perConnection}; ${dripMemory.refusals} transport refusals\n`,
  );
  const widths = [20, 8, 8, 8, 8, 8, 7, 8, 7];
  console.log(
    row(['condition', 'calls', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'errors', 'target', 'result'], widths),
  );
  for (const [label, window, target] of [
    ['no drippers', baseline, false],
    [`${status.open} dripping`, during, true],
  ] as const) {
    const p99 = percentile(window.latenciesMs, 99);
    console.log(
      row(
        [
          label,
          String(window.requests),
          percentile(window.latenciesMs, 50).toFixed(2),
          percentile(window.latenciesMs, 90).toFixed(2),
          p99.toFixed(2),
          Math.max(...window.latenciesMs).toFixed(2),
          String(window.errors),
          target ? `< ${DRIP_P99_TARGET_MS} ms` : '',
          target
            ? verdict(p99 < DRIP_P99_TARGET_MS && window.errors === 0 && status.open === config.drippers)
            : '',
        ],
        widths,
      ),
    );
  }
}

console.log(
  `http benchmark, ${new Date().toISOString()}, Node ${process.version}, ${process.platform}/${process.arch}, ${availableParallelism()} cores${quick ? ', --quick' : ''}`,
);
console.log('each server in a child process of its own; load from this process over raw keep-alive sockets');
const started = performance.now();
if (runs('throughput')) await throughput();
if (runs('memory')) await memory();
if (runs('drip')) await drip();
console.log(
  `\n${failures === 0 ? 'all targets met' : `${failures} target(s) missed`} in ${((performance.now() - started) / 1_000).toFixed(0)} s`,
);
process.exitCode = failures === 0 ? 0 : 1;
