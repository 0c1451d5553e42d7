/**
 * Shared state that is unreachable for now (UnavailableError, thrown by a store, a bus or a handler
 * that used one) refuses only the request that needed it: 503 with the error's Retry-After and
 * rule over a real socket, the JSON-RPC error "Service unavailable" and nothing of the cause, a
 * refusal in the host's log rather than a fault. The same against a real PostgreSQL, stopped and
 * frozen under running processes, is packages/palisade-mcp-postgres/test/faults.test.ts.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { HttpLogEvent } from '../../src/http/http-options.js';
import { createHttpHandler } from '../../src/http/node/handler.js';
import {
  type BusListener,
  type ChangeBus,
  createServer,
  defineTool,
  MemoryTaskStore,
  PalisadeError,
  type ServerDefinition,
  UnavailableError,
} from '../../src/index.js';
import { ADMIT_ALL, type Json, type Mounted, modernRequest, mount } from '../support/http-peer.js';
import { serveInProcess } from '../support/in-process.js';
import { nodeEndpoint, SessionClient } from '../support/session-peer.js';

let mounted: Mounted | undefined;
afterEach(async () => {
  await mounted?.close();
  mounted = undefined;
});

const down = (): UnavailableError =>
  new UnavailableError({
    rule: 'store-down',
    retryAfterSeconds: 7,
    message: 'connect ECONNREFUSED 10.0.0.5:5432 (secret-host)',
  });

/** A tool that needs no shared state, and one whose shared state is unreachable for now. */
const LOCAL = defineTool({
  name: 'local',
  inputSchema: { type: 'object' },
  handler: () => ({ content: [] }),
});
const SHARED = defineTool({
  name: 'shared',
  inputSchema: { type: 'object' },
  handler: () => {
    throw down();
  },
});

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

interface Seen {
  readonly logs: HttpLogEvent[];
  readonly faults: string[];
}

async function serveWith(definition: Partial<ServerDefinition>): Promise<Seen> {
  const seen: Seen = { logs: [], faults: [] };
  const server = createServer({
    name: 'unavailable-fixture',
    version: '1.0.0',
    tools: [
      LOCAL,
      SHARED,
      defineTool({
        name: 'talks-then-shared',
        inputSchema: { type: 'object' },
        handler: async (_args, ctx) => {
          await ctx.log('info', 'reading the shared state');
          throw down();
        },
      }),
      defineTool({
        name: 'work',
        inputSchema: { type: 'object' },
        execution: { taskSupport: 'optional' },
        handler: () => ({ content: [] }),
      }),
    ],
    tasks: { store: new MemoryTaskStore() },
    ...definition,
  } as ServerDefinition);
  mounted = await mount(
    createHttpHandler(server, {
      ...ADMIT_ALL,
      onLog: (event) => seen.logs.push(event),
      onFault: (description) => seen.faults.push(description),
    }),
  );
  return seen;
}

async function call(method: string, params: Json, capabilities: Json = {}, meta: Json = {}) {
  const { body, headers } = modernRequest(1, method, {
    ...params,
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': capabilities,
      ...meta,
    },
  });
  const response = await fetch(`http://127.0.0.1:${mounted?.port}/mcp`, {
    method: 'POST',
    headers: {
      ...(headers as Record<string, string>),
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      origin: 'http://app.example',
    },
    body,
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describe('shared state unreachable for now', () => {
  test("a handler's UnavailableError is 503 with its Retry-After and rule, naming nothing of the cause", {
    tags: ['threat-model'],
  }, async () => {
    const seen = await serveWith({});
    const reply = await call('tools/call', { name: 'shared', arguments: {} });
    expect(reply.status).toBe(503);
    expect(reply.headers.get('retry-after')).toBe('7');
    expect(JSON.parse(reply.text)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32603, message: 'Service unavailable' },
    });
    expect(reply.text).not.toMatch(/ECONNREFUSED|secret|10\.0\.0\.5/);
    expect(seen.logs).toContainEqual({ kind: 'refusal', rule: 'store-down', status: 503 });
    expect(seen.faults).toEqual([]);
  });

  test('after its stream began, an UnavailableError ends the stream with the error, and the refusal logged is the 200 the client got', async () => {
    const seen = await serveWith({});
    const reply = await call(
      'tools/call',
      { name: 'talks-then-shared', arguments: {} },
      {},
      { 'io.modelcontextprotocol/logLevel': 'info' },
    );
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('text/event-stream');
    expect(reply.headers.get('retry-after')).toBeNull();
    expect(reply.text).toContain('"error":{"code":-32603,"message":"Service unavailable"}');
    expect(reply.text).not.toMatch(/ECONNREFUSED|secret|10\.0\.0\.5/);
    expect(seen.logs).toContainEqual({ kind: 'refusal', rule: 'store-down', status: 200 });
    expect(seen.faults).toEqual([]);
  });

  test('a request that does not touch the shared state is served meanwhile', {
    tags: ['threat-model'],
  }, async () => {
    await serveWith({});
    expect((await call('tools/call', { name: 'shared', arguments: {} })).status).toBe(503);
    const reply = await call('tools/call', { name: 'local', arguments: {} });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.text)).toHaveProperty('result');
  });

  test("a task store's UnavailableError refuses the task's creation 503", {
    tags: ['threat-model'],
  }, async () => {
    const store = new MemoryTaskStore();
    store.create = () => {
      throw down();
    };
    await serveWith({ tasks: { store } });
    const reply = await call('tools/call', { name: 'work', arguments: {} }, TASKS);
    expect(reply.status).toBe(503);
    expect(reply.headers.get('retry-after')).toBe('7');
  });

  test('a listen stream on a bus that cannot hear now is refused 503, never acknowledged', {
    tags: ['threat-model'],
  }, async () => {
    const subscribers = new Set<BusListener>();
    const deaf: ChangeBus = {
      publish: () => undefined,
      subscribe: (listener) => {
        subscribers.add(listener);
        return () => subscribers.delete(listener);
      },
      ensureListening: () => {
        throw down();
      },
    };
    await serveWith({ notifications: { toolsListChanged: true, bus: deaf } });
    const reply = await call('subscriptions/listen', { notifications: { toolsListChanged: true } });
    expect(reply.status).toBe(503);
    expect(reply.headers.get('retry-after')).toBe('7');
    expect(reply.text).not.toContain('acknowledged');
    expect(subscribers.size).toBe(0);
  });

  test('over stdio it is the JSON-RPC error alone, and the connection serves on', {
    tags: ['threat-model'],
  }, async () => {
    const server = createServer({
      name: 'unavailable-stdio',
      version: '1.0.0',
      tools: [
        defineTool({
          name: 'shared',
          inputSchema: { type: 'object' },
          handler: () => {
            throw down();
          },
        }),
      ],
    });
    const faults: string[] = [];
    const peer = serveInProcess(server, (description) => faults.push(description));
    try {
      const meta = {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
      };
      expect(
        await peer.request({
          jsonrpc: '2.0',
          id: 5,
          method: 'tools/call',
          params: { name: 'shared', arguments: {}, _meta: meta },
        }),
      ).toEqual({ jsonrpc: '2.0', id: 5, error: { code: -32603, message: 'Service unavailable' } });
      expect(
        await peer.request({ jsonrpc: '2.0', id: 6, method: 'tools/list', params: { _meta: meta } }),
      ).toHaveProperty('result');
      expect(faults).toEqual([]);
    } finally {
      await peer.close();
    }
  });

  test.each([
    [{ rule: 'Bad Rule', retryAfterSeconds: 2 }, 'rule'],
    [{ rule: 'ok-rule', retryAfterSeconds: 0 }, 'retryAfterSeconds'],
    [{ rule: 'ok-rule', retryAfterSeconds: 1.5 }, 'retryAfterSeconds'],
    [{ rule: 'ok-rule', retryAfterSeconds: 3_601 }, 'retryAfterSeconds'],
  ])(
    'UnavailableError(%j) is refused at construction, naming %s',
    { tags: ['threat-model'] },
    (init, named) => {
      expect(() => new UnavailableError({ ...init, message: 'm' })).toThrow(named);
      expect(() => new UnavailableError({ ...init, message: 'm' })).toThrow(PalisadeError);
    },
  );

  test("on a 2025-11-25 session, a call's UnavailableError is 503 with its Retry-After too, and the session serves on", {
    tags: ['threat-model'],
  }, async () => {
    const logs: HttpLogEvent[] = [];
    const faults: string[] = [];
    const server = createServer({
      name: 'unavailable-session',
      version: '1.0.0',
      tools: [LOCAL, SHARED],
    });
    const endpoint = await nodeEndpoint(server, {
      onLog: (event) => logs.push(event),
      onFault: (description) => faults.push(description),
    });
    try {
      const client = new SessionClient(endpoint.url);
      expect((await client.open()).status).toBe(200);
      const refused = await client.request(
        'tools/call',
        { name: 'shared', arguments: {} },
        { accept: 'application/json' },
      );
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('7');
      expect(refused.json).toMatchObject({ error: { code: -32603, message: 'Service unavailable' } });
      expect(refused.text).not.toMatch(/ECONNREFUSED|secret|10\.0\.0\.5/);
      expect(logs).toContainEqual({ kind: 'refusal', rule: 'store-down', status: 503 });
      expect(faults).toEqual([]);
      const served = await client.request(
        'tools/call',
        { name: 'local', arguments: {} },
        { accept: 'application/json' },
      );
      expect(served.status).toBe(200);
    } finally {
      await endpoint.close();
    }
  });
});
