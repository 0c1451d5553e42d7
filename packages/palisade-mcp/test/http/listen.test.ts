/**
 * `subscriptions/listen` over HTTP (2026-07-28), over a real socket with exact bytes: the
 * acknowledgement first, every message tagged with the listen id, only the kinds asked for, the
 * filter read under bounds, and the stream ended by the server at its lifetime. Bounds are pinned
 * as literals (limits.ts: MAX_RESOURCE_SUBSCRIPTIONS 100, MAX_SSE_QUEUED_EVENTS 1,024,
 * SSE_KEEPALIVE_INTERVAL_MS 15,000).
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createHttpHandler } from '../../src/http/node/handler.js';
import { createServer, defineTool, type Server, type ServerDefinition } from '../../src/index.js';
import { closeAfterEach } from '../support/close-after-each.js';
import { ADMIT_ALL, type Json, modernRequest, mount, post, RawClient } from '../support/http-peer.js';

const closeLater = closeAfterEach();
/** The port of the server the running test started. */
let port: number | undefined;

const clients: RawClient[] = [];
const cleanups: Array<() => void> = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const cleanup of cleanups.splice(0)) cleanup();
  for (const client of clients.splice(0)) client.end();
});

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

function definition(extra: Partial<ServerDefinition> = {}): ServerDefinition {
  return {
    name: 'listen-fixture',
    version: '1.0.0',
    tools: [defineTool({ name: 'noop', inputSchema: { type: 'object' }, handler: () => ({ content: [] }) })],
    prompts: [{ name: 'greeting', get: () => ({ messages: [] }) }],
    resources: [
      { uri: 'test://watched', name: 'watched', read: () => [{ uri: 'test://watched', text: 'w' }] },
    ],
    resourceTemplates: [
      { uriTemplate: 'test://items/{id}', name: 'item', read: (uri) => [{ uri, text: 'item' }] },
    ],
    notifications: {
      toolsListChanged: true,
      promptsListChanged: true,
      resourceSubscriptions: true,
    },
    ...extra,
  };
}

async function serveListen(extra: Partial<ServerDefinition> = {}): Promise<Server> {
  const server = createServer(definition(extra));
  port = (await closeLater(mount(createHttpHandler(server, ADMIT_ALL)))).port;
  return server;
}

function open(headers: Json = {}): RawClient {
  if (port === undefined) throw new Error('not mounted');
  const client = new RawClient(port);
  clients.push(client);
  void headers;
  return client;
}

/** Sends a listen request and waits until its acknowledgement has arrived. */
async function listen(id: number | string, notifications: Json): Promise<RawClient> {
  const client = open();
  const { body, headers } = modernRequest(0, 'subscriptions/listen', { notifications });
  client.send(post(body.replace('"id":0', `"id":${JSON.stringify(id)}`), headers));
  await client.until((text) => text.includes('notifications/subscriptions/acknowledged'));
  return client;
}

/** Every SSE `data:` message received so far, parsed. */
function events(client: RawClient): Json[] {
  return [...client.text().matchAll(/^data: (.*)$/gm)].map((match) => JSON.parse(match[1] ?? '') as Json);
}

function refusals(): Json[] {
  const seen: Json[] = [];
  const listener = (message: unknown): void => {
    seen.push(message as Json);
  };
  subscribe('palisade:http-refusal', listener);
  cleanups.push(() => unsubscribe('palisade:http-refusal', listener));
  return seen;
}

describe('subscriptions/listen over HTTP', () => {
  test('the first event of a listen stream is the acknowledgement of what will be sent, tagged with the listen id', {
    tags: ['threat-model'],
  }, async () => {
    await serveListen();
    const client = await listen(77, { toolsListChanged: true, resourcesListChanged: true });
    expect(client.text()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(client.text()).toContain('content-type: text/event-stream');
    expect(events(client)).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        // resourcesListChanged was asked for but never declared: dropped from what is honoured.
        params: { notifications: { toolsListChanged: true }, _meta: { [SUBSCRIPTION_ID]: 77 } },
      },
    ]);
  });

  test('an SSE listen stream is sent with no-cache and no proxy buffering', {
    tags: ['threat-model'],
  }, async () => {
    await serveListen();
    const client = await listen(78, { toolsListChanged: true });
    expect(client.text()).toContain('cache-control: no-cache\r\n');
    expect(client.text()).toContain('x-accel-buffering: no\r\n');
  });

  test('authorizeBody sees the listen filter before any acknowledgement, and its refusal opens no stream', {
    tags: ['threat-model'],
  }, async () => {
    const server = createServer(definition());
    const seen: string[] = [];
    port = (
      await closeLater(
        mount(
          createHttpHandler(server, {
            ...ADMIT_ALL,
            authorizeBody: (_request, bytes) => {
              const text = Buffer.from(bytes).toString('utf8');
              seen.push(text);
              // This host lets nobody watch resources: the filter is refused before it is honoured.
              return text.includes('resourceSubscriptions') ? { ok: false, status: 403 } : { ok: true };
            },
          }),
        ),
      )
    ).port;
    const client = open();
    const { body, headers } = modernRequest(21, 'subscriptions/listen', {
      notifications: { resourceSubscriptions: ['test://watched'] },
    });
    client.send(post(body, headers));
    const response = await client.response();
    expect(response.status).toBe(403);
    expect(response.body).not.toContain('acknowledged');
    expect(seen).toHaveLength(1);
    server.notifyResourceUpdated('test://watched');
    await sleep(20);
    expect(client.text()).not.toContain('notifications/resources/updated');
  });

  test('a declared change reaches a stream that asked for it, tagged with the listen id, its type kept', {
    tags: ['threat-model'],
  }, async () => {
    const server = await serveListen();
    const client = await listen('sub-1', { toolsListChanged: true });
    server.notifyListChanged('tools');
    await client.until((text) => text.includes('notifications/tools/list_changed'));
    expect(events(client)[1]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
      params: { _meta: { [SUBSCRIPTION_ID]: 'sub-1' } },
    });
  });

  test('a change of a kind the stream did not ask for is never sent on it', {
    tags: ['threat-model'],
  }, async () => {
    const server = await serveListen();
    const client = await listen(5, { promptsListChanged: true });
    server.notifyListChanged('tools');
    server.notifyListChanged('prompts');
    await client.until((text) => text.includes('notifications/prompts/list_changed'));
    expect(events(client).map((event) => event['method'])).toEqual([
      'notifications/subscriptions/acknowledged',
      'notifications/prompts/list_changed',
    ]);
  });

  test('resource updates reach only streams watching that URI, and only URIs the catalog serves are honoured', {
    tags: ['threat-model'],
  }, async () => {
    const server = await serveListen();
    const client = await listen(9, {
      resourceSubscriptions: ['test://watched', 'test://items/42', 'test://nobody-serves-this'],
    });
    expect(events(client)[0]?.['params']).toEqual({
      notifications: { resourceSubscriptions: ['test://watched', 'test://items/42'] },
      _meta: { [SUBSCRIPTION_ID]: 9 },
    });
    server.notifyResourceUpdated('test://items/7');
    server.notifyResourceUpdated('test://items/42');
    await client.until((text) => text.includes('notifications/resources/updated'));
    await sleep(20);
    expect(events(client).slice(1)).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/resources/updated',
        params: { uri: 'test://items/42', _meta: { [SUBSCRIPTION_ID]: 9 } },
      },
    ]);
  });

  test('a listen filter naming 101 resource URIs is refused with -32602 and no stream is opened', {
    tags: ['threat-model'],
  }, async () => {
    await serveListen();
    const client = open();
    const uris = Array.from({ length: 101 }, (_, index) => `test://items/${index}`);
    const { body, headers } = modernRequest(3, 'subscriptions/listen', {
      notifications: { resourceSubscriptions: uris },
    });
    client.send(post(body, headers));
    const response = await client.response();
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(JSON.parse(response.body)).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: {
        code: -32602,
        message:
          'Invalid params: params.notifications.resourceSubscriptions must be an array of at most 100 URIs',
      },
    });
  });

  test('a listen filter that is not an object is refused with -32602', {
    tags: ['threat-model'],
  }, async () => {
    await serveListen();
    const client = open();
    const { body, headers } = modernRequest(4, 'subscriptions/listen', { notifications: true });
    client.send(post(body, headers));
    const response = await client.response();
    expect(JSON.parse(response.body)).toMatchObject({ id: 4, error: { code: -32602 } });
  });

  test('a listen request whose Accept does not admit text/event-stream is refused with 406 by name', {
    tags: ['threat-model'],
  }, async () => {
    await serveListen();
    const seen = refusals();
    const client = open();
    const { body, headers } = modernRequest(6, 'subscriptions/listen', { notifications: {} });
    client.send(post(body, { ...headers, Accept: 'application/json' }));
    const response = await client.response();
    expect(response.status).toBe(406);
    expect(JSON.parse(response.body)).toEqual({
      jsonrpc: '2.0',
      id: 6,
      error: {
        code: -32600,
        message: 'Invalid request: subscriptions/listen needs Accept to admit text/event-stream',
      },
    });
    expect(seen).toContainEqual({ rule: 'listen-needs-event-stream', status: 406, code: -32600 });
  });

  test('at its lifetime the server ends a listen stream with its result, tagged, and completes the response', {
    tags: ['threat-model'],
  }, async () => {
    await serveListen({ notifications: { toolsListChanged: true, listenLifetimeMs: 150 } });
    const client = await listen(12, { toolsListChanged: true });
    // The chunked body's terminator: the response is complete, not cut.
    await client.until((text) => text.endsWith('\r\n0\r\n\r\n'));
    const last = events(client).at(-1);
    expect(last).toEqual({
      jsonrpc: '2.0',
      id: 12,
      result: {
        resultType: 'complete',
        _meta: {
          [SUBSCRIPTION_ID]: 12,
          'io.modelcontextprotocol/serverInfo': { name: 'listen-fixture', version: '1.0.0' },
        },
      },
    });
  });

  test('a stream the client closed hears nothing more, and the next stream still does', {
    tags: ['threat-model'],
  }, async () => {
    const server = await serveListen();
    const first = await listen(1, { toolsListChanged: true });
    first.end();
    await first.closed;
    await sleep(20);
    const second = await listen(2, { toolsListChanged: true });
    server.notifyListChanged('tools');
    await second.until((text) => text.includes('notifications/tools/list_changed'));
    expect(events(second)).toHaveLength(2);
  });

  test('a quiet listen stream carries a keep-alive comment every 15,000 ms', {
    tags: ['threat-model'],
  }, async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    await serveListen();
    const client = await listen(8, { toolsListChanged: true });
    expect(client.text()).not.toContain('\n: keep-alive');
    vi.advanceTimersByTime(14_999);
    await sleep(20);
    expect(client.text()).not.toContain('\n: keep-alive');
    vi.advanceTimersByTime(1);
    await client.until((text) => text.includes(': keep-alive\n\n'));
    expect(client.text()).toContain(': keep-alive\n\n');
  });

  test('a client that stops reading is cut once 1,024 events wait behind unsent bytes', {
    tags: ['threat-model'],
  }, async () => {
    const server = await serveListen();
    const seen = refusals();
    const client = await listen(10, { resourceSubscriptions: ['test://watched'] });
    client.socket.pause();
    // Small events fill the kernel's buffers first; from then on each one waits in Node.
    for (let sent = 0; sent < 200_000 && !client.socket.destroyed; sent += 1) {
      server.notifyResourceUpdated('test://watched');
      if (seen.length > 0) break;
    }
    expect(seen).toContainEqual({ rule: 'sse-events-queued', status: 200, code: 0 });
    expect(seen).not.toContainEqual(expect.objectContaining({ rule: 'sse-queue-full' }));
  });
});
