/**
 * Closing a sessions host (serve().close(), or a handler's close()): sessions outlive connections
 * by design (a disconnect is not a cancel on 2025-11-25), so without it a handler, a stream or the
 * idle sweep would outlive the server. Over real sockets, and one test in a process of its own,
 * which must exit once the server closed.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { createFetchHandler } from '../../src/http/fetch/handler.js';
import type { HttpLogEvent } from '../../src/http/http-options.js';
import { createHttpHandler, type HttpHandler } from '../../src/http/node/handler.js';
import { type Serving, serve } from '../../src/http/node/serve.js';
import { SessionHost } from '../../src/http/sessions/session-host.js';
import { MemorySessionStore } from '../../src/sessions/memory-session-store.js';
import { type CheckedSessions, checkSessionsOptions } from '../../src/sessions/options.js';
import { listenFetch } from '../support/fetch-peer.js';
import { HeldStore } from '../support/held-store.js';
import { isReader, SESSION_OPTIONS, SessionClient } from '../support/session-peer.js';
import { newProbe, sessionServer } from './session-server.js';

const SERVE_OPTIONS = {
  authorize: () => ({ ok: true as const, auth: { user: 'alice' } }),
  allowedOrigins: 'any' as const,
  onLog: () => {},
  onFault: () => {},
};

let serving: Serving | undefined;
let closeHttp: (() => Promise<void>) | undefined;
afterEach(async () => {
  await serving?.close();
  serving = undefined;
  await closeHttp?.();
  closeHttp = undefined;
});

/** createHttpHandler on a node:http server the test closes itself: only handler.close() ends what it holds. */
async function handlerEndpoint(
  sessions: Record<string, unknown>,
  onLog: (event: HttpLogEvent) => void = () => {},
  probe = newProbe(),
): Promise<{ url: string; handler: HttpHandler }> {
  const handler = createHttpHandler(sessionServer(probe), {
    ...SESSION_OPTIONS,
    sessions,
    onLog,
  } as Parameters<typeof createHttpHandler>[1]);
  const http = createHttpServer(handler);
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  closeHttp = async () => {
    http.closeAllConnections();
    http.close();
    await once(http, 'close');
  };
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`, handler };
}

describe('serve().close() with sessions', () => {
  test("aborts a call running on a session: its handler's signal fires", {
    tags: ['threat-model'],
  }, async () => {
    const probe = newProbe();
    serving = await serve(sessionServer(probe), { ...SERVE_OPTIONS, sessions: {} });
    const client = new SessionClient(`${serving.url}/mcp`);
    await client.open();
    const call = client.request('tools/call', { name: 'hold', arguments: { tag: 'held' } });
    call.catch(() => {});
    await probe.started('held');
    await serving.close();
    serving = undefined;
    expect(probe.aborted).toEqual(['held']);
  });

  test('stops the idle sweep: the store is not swept after close', { tags: ['threat-model'] }, async () => {
    let sweeps = 0;
    const store = new MemorySessionStore();
    const counted = Object.assign(Object.create(store) as MemorySessionStore, {
      sweep: (now: number, idleMs: number) => {
        sweeps++;
        return store.sweep(now, idleMs);
      },
      create: store.create.bind(store),
      open: store.open.bind(store),
      update: store.update.bind(store),
      delete: store.delete.bind(store),
      size: store.size.bind(store),
    });
    // The sweep runs every quarter of idleTimeoutMs (250 ms) once a session opens.
    serving = await serve(sessionServer(), {
      ...SERVE_OPTIONS,
      sessions: { store: counted, idleTimeoutMs: 1_000 },
    });
    await new SessionClient(`${serving.url}/mcp`).open();
    await expect.poll(() => sweeps, { timeout: 5_000 }).toBeGreaterThan(0);
    await serving.close();
    serving = undefined;
    const atClose = sweeps;
    await new Promise((resolve) => setTimeout(resolve, 750));
    expect(sweeps).toBe(atClose);
  });

  test('lets the process exit: a handler waiting on a timer is aborted, so nothing holds the event loop', {
    tags: ['threat-model'],
    timeout: 30_000,
  }, async () => {
    // The child runs the sources, as this file does: a mutation run's sandbox has no build.
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      output += chunk;
    });
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.on('data', (chunk: string) => {
        output += chunk;
        const found = /port (\d+)/.exec(output);
        if (found !== null) resolve(Number(found[1]));
      });
      child.once('exit', () => reject(new Error(`the child exited early: ${output}`)));
    });
    const client = new SessionClient(`http://127.0.0.1:${port}/mcp`);
    await client.open();
    // The child closes its server once this call's handler starts waiting.
    await client.request('tools/call', { name: 'wait', arguments: {} }).catch(() => undefined);
    const exited = once(child, 'exit');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    const [code, signal] = (await exited) as [number | null, string | null];
    clearTimeout(timer);
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(output).toContain('aborted');
  });
});

/**
 * The child: a tool that waits a minute on a ref'd timer unless its signal fires, and closes the
 * server as soon as it starts waiting. It exits only if close() aborted the wait.
 */
const CHILD = `
import { setTimeout as sleep } from 'node:timers/promises';
import { createServer, defineTool } from './src/index.ts';
import { serve } from './src/http/node/serve.ts';
let serving;
const server = createServer({
  name: 'close-child',
  version: '1.0.0',
  tools: [
    defineTool({
      name: 'wait',
      inputSchema: { type: 'object' },
      handler: async (_args, ctx) => {
        setImmediate(() => void serving.close());
        try {
          await sleep(60_000, undefined, { signal: ctx.signal });
        } catch {
          process.stdout.write('aborted\\n');
        }
        return { content: [] };
      },
    }),
  ],
});
serving = await serve(server, { authorize: () => ({ ok: true }), allowedOrigins: 'any', sessions: {} });
process.stdout.write('port ' + serving.port + '\\n');
`;

describe("a handler's close()", () => {
  test("ends a session's open GET stream", { tags: ['threat-model'] }, async () => {
    const { url, handler } = await handlerEndpoint({});
    const client = new SessionClient(url);
    await client.open();
    const stream = await client.stream();
    if (!isReader(stream)) throw new Error(`GET answered ${stream.status}`);
    handler.close();
    await expect(stream.rest(5_000)).resolves.toBeDefined();
    expect(stream.done).toBe(true);
  });

  test('empties the in-memory store it built', { tags: ['threat-model'] }, () => {
    const checked = checkSessionsOptions({}) as CheckedSessions;
    const host = new SessionHost(sessionServer(), checked, { onFault: () => {}, onLog: () => {} });
    const record = {
      id: 'a'.repeat(32),
      principal: 'p',
      revision: '2025-11-25' as const,
      clientCapabilities: {},
      initialized: true,
      subscriptions: [],
      lastSeen: Date.now(),
    };
    expect(checked.store.create(record, 10)).toBe(true);
    host.close();
    expect(checked.store.size()).toBe(0);
  });

  test('after it, a session of the store it built has ended: a request naming it is 404, and initialize is 503', {
    tags: ['threat-model'],
  }, async () => {
    const events: HttpLogEvent[] = [];
    const { url, handler } = await handlerEndpoint({}, (event) => events.push(event));
    const client = new SessionClient(url);
    await client.open();
    expect((await client.request('tools/list')).status).toBe(200);
    handler.close();
    expect((await client.request('tools/list')).status).toBe(404);
    const opened = await new SessionClient(url).open();
    expect(opened.status).toBe(503);
    expect(opened.json).toMatchObject({ error: { code: -32603 } });
    expect(opened.headers.get('mcp-session-id')).toBeNull();
    expect(events.map((event) => event.rule)).toEqual(['session-unknown', 'session-host-closed']);
  });

  test('after it, a session of a given store is 503 session-host-closed: another process may serve it', {
    tags: ['threat-model'],
  }, async () => {
    const events: HttpLogEvent[] = [];
    const { url, handler } = await handlerEndpoint({ store: new MemorySessionStore() }, (event) =>
      events.push(event),
    );
    const client = new SessionClient(url);
    await client.open();
    handler.close();
    const later = await client.request('tools/list');
    expect(later.status).toBe(503);
    expect(events.map((event) => event.rule)).toEqual(['session-host-closed']);
  });

  test('a request whose store answers after it is refused, and its handler never runs', {
    tags: ['threat-model'],
  }, async () => {
    const store = new HeldStore();
    const probe = newProbe();
    const { url, handler } = await handlerEndpoint({ store }, () => {}, probe);
    const client = new SessionClient(url);
    await client.open();
    const reads = store.hold('open');
    const call = client.request('tools/call', { name: 'hold', arguments: { tag: 'late' } });
    await reads.arrived();
    handler.close();
    reads.release();
    expect((await call).status).toBe(503);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(probe.held.has('late')).toBe(false);
  });

  test('an initialize the store was making when it ran is refused 503 and leaves no session behind', {
    tags: ['threat-model'],
  }, async () => {
    const store = new HeldStore();
    const { url, handler } = await handlerEndpoint({ store });
    const creates = store.hold('create');
    const opened = new SessionClient(url).open();
    await creates.arrived();
    handler.close();
    creates.release();
    const answer = await opened;
    expect(answer.status).toBe(503);
    expect(answer.headers.get('mcp-session-id')).toBeNull();
    await expect.poll(() => store.size()).toBe(0);
  });

  test('an initialize whose count of sessions the store gave only after it is refused 503 before any handshake', async () => {
    const store = new HeldStore();
    const { url, handler } = await handlerEndpoint({ store });
    const sizes = store.hold('size');
    const creates = store.hold('create');
    const opened = new SessionClient(url).open();
    await sizes.arrived();
    handler.close();
    sizes.release();
    // The store is never asked to create it: the refusal comes first.
    const first = await Promise.race([opened, creates.arrived().then(() => 'create was asked' as const)]);
    expect(first === 'create was asked' ? first : first.status).toBe(503);
  });

  test('leaves a store that was given as it is: another process may serve its sessions', {
    tags: ['threat-model'],
  }, async () => {
    const store = new MemorySessionStore();
    const { url, handler } = await handlerEndpoint({ store });
    await new SessionClient(url).open();
    handler.close();
    expect(store.size()).toBe(1);
  });
});

describe("a fetch handler's close()", () => {
  test('aborts a call running on a session, and the session has ended: 404', {
    tags: ['threat-model'],
  }, async () => {
    const probe = newProbe();
    const handler = createFetchHandler(sessionServer(probe), {
      ...SESSION_OPTIONS,
      sessions: {},
    } as Parameters<typeof createFetchHandler>[1]);
    const mounted = await listenFetch(handler);
    closeHttp = () => mounted.close();
    const client = new SessionClient(`http://127.0.0.1:${mounted.port}/mcp`);
    await client.open();
    const call = client.request('tools/call', { name: 'hold', arguments: { tag: 'fetch-held' } });
    await probe.started('fetch-held');
    handler.close();
    expect(probe.aborted).toEqual(['fetch-held']);
    await call.catch(() => undefined);
    expect((await client.request('tools/list')).status).toBe(404);
  });
});
