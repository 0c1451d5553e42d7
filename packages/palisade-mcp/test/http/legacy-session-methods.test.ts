/**
 * Stateless 2025-11-25 over HTTP has no session: nothing a request sets outlives its POST. These
 * tests hold what Palisade advertises and answers there, over a real socket: no `listChanged` or
 * `subscribe` even when the host declared them (nothing could carry a change), `resources/subscribe`
 * and `logging/setLevel` acknowledged without effect, and every request logging at the server's
 * `defaultLogLevel`.
 */
import { describe, expect, test } from 'vitest';
import { createHttpHandler } from '../../src/http/node/handler.js';
import { createServer, defineTool, type ServerDefinition } from '../../src/index.js';
import { closeAfterEach } from '../support/close-after-each.js';
import { ADMIT_ALL, type Json, mount, post, RawClient } from '../support/http-peer.js';

const closeLater = closeAfterEach();
/** The port of the server the running test started. */
let port: number | undefined;

const LEGACY = { 'MCP-Protocol-Version': '2025-11-25' };

function definition(extra: Partial<ServerDefinition> = {}): ServerDefinition {
  return {
    name: 'legacy-fixture',
    version: '1.0.0',
    tools: [
      defineTool({
        name: 'log_three',
        inputSchema: { type: 'object' },
        handler: (_args, ctx) => {
          ctx.log('debug', 'a debug line');
          ctx.log('info', 'an info line');
          ctx.log('error', 'an error line');
          return { content: [{ type: 'text', text: 'logged' }] };
        },
      }),
    ],
    resources: [
      { uri: 'test://watched', name: 'watched', read: () => [{ uri: 'test://watched', text: 'w' }] },
    ],
    notifications: { toolsListChanged: true, resourcesListChanged: true, resourceSubscriptions: true },
    ...extra,
  };
}

async function exchange(
  message: Json,
  headers: Json = LEGACY,
): Promise<{ status: number; type: string; body: string }> {
  if (port === undefined) throw new Error('not mounted');
  const client = new RawClient(port);
  try {
    client.send(post(JSON.stringify(message), { ...headers, Connection: 'close' }));
    const response = await client.response();
    return { status: response.status, type: response.headers['content-type'] ?? '', body: response.body };
  } finally {
    client.end();
  }
}

async function serveWith(extra: Partial<ServerDefinition> = {}): Promise<void> {
  port = (await closeLater(mount(createHttpHandler(createServer(definition(extra)), ADMIT_ALL)))).port;
}

describe('stateless 2025-11-25 session methods over HTTP', () => {
  test('initialize over HTTP advertises neither listChanged nor subscribe, whatever the host declared', {
    tags: ['threat-model'],
  }, async () => {
    await serveWith();
    const reply = await exchange(
      {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      },
      {},
    );
    expect((JSON.parse(reply.body) as { result: Json }).result['capabilities']).toEqual({
      tools: { listChanged: false },
      resources: { subscribe: false, listChanged: false },
      logging: {},
    });
  });

  test('resources/subscribe over stateless HTTP is acknowledged with {} and holds nothing', {
    tags: ['threat-model'],
  }, async () => {
    await serveWith();
    const reply = await exchange({
      jsonrpc: '2.0',
      id: 1,
      method: 'resources/subscribe',
      params: { uri: 'test://watched' },
    });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });

  test('resources/subscribe is method-not-found when the host declared no resource subscriptions', async () => {
    await serveWith({ notifications: {} });
    const reply = await exchange({
      jsonrpc: '2.0',
      id: 1,
      method: 'resources/subscribe',
      params: { uri: 'test://watched' },
    });
    expect(JSON.parse(reply.body)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32601, message: 'Method not found' },
    });
  });

  test('logging/setLevel over stateless HTTP is acknowledged, and a request still logs at the default level, info', {
    tags: ['threat-model'],
  }, async () => {
    await serveWith();
    const set = await exchange({
      jsonrpc: '2.0',
      id: 1,
      method: 'logging/setLevel',
      params: { level: 'error' },
    });
    expect(JSON.parse(set.body)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    const call = await exchange({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'log_three' },
    });
    expect(call.type).toBe('text/event-stream');
    const levels = [...call.body.matchAll(/"level":"(\w+)"/g)].map((match) => match[1]);
    expect(levels).toEqual(['info', 'error']);
  });

  test('with defaultLogLevel off a 2025-11-25 request over HTTP sends no log message and answers in JSON', {
    tags: ['threat-model'],
  }, async () => {
    await serveWith({ defaultLogLevel: 'off' });
    const call = await exchange({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'log_three' },
    });
    expect(call.type).toBe('application/json');
    expect(call.body).not.toContain('notifications/message');
  });
});
