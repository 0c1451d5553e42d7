/**
 * `npm run soak`: the demo catalog under a steady mix of valid calls and every refused vector, over
 * HTTP/1.1 and HTTP/2 (prior knowledge) on loopback, for a bounded time. At the end it checks:
 * every valid call was answered correctly, every bad one refused with its status, code and message,
 * the server's heap and RSS after warm-up stayed within the bounds below, and the server held no
 * more file descriptors once the load was gone than before it began. Prints a table; exits 1 on
 * any failure.
 *
 *   npm run soak -- [--seconds N] [--rate R]      defaults: 60 s, 200 requests/s
 *
 * The server is `serve()` with the demo's catalog and collector in a child process (server.ts),
 * so its memory is read over IPC after a full collection and its descriptors from /proc/<pid>/fd.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { type ClientHttp2Session, connect as connectH2 } from 'node:http2';
import { connect as connectTcp } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { FromServer, ToServer } from './server.js';

const ALLOWED_ORIGIN = 'http://allowed.example';
const MAX_MESSAGE_BYTES = 1_048_576;
/** The read deadline the server runs with: a slow body is cut after this. */
const READ_TIMEOUT_MS = 2_000;
/** Growth allowed from the end of warm-up to the end of the run, after a full collection. */
const HEAP_BOUND_BYTES = 8 * 1_048_576;
const RSS_BOUND_BYTES = 48 * 1_048_576;
const MAX_IN_FLIGHT = 512;

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '60' }, rate: { type: 'string', default: '200' } },
  strict: true,
});
const seconds = Number(values.seconds);
const rate = Number(values.rate);
if (!Number.isInteger(seconds) || seconds < 5 || !Number.isInteger(rate) || rate < 1 || rate > 5_000) {
  process.stderr.write('soak: --seconds must be an integer of at least 5; --rate from 1 to 5000\n');
  process.exit(2);
}
const warmupMs = Math.min(10_000, Math.round((seconds * 1000) / 6));

type Json = Record<string, unknown>;
type Proto = 'h1' | 'h2';

interface Answer {
  readonly status: number;
  readonly body: string;
}

interface Request {
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** Default true; false sends neither Content-Length nor a body size (HTTP/1.1: chunked). */
  readonly length?: boolean;
  /** HTTP/2: declare this Content-Length, send `body`, and leave the stream open (a slow or short body). */
  readonly declared?: number;
  /** HTTP/2: on a session of its own, destroyed once answered (a megabyte must not queue behind others). */
  readonly fresh?: boolean;
}

// --- the server -------------------------------------------------------------------------------

const child = fork(
  fileURLToPath(new URL('./server.ts', import.meta.url)),
  [String(READ_TIMEOUT_MS), ALLOWED_ORIGIN],
  {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  },
);
const ready = (await once(child, 'message')) as [FromServer];
if (ready[0].type !== 'ready') throw new Error('soak: the server did not start');
const port = ready[0].port;
const pid = child.pid!;

async function memory(): Promise<{ rss: number; heapUsed: number }> {
  const answer = new Promise<FromServer>((resolve) => child.once('message', resolve));
  child.send({ type: 'memory' } satisfies ToServer);
  const reply = await answer;
  if (reply.type !== 'memory') throw new Error(`soak: expected memory, got ${reply.type}`);
  return reply;
}

function fds(): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

// --- the requests -----------------------------------------------------------------------------

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
let nextId = 1;

/** A 2026-07-28 request with the headers that must match its body. */
function mcp(method: string, params: Json = {}, name = params['name']): Request {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
  };
  if (typeof name === 'string') headers['mcp-name'] = name;
  const body = JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: META } });
  return { headers, body };
}

function withHeaders(base: Request, headers: Record<string, string>): Request {
  return { ...base, headers: { ...base.headers, ...headers } };
}

function parse(body: string): Json {
  return JSON.parse(body) as Json;
}

// --- transports -------------------------------------------------------------------------------

const agent = new Agent({ keepAlive: true, maxSockets: 32 });

function h1(req: Request): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = Buffer.from(req.body ?? '', 'utf8');
    const headers: Record<string, string | number> = { ...req.headers };
    if (req.length !== false && req.body !== undefined) headers['content-length'] = body.length;
    const outgoing = request(
      { host: '127.0.0.1', port, path: '/mcp', method: req.method ?? 'POST', headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.setTimeout(10_000, () => outgoing.destroy(new Error('no answer within 10 s')));
    if (req.body !== undefined) outgoing.write(body);
    outgoing.end();
  });
}

let session: ClientHttp2Session | undefined;
function h2Session(): ClientHttp2Session {
  if (session === undefined || session.closed || session.destroyed) {
    const fresh = connectH2(`http://127.0.0.1:${port}`);
    fresh.on('error', () => {});
    fresh.on('close', () => {
      if (session === fresh) session = undefined;
    });
    session = fresh;
  }
  return session;
}

function h2(req: Request): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = Buffer.from(req.body ?? '', 'utf8');
    const { host, ...rest } = req.headers ?? {};
    const headers: Record<string, string | number> = {
      ':method': req.method ?? 'POST',
      ':path': '/mcp',
      ...(host === undefined ? {} : { ':authority': host }),
      ...rest,
    };
    if (req.length !== false && req.body !== undefined)
      headers['content-length'] = req.declared ?? body.length;
    // A stream left open (a slow or refused body) goes on a session of its own, as an abuser's would,
    // so what the server does to that session never lands on the valid calls sharing the other.
    const alone = req.fresh === true || req.declared !== undefined;
    const own = alone ? connectH2(`http://127.0.0.1:${port}`) : undefined;
    own?.on('error', () => {});
    const stream = (own ?? h2Session()).request(headers, { endStream: false });
    stream.on('close', () => own?.destroy());
    let status = 0;
    const chunks: Buffer[] = [];
    stream.on('response', (head) => {
      status = Number(head[':status']);
    });
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve({ status, body: Buffer.concat(chunks).toString() }));
    stream.on('error', (error) =>
      status === 0 ? reject(error) : resolve({ status, body: Buffer.concat(chunks).toString() }),
    );
    stream.setTimeout(10_000, () => stream.close());
    if (req.body !== undefined) stream.write(body);
    if (req.declared === undefined) stream.end();
    else stream.on('end', () => stream.close());
  });
}

/**
 * Exact bytes on a fresh HTTP/1.1 connection, for what a well-behaved client cannot send. `hold`
 * keeps the connection open after the bytes (a slow body); the answer is read until the server
 * closes, or until a whole response (by Content-Length) has come.
 */
function raw(bytes: Buffer, halfClose: boolean): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connectTcp(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      socket.destroy();
      const text = Buffer.concat(chunks).toString('latin1');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      const split = text.indexOf('\r\n\r\n');
      resolve({ status, body: split === -1 ? '' : Buffer.from(text.slice(split + 4), 'latin1').toString() });
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const text = Buffer.concat(chunks).toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, split))?.[1];
      if (
        split !== -1 &&
        length !== undefined &&
        Buffer.byteLength(text, 'latin1') >= split + 4 + Number(length)
      )
        finish();
    });
    socket.on('end', finish);
    socket.on('close', finish);
    socket.on('error', (error) => (chunks.length > 0 ? finish() : reject(error)));
    socket.setTimeout(10_000, () => {
      socket.destroy();
      reject(new Error('no answer within 10 s'));
    });
    socket.write(bytes);
    if (halfClose) socket.end();
  });
}

function head(lines: string[], length: number | undefined): string {
  const all = [
    'POST /mcp HTTP/1.1',
    `Host: 127.0.0.1:${port}`,
    'Content-Type: application/json',
    'Accept: application/json, text/event-stream',
    'MCP-Protocol-Version: 2026-07-28',
    ...(length === undefined ? [] : [`Content-Length: ${length}`]),
    ...lines,
  ];
  return `${all.join('\r\n')}\r\n\r\n`;
}

// --- the vectors ------------------------------------------------------------------------------

interface Vector {
  readonly kind: string;
  readonly valid: boolean;
  readonly protos: readonly Proto[];
  /** Sends one request over `proto` and says what is wrong with the answer, or undefined. */
  readonly run: (proto: Proto) => Promise<string | undefined>;
}

const send = (proto: Proto, req: Request): Promise<Answer> => (proto === 'h1' ? h1(req) : h2(req));

/** A refusal: this status, and a JSON-RPC error with this code and message. */
function refused(status: number, code: number, message: string) {
  return (answer: Answer): string | undefined => {
    if (answer.status !== status) return `status ${answer.status}, expected ${status}`;
    let error: Json | undefined;
    try {
      error = parse(answer.body)['error'] as Json | undefined;
    } catch {
      return `body is not JSON: ${answer.body.slice(0, 80)}`;
    }
    if (error?.['code'] !== code || error['message'] !== message) {
      return `error ${JSON.stringify(error).slice(0, 120)}, expected ${code} ${message}`;
    }
    return undefined;
  };
}

function result(check: (value: Json) => boolean) {
  return (answer: Answer): string | undefined => {
    if (answer.status !== 200) return `status ${answer.status}: ${answer.body.slice(0, 120)}`;
    const value = parse(answer.body)['result'] as Json | undefined;
    return value !== undefined && check(value) ? undefined : `wrong result ${answer.body.slice(0, 120)}`;
  };
}

const BOTH: readonly Proto[] = ['h1', 'h2'];
const H1: readonly Proto[] = ['h1'];
const H2: readonly Proto[] = ['h2'];

function deep(levels: number): string {
  return `${'['.repeat(levels - 3)}0${']'.repeat(levels - 3)}`;
}

const VECTORS: readonly Vector[] = [
  {
    kind: 'tools/call echo',
    valid: true,
    protos: BOTH,
    run: async (proto) => {
      const text = `soak ${nextId} ${'é'.repeat(nextId % 7)}`;
      const answer = await send(proto, mcp('tools/call', { name: 'echo', arguments: { text } }));
      return result((r) => (r['content'] as Json[])[0]?.['text'] === text)(answer);
    },
  },
  {
    kind: 'tools/call add',
    valid: true,
    protos: BOTH,
    run: async (proto) => {
      const a = nextId % 1000;
      const b = -(nextId % 333);
      const answer = await send(proto, mcp('tools/call', { name: 'add', arguments: { a, b } }));
      return result((r) => (r['structuredContent'] as Json)?.['sum'] === a + b)(answer);
    },
  },
  {
    kind: 'tools/list',
    valid: true,
    protos: BOTH,
    run: async (proto) =>
      result((r) => (r['tools'] as Json[]).some((tool) => tool['name'] === 'echo'))(
        // A browser page on the one allowed origin is served like any other client.
        await send(proto, withHeaders(mcp('tools/list'), { origin: ALLOWED_ORIGIN })),
      ),
  },
  {
    kind: 'resources/read',
    valid: true,
    protos: BOTH,
    run: async (proto) =>
      result((r) => (r['contents'] as Json[])[0]?.['uri'] === 'demo://readme')(
        await send(proto, mcp('resources/read', { uri: 'demo://readme' }, 'demo://readme')),
      ),
  },
  {
    kind: '413 oversized body',
    valid: false,
    protos: BOTH,
    run: async (proto) =>
      refused(
        413,
        -32600,
        `Invalid request: message exceeds ${MAX_MESSAGE_BYTES} bytes`,
      )(
        proto === 'h1'
          ? await raw(Buffer.from(`${head([], MAX_MESSAGE_BYTES + 1)}{"jsonrpc":`), false)
          : await h2({ ...mcp('tools/list'), declared: MAX_MESSAGE_BYTES + 1 }),
      ),
  },
  {
    kind: '400 nesting 65 deep',
    valid: false,
    protos: BOTH,
    run: async (proto) => {
      const req = mcp('tools/call', { name: 'echo', arguments: { text: 'x' } });
      const body = req.body!.replace('"text":"x"', `"text":"x","deep":${deep(65)}`);
      return refused(
        400,
        -32600,
        'Invalid request: message nests deeper than 64 levels',
      )(await send(proto, { ...req, body }));
    },
  },
  {
    kind: '400 repeated key',
    valid: false,
    protos: BOTH,
    run: async (proto) => {
      const req = mcp('tools/call', { name: 'echo', arguments: { text: 'x' } });
      const body = req.body!.replace('"text":"x"', '"text":"x","text":"y"');
      return refused(
        400,
        -32600,
        'Invalid request: message repeats the key "text"',
      )(await send(proto, { ...req, body }));
    },
  },
  {
    kind: '421 bad Host',
    valid: false,
    protos: BOTH,
    run: async (proto) =>
      refused(
        421,
        -32600,
        'Invalid request: Host not allowed',
      )(await send(proto, withHeaders(mcp('tools/list'), { host: `evil.example:${port}` }))),
  },
  {
    kind: '403 bad Origin',
    valid: false,
    protos: BOTH,
    run: async (proto) =>
      refused(
        403,
        -32600,
        'Invalid request: Origin not allowed',
      )(await send(proto, withHeaders(mcp('tools/list'), { origin: 'http://evil.example' }))),
  },
  {
    kind: '405 GET',
    valid: false,
    protos: BOTH,
    run: async (proto) =>
      refused(
        405,
        -32600,
        'Invalid request: only POST is served here',
      )(await send(proto, { method: 'GET', headers: { accept: 'application/json, text/event-stream' } })),
  },
  {
    kind: '406 Accept',
    valid: false,
    protos: BOTH,
    run: async (proto) =>
      refused(
        406,
        -32600,
        'Invalid request: Accept must admit application/json',
      )(await send(proto, withHeaders(mcp('tools/list'), { accept: 'text/html' }))),
  },
  {
    kind: '415 Content-Type',
    valid: false,
    protos: BOTH,
    run: async (proto) =>
      refused(
        415,
        -32600,
        'Invalid request: Content-Type must be application/json',
      )(await send(proto, withHeaders(mcp('tools/list'), { 'content-type': 'text/plain' }))),
  },
  {
    kind: '411 chunked',
    valid: false,
    protos: H1,
    run: async () =>
      refused(
        411,
        -32600,
        'Invalid request: Transfer-Encoding is not accepted; send Content-Length',
      )(await send('h1', { ...mcp('tools/list'), length: false })),
  },
  {
    // HTTP/2 needs no Content-Length (END_STREAM ends the body), so the reader counts what comes.
    kind: '413 counted, no length',
    valid: false,
    protos: H2,
    run: async () => {
      const req = mcp('tools/call', { name: 'echo', arguments: { text: 'x' } });
      const body = req.body!.replace('"text":"x"', `"text":"${'x'.repeat(MAX_MESSAGE_BYTES)}"`);
      return refused(
        413,
        -32600,
        `Invalid request: message exceeds ${MAX_MESSAGE_BYTES} bytes`,
      )(await send('h2', { ...req, body, length: false }));
    },
  },
  {
    kind: '400 -32020 header mismatch',
    valid: false,
    protos: BOTH,
    run: async (proto) =>
      refused(
        400,
        -32020,
        'Header mismatch: Mcp-Name does not match the body',
      )(await send(proto, mcp('tools/call', { name: 'echo', arguments: { text: 'x' } }, 'add'))),
  },
  {
    kind: '404 unknown method',
    valid: false,
    protos: BOTH,
    run: async (proto) => refused(404, -32601, 'Method not found')(await send(proto, mcp('tools/unknown'))),
  },
  {
    kind: '408 slow body',
    valid: false,
    protos: BOTH,
    run: async (proto) =>
      refused(
        408,
        -32600,
        'Invalid request: the body did not arrive within the read deadline',
      )(
        proto === 'h1'
          ? await raw(Buffer.from(`${head([], 100)}{"jsonrpc":"2.0",`), false)
          : await h2({ ...mcp('tools/list'), body: '{"jsonrpc":"2.0",', declared: 100 }),
      ),
  },
  {
    kind: '400 truncated JSON',
    valid: false,
    protos: BOTH,
    run: async (proto) => {
      const req = mcp('tools/list');
      return refused(
        400,
        -32700,
        'Parse error: message is not valid JSON',
      )(await send(proto, { ...req, body: req.body!.slice(0, 30) }));
    },
  },
  {
    kind: '400 garbage request line',
    valid: false,
    protos: H1,
    run: async () =>
      refused(
        400,
        -32600,
        'Invalid request: malformed HTTP request',
      )(await raw(Buffer.from('GARBAGE /\x01 nonsense\r\n\r\n', 'latin1'), false)),
  },
  {
    kind: '400 two Content-Lengths',
    valid: false,
    protos: H1,
    run: async () =>
      refused(
        400,
        -32600,
        'Invalid request: malformed HTTP request',
      )(await raw(Buffer.from(`${head(['Content-Length: 6'], 5)}hello`), false)),
  },
  {
    kind: 'TLS/binary bytes: closed',
    valid: false,
    protos: H1,
    run: async () => {
      // Neither HTTP/1.1 nor the HTTP/2 preface (a TLS ClientHello on a plain port): closed unanswered.
      const answer = await raw(
        Buffer.from([0x16, 0x03, 0x01, 0x00, 0x05, 0x68, 0x65, 0x6c, 0x6c, 0x6f]),
        false,
      );
      return answer.status === 0 && answer.body === ''
        ? undefined
        : `status ${answer.status}, expected a close`;
    },
  },
  {
    kind: 'truncated body, then FIN',
    valid: false,
    protos: H1,
    run: async () => {
      // The client is gone before the body is whole: nothing is answered to nobody, and nothing hangs.
      const answer = await raw(Buffer.from(`${head([], 100)}{"jsonrpc":"2.0",`), true);
      return answer.status === 0 || answer.status === 400 ? undefined : `status ${answer.status}`;
    },
  },
];

// --- the run ----------------------------------------------------------------------------------

interface Tally {
  sent: number;
  passed: number;
  failed: number;
  errors: number;
  firstProblem?: string;
  latencies: number[];
}
const tallies = new Map<string, Tally>();
const schedule: Array<{ vector: Vector; proto: Proto }> = [];
for (const vector of VECTORS) {
  for (const proto of vector.protos) {
    // Valid calls are half the traffic: each valid vector counts thrice in the cycle.
    for (let i = 0; i < (vector.valid ? 3 : 1); i++) schedule.push({ vector, proto });
    tallies.set(`${vector.kind}|${proto}`, { sent: 0, passed: 0, failed: 0, errors: 0, latencies: [] });
  }
}

let inFlight = 0;
let skipped = 0;
const pending = new Set<Promise<void>>();

function fire(vector: Vector, proto: Proto): void {
  if (inFlight >= MAX_IN_FLIGHT) {
    skipped += 1;
    return;
  }
  const tally = tallies.get(`${vector.kind}|${proto}`)!;
  tally.sent += 1;
  inFlight += 1;
  const started = performance.now();
  const task = vector
    .run(proto)
    .then(
      (problem) => {
        if (problem === undefined) tally.passed += 1;
        else {
          tally.failed += 1;
          tally.firstProblem ??= problem;
        }
      },
      (error: unknown) => {
        tally.errors += 1;
        tally.firstProblem ??= error instanceof Error ? error.message : String(error);
      },
    )
    .finally(() => {
      tally.latencies.push(performance.now() - started);
      inFlight -= 1;
      pending.delete(task);
    });
  pending.add(task);
}

const fdsBefore = fds();
const samples: Array<{ at: number; rss: number; heapUsed: number }> = [];
const memoryAtStart = await memory();
samples.push({ at: 0, ...memoryAtStart });
process.stdout.write(
  `soak: ${seconds} s at ${rate} requests/s against the demo on 127.0.0.1:${port} (pid ${pid}), ` +
    `${VECTORS.length} kinds over HTTP/1.1 and HTTP/2, warm-up ${warmupMs / 1000} s, read deadline ${READ_TIMEOUT_MS} ms\n`,
);

const startedAt = performance.now();
const intervalMs = 1000 / rate;
let fired = 0;
let warm: { rss: number; heapUsed: number } | undefined;
let nextSample = 5_000;
while (performance.now() - startedAt < seconds * 1000) {
  const elapsed = performance.now() - startedAt;
  // Open loop: fire what the clock says is due, so a slow answer never slows the rate.
  while (fired < Math.floor(elapsed / intervalMs)) {
    const { vector, proto } = schedule[fired % schedule.length]!;
    fire(vector, proto);
    fired += 1;
  }
  if (warm === undefined && elapsed >= warmupMs) {
    warm = await memory();
    samples.push({ at: elapsed, ...warm });
  }
  if (elapsed >= nextSample) {
    samples.push({ at: elapsed, ...(await memory()) });
    nextSample += 5_000;
  }
  await new Promise((resolve) => setTimeout(resolve, Math.max(1, Math.min(intervalMs, 10))));
}
await Promise.all(pending);
agent.destroy();
// Destroyed, not closed: a graceful close would wait on any stream the server stopped reading.
session?.destroy();
// Let the server see every close before counting its descriptors.
let fdsAfter = fds();
for (let waited = 0; fdsAfter > fdsBefore && waited < 10_000; waited += 250) {
  await new Promise((resolve) => setTimeout(resolve, 250));
  fdsAfter = fds();
}
const memoryAtEnd = await memory();
samples.push({ at: performance.now() - startedAt, ...memoryAtEnd });
child.send({ type: 'close' } satisfies ToServer);
await once(child, 'exit');

// --- the report -------------------------------------------------------------------------------

const mib = (bytes: number): string => `${(bytes / 1_048_576).toFixed(1)} MiB`;
function p99(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0
    ? '-'
    : `${sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]!.toFixed(1)}`;
}
let failures = 0;
const pad = (cells: string[], widths: number[]): string =>
  cells.map((cell, i) => (i < widths.length ? cell.padEnd(widths[i]!) : cell)).join(' ');
const widths = [28, 5, 7, 7, 7, 8];
process.stdout.write(
  `\n${pad(['kind', 'proto', 'sent', 'passed', 'failed', 'p99 ms', 'first problem'], widths)}\n`,
);
let totalValid = 0;
let totalBad = 0;
for (const vector of VECTORS) {
  for (const proto of vector.protos) {
    const tally = tallies.get(`${vector.kind}|${proto}`)!;
    const bad = tally.failed + tally.errors;
    if (bad > 0 || tally.sent === 0) failures += 1;
    if (vector.valid) totalValid += tally.sent;
    else totalBad += tally.sent;
    process.stdout.write(
      `${pad(
        [
          vector.kind,
          proto,
          String(tally.sent),
          String(tally.passed),
          String(bad),
          p99(tally.latencies),
          tally.firstProblem ?? '',
        ],
        widths,
      )}\n`,
    );
  }
}

const heapGrowth = memoryAtEnd.heapUsed - warm!.heapUsed;
const rssGrowth = memoryAtEnd.rss - warm!.rss;
const checks: Array<[string, boolean]> = [
  [
    `requests: ${totalValid} valid, ${totalBad} refused vectors, ${skipped} skipped (in-flight cap ${MAX_IN_FLIGHT})`,
    skipped === 0,
  ],
  [
    `heap: ${mib(memoryAtStart.heapUsed)} at start, ${mib(warm!.heapUsed)} after warm-up, ${mib(memoryAtEnd.heapUsed)} at end ` +
      `(growth ${mib(heapGrowth)}, bound ${mib(HEAP_BOUND_BYTES)})`,
    heapGrowth <= HEAP_BOUND_BYTES,
  ],
  [
    `rss: ${mib(memoryAtStart.rss)} at start, ${mib(warm!.rss)} after warm-up, ${mib(memoryAtEnd.rss)} at end ` +
      `(growth ${mib(rssGrowth)}, bound ${mib(RSS_BOUND_BYTES)})`,
    rssGrowth <= RSS_BOUND_BYTES,
  ],
  [
    `fds: ${fdsBefore} before the load, ${fdsAfter} after it (bound: no more than before)`,
    fdsAfter <= fdsBefore,
  ],
];
process.stdout.write('\n');
for (const [text, ok] of checks) {
  if (!ok) failures += 1;
  process.stdout.write(`${ok ? 'pass' : 'FAIL'}  ${text}\n`);
}
process.stdout.write(
  `memory samples (s: heap/rss MiB): ${samples.map((s) => `${(s.at / 1000).toFixed(0)}: ${(s.heapUsed / 1_048_576).toFixed(1)}/${(s.rss / 1_048_576).toFixed(0)}`).join(', ')}\n`,
);
process.stdout.write(`\nsoak: ${failures === 0 ? 'all held' : `${failures} failure(s)`}\n`);
process.exit(failures === 0 ? 0 : 1);
