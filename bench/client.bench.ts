/**
 * The client's cost, against the official SDK v2 client, both calling the same Palisade server.
 * The server runs in a child process of its own (bench/http/server-process.ts) and so does each
 * client (bench/client/client-process.ts), so no two share an event loop or a heap.
 *
 *   1. throughput: `tools/call echo`, closed loop at 16 calls in flight, windows rotating over the
 *      clients for several rounds. Each row is judged by the median over the rounds of its rate
 *      over the SDK's rate in the same round (a burst of load from another process on this shared
 *      machine moves one round, not the verdict), and by the client process's CPU per call.
 *      Target (issue 22): palisade-mcp-client at least 2x the SDK's calls per second.
 *   2. memory per in-flight call: 500 `hold` calls parked in the server, the client's heap
 *      (heapUsed + arrayBuffers + external, after two full collections) minus its heap before, / 500.
 *
 *   npm run bench:client                  about a minute and a half
 *   npm run bench:client -- --quick       shorter windows
 *   npm run bench:client -- --sessions    the server keeps sessions for the 2025 family: the
 *                                         2025-11-25 clients carry a session id and hold a GET stream
 */

import { loadavg } from 'node:os';
import type { FromClient, ToClient } from './client/client-process.js';
import { Child } from './http/child.js';
import type { FromServer, ToServer } from './http/server-process.js';
import { percentile, row } from './http/stats.js';

const quick = process.argv.includes('--quick');
const sessions = process.argv.includes('--sessions');
const loadAtStart = loadavg()[0] ?? 0;
const config = { concurrency: 16, rounds: quick ? 3 : 8, windowMs: quick ? 800 : 1_500, held: 500 };
const TARGET = 2;
const CLIENTS = ['palisade-2026', 'palisade-2025', 'sdk'] as const;
type Name = (typeof CLIENTS)[number];

const { child: server, ready } = await Child.fork<ToServer, FromServer>('server-process.ts', [
  'palisade',
  JSON.stringify({ maxConnections: 4096, readTimeoutMs: 30_000, sessions }),
]);
if (ready.type !== 'ready') throw new Error('server not ready');
const url = `http://127.0.0.1:${ready.port}/mcp`;

const clients = new Map<Name, { child: Child<ToClient, FromClient>; revision: string }>();
for (const name of CLIENTS) {
  const { child, ready: hello } = await Child.fork<ToClient, FromClient>('../client/client-process.ts', [
    name,
    url,
  ]);
  clients.set(name, { child, revision: hello.type === 'ready' ? hello.revision : '?' });
}

async function ask<T extends FromClient['type']>(
  name: Name,
  message: ToClient,
  type: T,
): Promise<Extract<FromClient, { type: T }>> {
  const entry = clients.get(name) as { child: Child<ToClient, FromClient> };
  const answer = await entry.child.ask(message);
  if (answer.type !== type) throw new Error(`${name}: expected ${type}, got ${answer.type}`);
  return answer as Extract<FromClient, { type: T }>;
}

// Warm every client (JIT, connections) before anything is counted.
for (const name of CLIENTS)
  await ask(name, { type: 'run', concurrency: config.concurrency, ms: 1_000 }, 'ran');

const rates = new Map<Name, number[]>(CLIENTS.map((name) => [name, []]));
const cpu = new Map<Name, number[]>(CLIENTS.map((name) => [name, []]));
const ratios = new Map<Name, number[]>(CLIENTS.map((name) => [name, []]));
for (let round = 0; round < config.rounds; round++) {
  const order = [...CLIENTS.slice(round % CLIENTS.length), ...CLIENTS.slice(0, round % CLIENTS.length)];
  const thisRound = new Map<Name, number>();
  for (const name of order) {
    const ran = await ask(name, { type: 'run', concurrency: config.concurrency, ms: config.windowMs }, 'ran');
    if (ran.errors > 0) throw new Error(`${name}: ${ran.errors} calls failed`);
    thisRound.set(name, ran.calls / ran.seconds);
    rates.get(name)?.push(ran.calls / ran.seconds);
    cpu.get(name)?.push(ran.cpuMicros / Math.max(1, ran.calls));
  }
  for (const name of CLIENTS)
    ratios.get(name)?.push((thisRound.get(name) ?? 0) / (thisRound.get('sdk') ?? 1));
}

const memory = new Map<Name, number>();
// The server's gate counts every call that ever entered it.
let heldOffset = 0;
for (const name of CLIENTS) {
  const before = await ask(name, { type: 'measure' }, 'measured');
  await ask(name, { type: 'hold', n: config.held }, 'holding');
  for (;;) {
    const state = await server.ask({ type: 'memory' });
    if (state.type === 'memory' && state.entered >= heldOffset + config.held) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const after = await ask(name, { type: 'measure' }, 'measured');
  memory.set(name, (after.bytes - before.bytes) / config.held);
  await server.ask({ type: 'release' });
  const settled = await ask(name, { type: 'settle' }, 'settled');
  if (settled.ok !== config.held) throw new Error(`${name}: ${config.held - settled.ok} held calls failed`);
  heldOffset += config.held;
}

const median = (values: readonly number[]): number => percentile(values, 50);
const widths = [16, 12, 12, 14, 16, 18];
console.log(
  `client bench, ${new Date().toISOString().slice(0, 10)}, node ${process.version}, ${config.rounds} rounds of ${config.windowMs} ms, ${config.concurrency} in flight, server sessions ${sessions ? 'on' : 'off'}, load average ${loadAtStart.toFixed(1)} at the start, ${(loadavg()[0] ?? 0).toFixed(1)} at the end`,
);
console.log(row(['client', 'revision', 'calls/s', 'x SDK (med)', 'CPU µs/call', 'bytes/in-flight'], widths));
for (const name of CLIENTS) {
  const entry = clients.get(name) as { revision: string };
  console.log(
    row(
      [
        name,
        entry.revision,
        median(rates.get(name) ?? []).toFixed(0),
        median(ratios.get(name) ?? []).toFixed(2),
        median(cpu.get(name) ?? []).toFixed(0),
        (memory.get(name) ?? 0).toFixed(0),
      ],
      widths,
    ),
  );
}
let ok = true;
for (const name of ['palisade-2026', 'palisade-2025'] as const) {
  const ratio = median(ratios.get(name) ?? []);
  const pass = ratio >= TARGET;
  ok &&= pass;
  console.log(
    `${pass ? 'PASS' : 'FAIL'} ${name}: ${ratio.toFixed(2)}x the SDK client's calls per second (target ${TARGET}x)`,
  );
}

for (const name of CLIENTS) await ask(name, { type: 'close' }, 'closed');
await server.ask({ type: 'close' });
process.exitCode = ok ? 0 : 1;
