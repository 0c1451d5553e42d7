/**
 * Makes the suite speak an older revision. The suite's client (the official SDK 1.x, bundled)
 * always offers its latest, 2025-11-25, in `initialize`; `--spec-version` only chooses which
 * scenarios run and which schema its `wire-schema-valid` check reads. So a 2025-06-18 leg run
 * straight against the fixture would negotiate 2025-11-25 and hold those answers to the
 * 2025-06-18 schema, testing nothing of 2025-06-18 itself.
 *
 * This forwarder sits between the suite and the fixture on loopback and changes one thing: the
 * `protocolVersion` an `initialize` offers becomes the leg's revision. The fixture then answers
 * with that revision, the suite's client accepts it (it knows every revision from 2024-11-05 on)
 * and names it in `MCP-Protocol-Version` on every later POST, and everything after is the older
 * revision's wire. Every other byte, header (Host and Origin included) and status passes as it
 * is, streamed in both directions.
 */
import { createServer, request, type Server } from 'node:http';

/** What went through: the versions `initialize` was answered with, and those POSTs named. */
export interface WireSeen {
  readonly answered: ReadonlyMap<string, number>;
  readonly headers: ReadonlyMap<string, number>;
}

export interface PinProxy {
  readonly url: string;
  readonly seen: WireSeen;
  close(): Promise<void>;
}

function count(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/** The `protocolVersion` of an initialize answer, JSON or one SSE event, else `(none)`. */
function answeredVersion(body: string): string {
  const json = body.trimStart().startsWith('{') ? body : /^data: ?(.*)$/m.exec(body)?.[1];
  try {
    const version = (JSON.parse(json ?? '') as { result?: { protocolVersion?: unknown } }).result
      ?.protocolVersion;
    return typeof version === 'string' ? version : '(none)';
  } catch {
    return '(none)';
  }
}

/** A body is read whole only to look for `initialize`: the suite's bodies are small, this caps them. */
const MAX_REWRITTEN_BODY_BYTES = 1_048_576;

function pinned(body: Buffer, revision: string): Buffer | undefined {
  if (body.length === 0 || body.length > MAX_REWRITTEN_BODY_BYTES) return undefined;
  let message: unknown;
  try {
    message = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const { method, params } = message as { method?: unknown; params?: unknown };
  if (method !== 'initialize' || typeof params !== 'object' || params === null) return undefined;
  return Buffer.from(
    JSON.stringify({ ...message, params: { ...params, protocolVersion: revision } }),
    'utf8',
  );
}

/** Starts the forwarder in front of `target` (the fixture's MCP URL); resolves with its own. */
export function startPinProxy(target: string, revision: string): Promise<PinProxy> {
  const upstream = new URL(target);
  const answered = new Map<string, number>();
  const named = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const received = Buffer.concat(chunks);
      const rewritten = pinned(received, revision);
      const body = rewritten ?? received;
      const headers = { ...req.headers };
      if (headers['content-length'] !== undefined) headers['content-length'] = String(body.length);
      const version = headers['mcp-protocol-version'];
      if (req.method === 'POST' && rewritten === undefined)
        count(named, typeof version === 'string' ? version : '(none)');
      const forward = request(
        { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          if (rewritten !== undefined) {
            const seen: Buffer[] = [];
            answer.on('data', (chunk: Buffer) => seen.push(chunk));
            answer.on('end', () => count(answered, answeredVersion(Buffer.concat(seen).toString('utf8'))));
          }
          answer.pipe(res);
        },
      );
      forward.on('error', () => res.destroy());
      res.on('close', () => forward.destroy());
      forward.end(body);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') return reject(new Error('no port'));
      resolve({
        url: `http://127.0.0.1:${address.port}${upstream.pathname}`,
        seen: { answered, headers: named },
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

/** Why a pinned leg's wire was not its revision: an initialize answered otherwise, a POST naming another. */
export function wireProblems(revision: string, seen: WireSeen): string[] {
  const problems: string[] = [];
  if (seen.answered.size === 0) problems.push('no initialize went through');
  for (const [version, times] of seen.answered)
    if (version !== revision) problems.push(`${times} initialize answered ${version}, not ${revision}`);
  for (const [version, times] of seen.headers)
    if (version !== revision)
      problems.push(`${times} POSTs named MCP-Protocol-Version ${version}, not ${revision}`);
  return problems;
}

export function describeWire(seen: WireSeen): string {
  const list = (map: ReadonlyMap<string, number>): string =>
    [...map].map(([version, times]) => `${version} x${times}`).join(', ') || 'none';
  return `initialize answered ${list(seen.answered)}; MCP-Protocol-Version on later POSTs ${list(seen.headers)}`;
}
