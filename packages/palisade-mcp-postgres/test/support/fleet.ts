/**
 * The multi-process tests' tools: spawn fixture server processes (fixtures/shared-server.mjs)
 * sharing one PostgreSQL, and speak MCP to any of them (or to a load balancer in front) over
 * real HTTP with fetch.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const FIXTURE = fileURLToPath(new URL('../fixtures/shared-server.mjs', import.meta.url));

export interface ServerProcess {
  readonly label: string;
  readonly port: number;
  readonly pid: number;
  readonly child: ChildProcess;
  /** Resolves once the process has exited. */
  readonly exited: Promise<void>;
  stop(): Promise<void>;
}

export async function spawnServer(
  label: string,
  env: {
    PG_URL?: string;
    PG_SCHEMA?: string;
    PORT?: string;
    WORKERS?: string;
    MEMORY?: string;
    MAX_CONNECTIONS?: string;
  },
): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--expose-gc', FIXTURE], {
    env: { ...process.env, ...env, LABEL: label },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-4_000);
  });
  const ready = await new Promise<{ ready: number; pid: number }>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => reject(new Error(`${label} did not start within 60 s: ${errors}`)),
      60_000,
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((one) => one.startsWith('{'));
      if (line !== undefined && out.includes('\n')) {
        clearTimeout(timer);
        resolve(JSON.parse(line) as { ready: number; pid: number });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${label} exited (${code}) before serving: ${errors}`));
    });
  });
  return {
    label,
    port: ready.ready,
    pid: ready.pid,
    child,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export type Json = Record<string, unknown>;

export const MODERN = '2026-07-28';
export const TASKS_EXTENSION = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

export interface Reply {
  readonly status: number;
  readonly headers: Headers;
  /** The JSON body, or the last JSON-RPC message of an SSE body. */
  readonly body: Json | undefined;
  /** Every SSE data message, parsed. */
  readonly events: Json[];
  readonly text: string;
}

function parseEvents(text: string): Json[] {
  return [...text.matchAll(/^data: ?(.*)$/gm)]
    .map((match) => match[1] ?? '')
    .filter((data) => data.length > 0)
    .map((data) => JSON.parse(data) as Json);
}

async function read(response: Response): Promise<Reply> {
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  let body: Json | undefined;
  let events: Json[] = [];
  if (type.startsWith('text/event-stream')) {
    events = parseEvents(text);
    body = events.filter((event) => 'id' in event && ('result' in event || 'error' in event)).at(-1);
  } else if (text.length > 0 && type.includes('json')) body = JSON.parse(text) as Json;
  return { status: response.status, headers: response.headers, body, events, text };
}

let nextId = 1;

/** A 2026-07-28 request (stateless): `_meta` carries the revision and capabilities, headers mirror the method. */
export async function modern(
  port: number,
  method: string,
  params: Json = {},
  capabilities: Json = {},
): Promise<Reply> {
  const id = nextId++;
  const body = {
    jsonrpc: '2.0',
    id,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN,
        'io.modelcontextprotocol/clientCapabilities': capabilities,
      },
    },
  };
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': MODERN,
    'mcp-method': method,
  };
  const name = params['name'] ?? params['taskId'];
  if (typeof name === 'string') headers['mcp-name'] = name;
  const response = await fetch(`http://127.0.0.1:${port}/mcp`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  });
  return await read(response);
}

/** The result of a tool call's text, or throws with what came instead. */
export function toolText(reply: Reply): string {
  const result = reply.body?.['result'] as { content?: { text?: string }[] } | undefined;
  const text = result?.content?.[0]?.text;
  if (text === undefined) throw new Error(`no tool text: ${reply.status} ${reply.text.slice(0, 300)}`);
  return text;
}

/** An open SSE response, read as it arrives. */
export interface Stream {
  readonly events: Json[];
  readonly status: number;
  readonly headers: Headers;
  /** Resolves when an event matches (or rejects after `ms`). */
  until(match: (event: Json) => boolean, ms?: number): Promise<Json>;
  /** Resolves when the server ended the response. */
  readonly ended: Promise<void>;
  close(): void;
}

export async function openStream(
  port: number,
  init: { method: string; headers: Record<string, string>; body?: string },
): Promise<Stream> {
  const controller = new AbortController();
  const response = await fetch(`http://127.0.0.1:${port}/mcp`, { ...init, signal: controller.signal });
  const events: Json[] = [];
  const waiters = new Set<() => void>();
  let buffer = '';
  const decoder = new TextDecoder();
  const ended = (async () => {
    const reader = response.body?.getReader();
    if (reader === undefined) return;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let cut = buffer.indexOf('\n\n');
        while (cut !== -1) {
          events.push(...parseEvents(buffer.slice(0, cut)));
          buffer = buffer.slice(cut + 2);
          cut = buffer.indexOf('\n\n');
        }
        for (const waiter of [...waiters]) waiter();
      }
    } catch {
      // Aborted by close(), or the connection was cut.
    } finally {
      for (const waiter of [...waiters]) waiter();
    }
  })();
  let finished = false;
  void ended.then(() => {
    finished = true;
  });
  return {
    events,
    status: response.status,
    headers: response.headers,
    ended,
    until: (match, ms = 15_000) =>
      new Promise<Json>((resolve, reject) => {
        const check = (): void => {
          const found = events.find(match);
          if (found !== undefined) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(found);
          } else if (finished) {
            waiters.delete(check);
            clearTimeout(timer);
            reject(new Error(`stream ended without the event: ${JSON.stringify(events).slice(0, 500)}`));
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out; events so far: ${JSON.stringify(events).slice(0, 500)}`));
        }, ms);
        waiters.add(check);
        check();
      }),
    close: () => controller.abort(),
  };
}

/** Opens a 2026-07-28 listen stream for tool list changes and waits for its acknowledgement. */
export async function listen(port: number): Promise<Stream> {
  const stream = await openListen(port);
  await stream.until((event) => event['method'] === 'notifications/subscriptions/acknowledged');
  return stream;
}

/** Resolves with `promise`, or rejects naming `what` once `ms` have passed: no wait in a test is unbounded. */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const lapse = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, lapse]);
  } finally {
    clearTimeout(timer);
  }
}

/** Sends a 2026-07-28 listen request for tool list changes; the stream as answered, acknowledged or not. */
export async function openListen(port: number): Promise<Stream> {
  const id = nextId++;
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'subscriptions/listen',
    params: {
      notifications: { toolsListChanged: true },
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN,
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  });
  const stream = await openStream(port, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': 'subscriptions/listen',
    },
    body,
  });
  return stream;
}
