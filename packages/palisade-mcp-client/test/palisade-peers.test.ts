/**
 * The client against Palisade as a host deploys it, over real sockets: the demo with sessions on
 * (the 2025-11-25 family served whole: a session id, its GET stream, DELETE on close), a server
 * behind `node:http2` over TLS reached over HTTP/2 when the client offers it, and a 2026-07-28
 * server whose tool answers with a task the client polls to its end.
 */
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { createSecureServer, type Http2SecureServer } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemo } from 'palisade-demo';
import { createServer, defineTool, type TaskRecord, type TaskStore } from 'palisade-mcp';
import { createHttpHandler } from 'palisade-mcp/http';
import { afterEach, describe, expect, test } from 'vitest';
import { makeCertificate } from '../../palisade-mcp/test/support/tls-certificate.js';
import { type Client, createClient, httpTransport } from '../src/index.js';
import { type Running, serveHttp, testServer } from './support/servers.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function track(client: Client): Client {
  cleanups.push(() => client.close());
  return client;
}

describe('the demo with sessions on', () => {
  test('a 2025-11-25 client keeps the session it is issued, lists, calls, reads and gets over it, and ends it with DELETE', async () => {
    const demo = await startDemo({ port: 0, sessions: true });
    cleanups.push(() => demo.close());
    const transport = httpTransport(demo.url);
    const client = track(createClient({ transport, revisions: ['2025-11-25'] }));
    expect((await client.connect()).revision).toBe('2025-11-25');
    const session = transport.sessionId;
    expect(session).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect((await client.listAllTools()).map((tool) => tool.name)).toContain('echo');
    expect((await client.callTool('echo', { text: 'kept' })).content).toEqual([
      { type: 'text', text: 'kept' },
    ]);
    expect((await client.readResource('demo://readme')).contents[0]?.uri).toBe('demo://readme');
    expect((await client.getPrompt('greet', { name: 'Ada' })).messages.length).toBeGreaterThan(0);
    await client.close();
    // The DELETE ended it: the server answers a request on that session 404, as for any it does not know.
    const after = await fetch(demo.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        'mcp-session-id': session ?? '',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(after.status).toBe(404);
  });
});

describe('HTTP/2', () => {
  async function h2Server(versions: string[]): Promise<{ url: string; ca: string }> {
    const dir = mkdtempSync(join(tmpdir(), 'client-h2-'));
    const { key, cert } = makeCertificate(dir, 'server');
    const handler = createHttpHandler(testServer(), {
      authorize: () => ({ ok: true }),
      allowedOrigins: 'any',
      allowedHosts: ['localhost'],
    });
    const server: Http2SecureServer = createSecureServer({ key, cert, allowHTTP1: true }, (req, res) => {
      versions.push(req.httpVersion);
      handler(req, res);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    cleanups.push(async () => {
      server.close();
      await once(server, 'close');
    });
    const { port } = server.address() as AddressInfo;
    return { url: `https://localhost:${port}/mcp`, ca: cert };
  }

  test.each([
    [true, '2.0'],
    [false, '1.1'],
  ])('a client with http2 %s reaches a TLS server over HTTP/%s and calls a tool', async (http2, version) => {
    const versions: string[] = [];
    const { url, ca } = await h2Server(versions);
    const client = track(
      createClient({
        transport: httpTransport(url, {
          http2,
          tls: { ca },
          resolver: async () => [{ address: '127.0.0.1', family: 4 }],
        }),
      }),
    );
    expect((await client.callTool('echo', { text: 'h2' })).content).toEqual([{ type: 'text', text: 'h2' }]);
    expect(new Set(versions)).toEqual(new Set([version]));
  });
});

describe('the tasks extension on 2026-07-28', () => {
  /** A host's in-memory store, counting the polls it answers. */
  function store(): TaskStore & { polls: number } {
    const tasks = new Map<string, TaskRecord>();
    return {
      polls: 0,
      create(_principal, work) {
        const now = new Date().toISOString();
        const task: TaskRecord = {
          taskId: `t${tasks.size + 1}`,
          status: 'working',
          createdAt: now,
          lastUpdatedAt: now,
          ttlMs: 60_000,
          pollIntervalMs: 50,
          work,
        };
        tasks.set(task.taskId, task);
        return task;
      },
      get(taskId) {
        this.polls += 1;
        return tasks.get(taskId);
      },
      update(taskId, _principal, change) {
        const task = tasks.get(taskId);
        if (task === undefined || ['completed', 'failed', 'cancelled'].includes(task.status)) return false;
        tasks.set(taskId, { ...task, ...change, lastUpdatedAt: new Date().toISOString() });
        return true;
      },
    };
  }

  async function tasksServer(held: ReturnType<typeof store>): Promise<Running> {
    const server = createServer({
      name: 'tasks',
      version: '1.0.0',
      tasks: { store: held },
      tools: [
        defineTool({
          name: 'render',
          inputSchema: { type: 'object' },
          execution: { taskSupport: 'optional' },
          handler: async () => {
            await new Promise((resolve) => setTimeout(resolve, 150));
            return { content: [{ type: 'text', text: 'rendered' }] };
          },
        }),
      ],
    });
    const running = await serveHttp(server);
    cleanups.push(() => running.close());
    return running;
  }

  test('a tool call the server runs as a task is polled with tasks/get to its result', async () => {
    const held = store();
    const running = await tasksServer(held);
    const client = track(createClient({ transport: httpTransport(running.url), tasks: true }));
    expect((await client.callTool('render')).content).toEqual([{ type: 'text', text: 'rendered' }]);
    expect(held.polls).toBeGreaterThan(0);
  });

  test('a client that does not declare the extension gets the result inline, and nothing is polled', async () => {
    const held = store();
    const running = await tasksServer(held);
    const client = track(createClient({ transport: httpTransport(running.url) }));
    expect((await client.callTool('render')).content).toEqual([{ type: 'text', text: 'rendered' }]);
    expect(held.polls).toBe(0);
  });
});
