/**
 * The contenders, each started on 127.0.0.1 port 0 with the same `echo` tool (and `hold` for the
 * memory run): a bare `node:http` JSON echo (the ceiling), Palisade `serve()`, and the official
 * SDK v2 served statelessly, for 2026-07-28 through `createMcpHandler` and for 2025-11-25 through
 * the Streamable HTTP transport with `sessionIdGenerator: undefined`, a fresh server per request;
 * with `--floor`, also the bare echo plus the wire rules alone (rules-floor.ts); with `--base=DIR`,
 * also Palisade as built in another checkout (`palisade-base`), to measure a change against the
 * code before it.
 * Palisade is imported from its build: `npm run bench:http` runs `npm run build` first.
 *
 * Each child imports only the contender it serves (palisade-server.ts, sdk-servers.ts,
 * rules-floor.ts): with the SDK's modules loaded beside it, V8's allocation-site pretenuring began
 * placing the Palisade child's per-request objects in the old generation, and every young
 * collection then took 7 to 9 ms instead of 0.7 (measured 2026-11-30, `BENCH_CHILD_FLAGS=--trace-gc`).
 */
import { once } from 'node:events';
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { ECHO_DESCRIPTION, ECHO_SCHEMA, type Gate, HOLD_DESCRIPTION, HOLD_SCHEMA } from './tools.js';

export const CONTENDERS = ['bare', 'rules', 'palisade', 'palisade-base', 'sdk-modern', 'sdk-legacy'] as const;
export type Contender = (typeof CONTENDERS)[number];

export interface Started {
  readonly port: number;
  close(): Promise<void>;
}

/** Palisade's transport refusals (408 for a cut drip, ...), counted rather than logged line by line. */
export const refusals = { count: 0 };

export interface ServerSettings {
  readonly maxConnections: number;
  /** Palisade's whole-body deadline and Node's request deadline, both set to this. */
  readonly readTimeoutMs: number;
  /**
   * `palisade`: keep sessions for the 2025 family (`serve({ sessions })`), so a 2025-11-25 client
   * meets the session id, its GET stream and SSE answers, as against a host that serves that
   * family whole. In-flight calls per session raised for the bench's 500 held calls.
   */
  readonly sessions?: boolean;
  /** `palisade-base`: the other checkout (`--base=DIR`) whose build is served. */
  readonly baseRoot?: string;
}

/** This checkout: `palisade` serves its build. */
const OWN_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export async function listen(server: Server): Promise<Started> {
  server.keepAliveTimeout = 5_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const BARE_TOOLS = [
  { name: 'echo', description: ECHO_DESCRIPTION, inputSchema: ECHO_SCHEMA },
  { name: 'hold', description: HOLD_DESCRIPTION, inputSchema: HOLD_SCHEMA },
];

/** The ceiling: read the body, JSON.parse it, write a reply of the shape the others send. */
function startBare(): Promise<Started> {
  const server = createHttpServer((req, res) => {
    readAll(req).then(
      (bytes) => {
        const message = JSON.parse(bytes.toString('utf8')) as {
          id: number;
          method: string;
          params?: { arguments?: { text?: string } };
        };
        const result =
          message.method === 'tools/list'
            ? { tools: BARE_TOOLS }
            : { content: [{ type: 'text', text: message.params?.arguments?.text ?? '' }] };
        const body = JSON.stringify({ jsonrpc: '2.0', id: message.id, result });
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      },
      () => res.destroy(),
    );
  });
  return listen(server);
}

export async function start(contender: Contender, gate: Gate, settings: ServerSettings): Promise<Started> {
  switch (contender) {
    case 'bare':
      return startBare();
    case 'rules':
      return listen((await import('./rules-floor.js')).rulesFloorServer());
    case 'palisade':
      return (await import('./palisade-server.js')).startPalisade(gate, settings, OWN_ROOT);
    case 'palisade-base':
      if (settings.baseRoot === undefined) throw new Error('palisade-base needs --base=DIR');
      return (await import('./palisade-server.js')).startPalisade(gate, settings, settings.baseRoot);
    case 'sdk-modern':
      return (await import('./sdk-servers.js')).startSdkModern(gate, settings);
    case 'sdk-legacy':
      return (await import('./sdk-servers.js')).startSdkLegacy(gate, settings);
  }
}
