/**
 * Change notifications and log levels over stdio, through a spawned server's real pipes: a
 * 2026-07-28 `subscriptions/listen` interleaved with other traffic and ended by the client's
 * cancel, and a 2025-11-25 connection that holds its `logging/setLevel` and its
 * `resources/subscribe` set.
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, test } from 'vitest';
import { closedViolations } from '../support/closed-schema.js';
import { bundledFixture } from '../support/fixture-bundles.js';
import { INITIALIZE, type Json, modern, StdioPeer } from '../support/stdio-peer.js';

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

let peer: StdioPeer | undefined;
afterEach(() => {
  peer?.kill();
  peer = undefined;
});

function start(): StdioPeer {
  peer = new StdioPeer(
    spawn(process.execPath, [bundledFixture('serve-changes')], { stdio: ['pipe', 'pipe', 'pipe'] }),
  );
  return peer;
}

/** Reads messages until one satisfies `done`; returns all of them in order. */
async function readUntil(server: StdioPeer, done: (message: Json) => boolean): Promise<Json[]> {
  const seen: Json[] = [];
  for (;;) {
    const message = await server.nextMessage();
    seen.push(message);
    if (done(message)) return seen;
  }
}

async function initialize(server: StdioPeer): Promise<Json> {
  const answer = await server.request(INITIALIZE);
  server.sendJson({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return answer;
}

function call(id: number, name: string, args: Json = {}): Json {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } };
}

describe('2026-07-28 subscriptions/listen over stdio', () => {
  test('a listen on stdio is acknowledged, hears the change it asked for, and its cancel ends it with no result', {
    tags: ['threat-model'],
  }, async () => {
    const server = start();
    server.sendJson(
      modern('listen-1', 'subscriptions/listen', { notifications: { toolsListChanged: true } }),
    );
    expect(await server.nextMessage()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { toolsListChanged: true }, _meta: { [SUBSCRIPTION_ID]: 'listen-1' } },
    });
    server.sendJson(modern(2, 'tools/call', { name: 'touch', arguments: { list: 'tools' } }));
    const traffic = await readUntil(server, (message) => message['id'] === 2);
    expect(traffic).toContainEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
      params: { _meta: { [SUBSCRIPTION_ID]: 'listen-1' } },
    });
    server.sendJson({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'listen-1' } });
    server.sendJson(modern(3, 'tools/call', { name: 'touch', arguments: { list: 'tools' } }));
    // After the cancel: the next call's answer is the next line; no listen result, no notification.
    expect(await server.nextMessage()).toMatchObject({ id: 3, result: { resultType: 'complete' } });
  });
});

describe('bounds on subscriptions over stdio', () => {
  test('the 10,001st open listen stream is refused with -32000 and the server goes on', {
    tags: ['threat-model'],
  }, async () => {
    const server = start();
    const lines: string[] = [];
    for (let id = 1; id <= 10_001; id += 1)
      lines.push(JSON.stringify(modern(id, 'subscriptions/listen', { notifications: {} })));
    server.send(`${lines.join('\n')}\n`);
    const refused = await readUntil(server, (message) => message['id'] === 10_001);
    expect(refused.at(-1)).toEqual({
      jsonrpc: '2.0',
      id: 10_001,
      error: { code: -32000, message: 'Server busy: too many open subscriptions' },
    });
    expect(
      refused.filter((message) => message['method'] === 'notifications/subscriptions/acknowledged'),
    ).toHaveLength(10_000);
    server.sendJson(modern(20_000, 'tools/list'));
    expect(await server.nextMessage()).toMatchObject({ id: 20_000, result: { resultType: 'complete' } });
  });

  test('a client that does not read loses change notifications past 1,114,112 unsent bytes, never a response', {
    tags: ['threat-model'],
  }, async () => {
    const server = start();
    server.sendJson(modern('l', 'subscriptions/listen', { notifications: { toolsListChanged: true } }));
    expect(await server.nextMessage()).toMatchObject({ method: 'notifications/subscriptions/acknowledged' });
    server.child.stdout.pause();
    server.sendJson(modern(1, 'tools/call', { name: 'flood', arguments: { times: 100_000 } }));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    server.child.stdout.resume();
    const traffic = await readUntil(server, (message) => message['id'] === 1);
    const changes = traffic.filter((message) => message['method'] === 'notifications/tools/list_changed');
    // Each notification line is 115 bytes: far fewer than 100,000 fit under the bound.
    expect(changes.length).toBeGreaterThan(1_000);
    expect(changes.length).toBeLessThan(20_000);
    expect(traffic.at(-1)).toMatchObject({ id: 1, result: { content: [{ type: 'text', text: 'flooded' }] } });
  });
});

describe('2025-11-25 over stdio: the connection is the session', () => {
  test('initialize advertises listChanged and subscribe for what the host declared, and logging', {
    tags: ['threat-model'],
  }, async () => {
    const server = start();
    const answer = await initialize(server);
    expect((answer['result'] as Json)['capabilities']).toEqual({
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: false },
      prompts: { listChanged: true },
      logging: {},
    });
  });

  test('an initialized client hears every declared list change without asking', {
    tags: ['threat-model'],
  }, async () => {
    const server = start();
    await initialize(server);
    server.sendJson(call(1, 'touch', { list: 'prompts' }));
    const traffic = await readUntil(server, (message) => message['id'] === 1);
    expect(traffic[0]).toEqual({ jsonrpc: '2.0', method: 'notifications/prompts/list_changed' });
  });

  test('resources/updated reaches the client only for a URI it subscribed to, and no longer once it unsubscribed', {
    tags: ['threat-model'],
  }, async () => {
    const server = start();
    await initialize(server);
    expect(
      await server.request({
        jsonrpc: '2.0',
        id: 1,
        method: 'resources/subscribe',
        params: { uri: 'test://watched' },
      }),
    ).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    server.sendJson(call(2, 'touch', { uri: 'test://watched' }));
    expect(await readUntil(server, (message) => message['id'] === 2)).toContainEqual({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: 'test://watched' },
    });
    expect(
      await server.request({
        jsonrpc: '2.0',
        id: 3,
        method: 'resources/unsubscribe',
        params: { uri: 'test://watched' },
      }),
    ).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
    server.sendJson(call(4, 'touch', { uri: 'test://watched' }));
    expect(await server.nextMessage()).toMatchObject({ id: 4 });
  });

  test('subscribing to a URI no resource serves is refused with -32602', {
    tags: ['threat-model'],
  }, async () => {
    const server = start();
    await initialize(server);
    expect(
      await server.request({
        jsonrpc: '2.0',
        id: 1,
        method: 'resources/subscribe',
        params: { uri: 'test://nowhere' },
      }),
    ).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32602, message: 'Invalid params: no listed resource or template serves that URI' },
    });
  });

  test('before logging/setLevel a request logs at info and above; after setLevel error, only error', {
    tags: ['threat-model'],
  }, async () => {
    const server = start();
    await initialize(server);
    server.sendJson(call(1, 'log_three'));
    const before = await readUntil(server, (message) => message['id'] === 1);
    expect(
      before
        .filter((message) => message['method'] === 'notifications/message')
        .map((m) => (m['params'] as Json)['level']),
    ).toEqual(['info', 'error']);
    expect(
      await server.request({ jsonrpc: '2.0', id: 2, method: 'logging/setLevel', params: { level: 'error' } }),
    ).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
    server.sendJson(call(3, 'log_three'));
    const after = await readUntil(server, (message) => message['id'] === 3);
    expect(
      after
        .filter((message) => message['method'] === 'notifications/message')
        .map((m) => (m['params'] as Json)['level']),
    ).toEqual(['error']);
  });

  test('logging/setLevel with a level that does not exist is refused with -32602', {
    tags: ['threat-model'],
  }, async () => {
    const server = start();
    await initialize(server);
    expect(
      await server.request({ jsonrpc: '2.0', id: 1, method: 'logging/setLevel', params: { level: 'loud' } }),
    ).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32602, message: 'Invalid params: params.level is not a log level' },
    });
  });
});

describe('change notifications on the older handshake revisions over stdio', () => {
  test.each(['2025-06-18', '2025-03-26', '2024-11-05'] as const)(
    'a %s connection hears list changes and its subscribed resource, each valid under that revision, closed',
    async (revision) => {
      const server = start();
      const answer = await server.request({
        ...INITIALIZE,
        params: { ...INITIALIZE.params, protocolVersion: revision },
      });
      expect(answer).toMatchObject({
        result: {
          protocolVersion: revision,
          capabilities: { tools: { listChanged: true }, resources: { subscribe: true } },
        },
      });
      server.sendJson({ jsonrpc: '2.0', method: 'notifications/initialized' });
      expect(
        await server.request({
          jsonrpc: '2.0',
          id: 1,
          method: 'resources/subscribe',
          params: { uri: 'test://watched' },
        }),
      ).toEqual({
        jsonrpc: '2.0',
        id: 1,
        result: {},
      });
      server.sendJson(call(2, 'touch', { list: 'prompts', uri: 'test://watched' }));
      const seen = await readUntil(server, (message) => message['id'] === 2);
      const notifications = seen.filter((message) => message['id'] === undefined);
      expect(notifications).toEqual([
        { jsonrpc: '2.0', method: 'notifications/prompts/list_changed' },
        { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'test://watched' } },
      ]);
      expect(notifications.flatMap((message) => closedViolations(revision, message))).toEqual([]);
    },
  );
});
