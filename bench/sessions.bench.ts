/**
 * Sessions under load (issue 20), every figure from servers in child processes, measured in one
 * run so ratios hold on a shared machine:
 *
 *   1. cost: `tools/call` server CPU per request, sessions on against off (2025-11-25, each
 *      connection on a session of its own), and 2026-07-28 on both servers (the stateless path must
 *      not pay for sessions), in rounds that measure off and on in adjacent windows, turn about;
 *      the figure is the median of each round's on/off ratio. Target: at most 1.10x on tools/call.
 *   2. memory: heap per idle session, after 10,000 initialize + initialized, full collections.
 *   3. fan-out: time from one `notifyListChanged` to the event on each of 1,000 open GET streams.
 *   4. flood: 100,000 initialize calls against maxSessions 10,000 (503 past it), the heap at the
 *      cap and at the end, and the p99 of a legitimate session's tools/call meanwhile.
 *
 *   npm run bench:sessions                 everything, about 2 minutes
 *   npm run bench:sessions -- --quick      shorter windows, fewer sessions
 *   npm run bench:sessions -- cost memory  only the named parts (cost, memory, fanout, flood)
 */
import { connect } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Child } from './http/child.js';
import { closedLoop, type Window } from './http/load.js';
import { KeepAliveConnection } from './http/raw-client.js';
import { ECHO_TEXT, echoCall, requestBytes } from './http/requests.js';
import { percentile, row } from './http/stats.js';
import type { FromSessionServer, ToSessionServer } from './sessions/server-process.js';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const parts = args.filter((arg) => !arg.startsWith('--'));
const runs = (part: string): boolean => parts.length === 0 || parts.includes(part);
/** Sessions cost at most 10% CPU per tools/call: the median round's on/off ratio. */
const COST_TARGET = 1.1;

const config = {
  concurrency: 32,
  rounds: quick ? 15 : 41,
  windowMs: quick ? 250 : 400,
  warmupMs: quick ? 500 : 1_500,
  idleSessions: quick ? 2_000 : 10_000,
  streams: quick ? 200 : 1_000,
  floodInitializes: quick ? 20_000 : 100_000,
  floodCap: quick ? 2_000 : 10_000,
};

type ServerChild = Child<ToSessionServer, FromSessionServer>;

async function start(
  mode: 'on' | 'pair',
  maxSessions = 10_000,
): Promise<{ child: ServerChild; port: number; offPort: number | undefined }> {
  const { child, ready } = await Child.fork<ToSessionServer, FromSessionServer>(
    '../sessions/server-process.ts',
    [mode, String(maxSessions)],
  );
  if (ready.type !== 'ready') throw new Error('server not ready');
  return { child, port: ready.port, offPort: ready.offPort };
}

async function ask<T extends FromSessionServer['type']>(
  child: ServerChild,
  message: ToSessionServer,
  type: T,
): Promise<Extract<FromSessionServer, { type: T }>> {
  const answer = await child.ask(message);
  if (answer.type !== type) throw new Error(`expected ${type}, got ${answer.type}`);
  return answer as Extract<FromSessionServer, { type: T }>;
}

let failures = 0;
function verdict(ok: boolean): string {
  if (!ok) failures++;
  return ok ? 'pass' : 'FAIL';
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
});
const INITIALIZED = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });

function post(port: number, body: string, headers: Record<string, string> = {}): Buffer {
  return requestBytes(port, { body, headers: { 'MCP-Protocol-Version': '2025-11-25', ...headers } });
}

/** initialize then initialized on `connection`; the session id, or undefined when refused. */
async function openSession(connection: KeepAliveConnection, port: number): Promise<string | undefined> {
  const answer = await connection.request(post(port, INITIALIZE));
  if (answer.status !== 200) return undefined;
  const id = /\r\nmcp-session-id: *([^\r]+)/i.exec(answer.head)?.[1];
  if (id === undefined) throw new Error('initialize issued no session id');
  const done = await connection.request(post(port, INITIALIZED, { 'Mcp-Session-Id': id }));
  if (done.status !== 202) throw new Error(`initialized answered ${done.status}`);
  return id;
}

// 1. Cost ------------------------------------------------------------------------------------

/** One server and revision: a window per round, and the server's CPU per request in each. */
interface Side {
  readonly label: string;
  readonly server: 'on' | 'off';
  readonly windows: Window[];
  readonly cpuPerRequest: number[];
}

/** Sessions off against on for one revision: each round measures both, in alternating order. */
interface Pair {
  readonly revision: '2025-11-25' | '2026-07-28';
  readonly off: Side;
  readonly on: Side;
  /** Each round's CPU per request on, over off: the median of these is the figure. */
  readonly ratios: number[];
}

function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/**
 * One closed-loop window on connections kept open across windows (closedLoop opens its own): a
 * short window then measures requests, not connection set-up, so rounds can be many and short.
 */
async function keptLoop(
  connections: readonly KeepAliveConnection[],
  requests: readonly Buffer[],
  durationMs: number,
): Promise<Window> {
  const latenciesMs: number[] = [];
  let errors = 0;
  const start = performance.now();
  const stop = start + durationMs;
  await Promise.all(
    connections.map(async (connection, index) => {
      const request = requests[index] as Buffer;
      while (performance.now() < stop) {
        // A request on a connection the server closed would wait forever: say so instead.
        if (connection.socket.destroyed) throw new Error('the server closed a kept connection');
        const sent = performance.now();
        const response = await connection.request(request);
        latenciesMs.push(performance.now() - sent);
        if (response.status !== 200 || !response.body.includes(ECHO_TEXT)) errors++;
      }
    }),
  );
  return { requests: latenciesMs.length, errors, seconds: (performance.now() - start) / 1_000, latenciesMs };
}

async function cost(): Promise<void> {
  // One process serves both, sessions on at one port and off at another: two processes would be
  // scheduled apart on the shared cores, and their difference would swamp the one measured.
  const served = await start('pair');
  const { child } = served;
  const ports = { on: served.port, off: served.offPort as number };
  const side = (label: string, server: 'on' | 'off'): Side => ({
    label,
    server,
    windows: [],
    cpuPerRequest: [],
  });
  const pairs: Pair[] = [
    {
      revision: '2025-11-25',
      off: side('2025-11-25, sessions off (stateless)', 'off'),
      on: side('2025-11-25, sessions on', 'on'),
      ratios: [],
    },
    {
      revision: '2026-07-28',
      off: side('2026-07-28, sessions off', 'off'),
      on: side('2026-07-28, sessions on', 'on'),
      ratios: [],
    },
  ];
  // Every connection of the sessions-on 2025-11-25 side runs on a session of its own.
  const sessionFor = async (port: number): Promise<Record<string, string>> => {
    const connection = await KeepAliveConnection.open(port);
    const id = await openSession(connection, port);
    connection.close();
    return { 'Mcp-Session-Id': id as string };
  };
  const requests = new Map<Side, Buffer[]>();
  for (const pair of pairs) {
    const call = echoCall(pair.revision);
    for (const one of [pair.off, pair.on]) {
      const port = ports[one.server];
      const out: Buffer[] = [];
      for (let n = 0; n < config.concurrency; n++) {
        const extra = one.server === 'on' && pair.revision === '2025-11-25' ? await sessionFor(port) : {};
        out.push(requestBytes(port, { body: call.body, headers: { ...call.headers, ...extra } }));
      }
      requests.set(one, out);
    }
  }
  const connections = new Map<Side, KeepAliveConnection[]>();
  for (const [one, bytes] of requests)
    connections.set(one, await Promise.all(bytes.map(() => KeepAliveConnection.open(ports[one.server]))));
  const measure = async (one: Side): Promise<number> => {
    const before = (await ask(child, { type: 'cpu' }, 'cpu')).micros;
    const window = await keptLoop(connections.get(one)!, requests.get(one)!, config.windowMs);
    const used = (await ask(child, { type: 'cpu' }, 'cpu')).micros - before;
    one.windows.push(window);
    one.cpuPerRequest.push(used / window.requests);
    return used / window.requests;
  };
  for (const pair of pairs)
    for (const one of [pair.off, pair.on])
      await closedLoop(ports[one.server], requests.get(one)!, config.concurrency, config.warmupMs, ECHO_TEXT);
  // Adjacent windows see much the same machine: a ratio per round cancels the load other
  // processes put on the shared cores, and the median drops the rounds a burst fell into.
  for (let round = 0; round < config.rounds; round++) {
    process.stderr.write(`\r   round ${round + 1}/${config.rounds}`);
    for (const pair of pairs) {
      const order = round % 2 === 0 ? [pair.off, pair.on] : [pair.on, pair.off];
      const cpu = new Map<Side, number>();
      for (const one of order) cpu.set(one, await measure(one));
      pair.ratios.push(cpu.get(pair.on)! / cpu.get(pair.off)!);
    }
  }
  process.stderr.write('\n');
  for (const kept of connections.values()) for (const connection of kept) connection.close();
  await child.stop({ type: 'close' });

  const widths = [40, 10, 12, 10, 10, 8];
  console.log(
    `\n1. tools/call, sessions on against off, one server process: ${config.rounds} rounds of adjacent ${config.windowMs} ms windows, turn about (medians)`,
  );
  console.log(row(['', 'req/s', 'cpu µs/req', 'p50 ms', 'p99 ms', 'errors'], widths));
  for (const pair of pairs)
    for (const one of [pair.off, pair.on]) {
      const latencies = one.windows.flatMap((w) => w.latenciesMs);
      console.log(
        row(
          [
            one.label,
            median(one.windows.map((w) => w.requests / w.seconds)).toFixed(0),
            median(one.cpuPerRequest).toFixed(1),
            percentile(latencies, 50).toFixed(2),
            percentile(latencies, 99).toFixed(2),
            String(one.windows.reduce((sum, w) => sum + w.errors, 0)),
          ],
          widths,
        ),
      );
    }
  const ratioWidths = [40, 10, 16, 10, 8];
  console.log(
    `\n${row(['CPU per request, on / off', 'median', 'rounds min–max', 'target', ''], ratioWidths)}`,
  );
  for (const pair of pairs) {
    const ratio = median(pair.ratios);
    const judged = pair.revision === '2025-11-25';
    console.log(
      row(
        [
          pair.revision === '2025-11-25'
            ? '2025-11-25 tools/call (on a session)'
            : '2026-07-28 tools/call (stateless)',
          `${ratio.toFixed(2)}x`,
          `${Math.min(...pair.ratios).toFixed(2)}–${Math.max(...pair.ratios).toFixed(2)}x`,
          judged ? `≤ ${COST_TARGET.toFixed(2)}x` : '',
          judged ? verdict(ratio <= COST_TARGET) : '',
        ],
        ratioWidths,
      ),
    );
  }
}

// 2. Memory per idle session -------------------------------------------------------------------

async function memory(): Promise<void> {
  const { child, port } = await start('on', config.idleSessions + 10);
  const before = (await ask(child, { type: 'heap' }, 'heap')).bytes;
  const connections = await Promise.all(Array.from({ length: 16 }, () => KeepAliveConnection.open(port)));
  let opened = 0;
  await Promise.all(
    connections.map(async (connection) => {
      while (opened < config.idleSessions) {
        opened++;
        await openSession(connection, port);
      }
    }),
  );
  for (const connection of connections) connection.close();
  const after = (await ask(child, { type: 'heap' }, 'heap')).bytes;
  await child.stop({ type: 'close' });
  console.log(
    `\n2. memory: ${opened.toLocaleString('en-US')} idle sessions hold ${((after - before) / 1_048_576).toFixed(1)} MiB of heap: ${((after - before) / opened).toFixed(0)} bytes per idle session`,
  );
}

// 3. Fan-out ---------------------------------------------------------------------------------

/** A GET stream on a raw socket: settles `heard` at the first list_changed event after priming. */
function openStream(port: number, id: string): Promise<{ heard: () => Promise<number>; close: () => void }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let primed = false;
    let onHeard: ((at: number) => void) | undefined;
    const heardAt = new Promise<number>((settle) => {
      onHeard = settle;
    });
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (!primed && text.includes('\r\n\r\n')) {
        if (!text.startsWith('HTTP/1.1 200')) reject(new Error(text.slice(0, 200)));
        primed = true;
        resolve({ heard: () => heardAt, close: () => socket.destroy() });
      }
      if (text.includes('list_changed')) onHeard?.(performance.now());
    });
    socket.on('error', reject);
    socket.write(
      `GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\nMcp-Session-Id: ${id}\r\n\r\n`,
    );
  });
}

async function fanout(): Promise<void> {
  const { child, port } = await start('on');
  const connection = await KeepAliveConnection.open(port);
  const streams = [];
  for (let n = 0; n < config.streams; n++) {
    const id = await openSession(connection, port);
    streams.push(await openStream(port, id as string));
  }
  connection.close();
  // Each stream settles on its first list_changed: one announcement is measured.
  const heard = streams.map((stream) => stream.heard());
  const sent = performance.now();
  await ask(child, { type: 'announce' }, 'announced');
  const took = Math.max(...(await Promise.all(heard))) - sent;
  for (const stream of streams) stream.close();
  await child.stop({ type: 'close' });
  console.log(
    `\n3. fan-out: one tools list_changed reached all ${config.streams.toLocaleString('en-US')} open GET streams in ${took.toFixed(1)} ms`,
  );
}

// 4. Flood -----------------------------------------------------------------------------------

async function flood(): Promise<void> {
  const { child, port } = await start('on', config.floodCap);
  const legit = await KeepAliveConnection.open(port);
  const legitId = await openSession(legit, port);
  const call = echoCall('2025-11-25');
  const legitBytes = requestBytes(port, {
    body: call.body,
    headers: { ...call.headers, 'Mcp-Session-Id': legitId as string },
  });
  const latencies: number[] = [];
  let legitErrors = 0;
  let flooding = true;
  const probe = (async () => {
    while (flooding) {
      const sent = performance.now();
      const answer = await legit.request(legitBytes);
      latencies.push(performance.now() - sent);
      if (answer.status !== 200) legitErrors++;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const connections = await Promise.all(Array.from({ length: 32 }, () => KeepAliveConnection.open(port)));
  const statuses = new Map<number, number>();
  let sent = 0;
  let heapAtCap: number | undefined;
  const initialize = post(port, INITIALIZE);
  await Promise.all(
    connections.map(async (connection) => {
      while (sent < config.floodInitializes) {
        sent++;
        const answer = await connection.request(initialize);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        if (heapAtCap === undefined && answer.status === 503) {
          heapAtCap = 0;
          heapAtCap = (await ask(child, { type: 'heap' }, 'heap')).bytes;
        }
      }
    }),
  );
  flooding = false;
  await probe;
  const heapAtEnd = (await ask(child, { type: 'heap' }, 'heap')).bytes;
  for (const connection of connections) connection.close();
  legit.close();
  await child.stop({ type: 'close' });
  const counts = [...statuses]
    .map(([status, count]) => `${count.toLocaleString('en-US')} × ${status}`)
    .join(', ');
  const growth = heapAtEnd - (heapAtCap ?? heapAtEnd);
  console.log(
    `\n4. flood: ${sent.toLocaleString('en-US')} initialize against maxSessions ${config.floodCap.toLocaleString('en-US')}: ${counts}`,
  );
  console.log(
    `   heap at the cap ${((heapAtCap ?? 0) / 1_048_576).toFixed(1)} MiB, at the end ${(heapAtEnd / 1_048_576).toFixed(1)} MiB (${growth >= 0 ? '+' : ''}${(growth / 1_048_576).toFixed(1)} MiB after the cap): ${verdict(growth < 8 * 1_048_576)}`,
  );
  console.log(
    `   a legitimate session meanwhile: ${latencies.length} calls, p50 ${percentile(latencies, 50).toFixed(2)} ms, p99 ${percentile(latencies, 99).toFixed(2)} ms, ${legitErrors} errors: ${verdict(legitErrors === 0 && (statuses.get(503) ?? 0) > 0)}`,
  );
}

console.log(
  `sessions bench, ${new Date().toISOString()}, Node ${process.version}${quick ? ', --quick' : ''}`,
);
if (runs('cost')) await cost();
if (runs('memory')) await memory();
if (runs('fanout')) await fanout();
if (runs('flood')) await flood();
process.exit(failures === 0 ? 0 : 1);
