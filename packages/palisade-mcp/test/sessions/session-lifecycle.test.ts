/**
 * HTTP sessions over a real socket (the node handler): what `initialize` issues, what every later
 * request must carry, who may use a session, how it ends, and each bound with its refusal.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { HttpLogEvent } from '../../src/http/http-options.js';
import { createServer, defineTool } from '../../src/index.js';
import { MemorySessionStore } from '../../src/sessions/memory-session-store.js';
import { HeldStore } from '../support/held-store.js';
import { exchange, post } from '../support/http-peer.js';
import { rejectionsDuring } from '../support/rejections.js';
import { type Endpoint, isReader, nodeEndpoint, SessionClient } from '../support/session-peer.js';
import { newProbe, sessionServer } from './session-server.js';

let endpoint: Endpoint | undefined;
afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
});

async function open(options: Parameters<typeof nodeEndpoint>[1] = {}, probe = newProbe()) {
  endpoint = await nodeEndpoint(sessionServer(probe), options);
  return { url: endpoint.url, probe };
}

function logged(): { events: HttpLogEvent[]; onLog: (event: HttpLogEvent) => void } {
  const events: HttpLogEvent[] = [];
  return { events, onLog: (event) => events.push(event) };
}

describe('initialize', () => {
  test('issues an Mcp-Session-Id of 32 base64url characters, a new one per session', {
    tags: ['threat-model'],
  }, async () => {
    const { url } = await open();
    const first = new SessionClient(url);
    const second = new SessionClient(url);
    const answer = await first.open();
    await second.open();
    expect(answer.status).toBe(200);
    expect(first.sessionId).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(Buffer.from(first.sessionId as string, 'base64url')).toHaveLength(24);
    expect(second.sessionId).not.toBe(first.sessionId);
  });

  test('answers the revision asked for and advertises list changes and subscriptions it can now deliver', async () => {
    const { url } = await open();
    const answer = await new SessionClient(url).open();
    expect(answer.json).toMatchObject({
      result: {
        protocolVersion: '2025-11-25',
        capabilities: { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true } },
      },
    });
  });

  test('without the sessions option issues no id and advertises no list changes', {
    tags: ['threat-model'],
  }, async () => {
    const { url } = await open({ sessions: undefined });
    const client = new SessionClient(url);
    const answer = await client.open();
    expect(answer.headers.get('mcp-session-id')).toBeNull();
    expect(answer.json).toMatchObject({
      result: {
        capabilities: { tools: { listChanged: false }, resources: { subscribe: false, listChanged: false } },
      },
    });
  });

  test('carrying an Mcp-Session-Id is refused: initialize starts a session', {
    tags: ['threat-model'],
  }, async () => {
    const { url } = await open();
    const client = new SessionClient(url);
    await client.open();
    const again = await client.post(
      client.message('initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'c', version: '1' },
      }),
    );
    expect(again.status).toBe(400);
    expect(again.headers.get('mcp-session-id')).toBeNull();
  });

  test('sent as a notification (no id) opens no session and is refused, the host hearing no fault', async () => {
    const faults: string[] = [];
    endpoint = await nodeEndpoint(sessionServer(newProbe()), {
      onFault: (description) => faults.push(description),
    });
    const client = new SessionClient(endpoint.url);
    const answer = await client.post(
      {
        jsonrpc: '2.0',
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'n', version: '1' } },
      },
      { sessionId: null },
    );
    expect(answer.status).toBe(400);
    expect(answer.headers.get('mcp-session-id')).toBeNull();
    expect(faults).toEqual([]);
  });

  test('that fails its params opens no session', async () => {
    const store = new MemorySessionStore();
    const { url } = await open({ sessions: { store } });
    const client = new SessionClient(url);
    const answer = await client.post(client.message('initialize', { protocolVersion: '2025-11-25' }), {
      sessionId: null,
    });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ error: { code: -32602 } });
    expect(answer.headers.get('mcp-session-id')).toBeNull();
    expect(store.size()).toBe(0);
  });
});

describe('the session id on later requests', () => {
  test('a request without it is 400 session-id-missing', { tags: ['threat-model'] }, async () => {
    const log = logged();
    const { url } = await open({ onLog: log.onLog });
    const client = new SessionClient(url);
    await client.open();
    const answer = await client.request('tools/list', undefined, { sessionId: null });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ error: { code: -32600 } });
    expect(log.events.map((event) => event.rule)).toContain('session-id-missing');
  });

  test('a malformed one is 400 before any lookup, and is never echoed', {
    tags: ['threat-model'],
  }, async () => {
    const store = new MemorySessionStore();
    let lookups = 0;
    const counting = Object.assign(Object.create(store) as MemorySessionStore, {
      open: (...args: Parameters<MemorySessionStore['open']>) => {
        lookups += 1;
        return store.open(...args);
      },
    });
    const { url } = await open({ sessions: { store: counting } });
    const client = new SessionClient(url);
    await client.open();
    lookups = 0;
    for (const bad of ['has space', 'x'.repeat(129), 'quote"d', 'semi;colon', 'ünï']) {
      const answer = await client.request('tools/list', undefined, {
        headers: { 'mcp-session-id': encodeURI(bad) === bad ? bad : 'percent%41' },
      });
      expect(answer.status).toBe(400);
      expect(answer.text).not.toContain(bad);
    }
    expect(lookups).toBe(0);
  });

  test('128 characters of the allowed alphabet pass the syntax check and are looked up', {
    tags: ['threat-model'],
  }, async () => {
    const { url } = await open();
    const client = new SessionClient(url);
    await client.open();
    const answer = await client.request('tools/list', undefined, { sessionId: `A._~+/=-${'z'.repeat(120)}` });
    expect(answer.status).toBe(404);
  });

  test('two Mcp-Session-Id lines are 400, even when both name the session', {
    tags: ['threat-model'],
  }, async () => {
    const { url } = await open();
    const client = new SessionClient(url);
    await client.open();
    const body = JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' });
    const reply = await exchange(
      Number(new URL(url).port),
      post(body, {
        'Mcp-Session-Id': [client.sessionId, client.sessionId],
        'MCP-Protocol-Version': '2025-11-25',
      }),
    );
    reply.client.end();
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Bad request: more than one Mcp-Session-Id' },
    });
  });

  test('one Mcp-Session-Id line listing the id twice is 400 as a malformed id', async () => {
    const { url } = await open();
    const client = new SessionClient(url);
    await client.open();
    const answer = await client.request('tools/list', undefined, {
      headers: { 'mcp-session-id': `${client.sessionId}, ${client.sessionId}` },
    });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.json)).toContain('must be 1 to');
  });

  test('a message with no method on a session is refused 400 -32600 as on the stateless path', async () => {
    const { url } = await open();
    const client = new SessionClient(url);
    await client.open();
    const answer = await client.post({ jsonrpc: '2.0', id: 4, params: {} });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ jsonrpc: '2.0', id: 4, error: { code: -32600 } });
  });

  test('an id never issued is 404', { tags: ['threat-model'] }, async () => {
    const { url } = await open();
    const client = new SessionClient(url);
    await client.open();
    const answer = await client.request('tools/list', undefined, { sessionId: 'A'.repeat(32) });
    expect(answer.status).toBe(404);
    expect(answer.json).toMatchObject({
      error: { code: -32600, message: 'Session not found: start a new one with initialize' },
    });
  });

  test('a GET, a DELETE and a client reply naming an id never issued are 404, and the host hears no fault', async () => {
    const faults: string[] = [];
    endpoint = await nodeEndpoint(sessionServer(newProbe()), {
      onFault: (description) => faults.push(description),
    });
    const client = new SessionClient(endpoint.url);
    const unknown = { sessionId: 'A'.repeat(32) };
    const got = await client.stream({}, unknown);
    expect(isReader(got) ? 200 : got.status).toBe(404);
    expect((await client.delete(unknown)).status).toBe(404);
    expect((await client.post({ jsonrpc: '2.0', id: 1, result: {} }, unknown)).status).toBe(404);
    expect(faults).toEqual([]);
  });

  test("another principal's id is 404, byte for byte as an unknown one", {
    tags: ['threat-model'],
  }, async () => {
    const log = logged();
    const { url } = await open({
      onLog: log.onLog,
      authorize: (request) => ({ ok: true, auth: { user: request.headers['x-user'] } }),
    });
    const alice = new SessionClient(url);
    await alice.open({}, { 'x-user': 'alice' });
    const stolen = await alice.request('tools/list', undefined, { headers: { 'x-user': 'mallory' } });
    const unknown = await alice.request('tools/list', undefined, {
      headers: { 'x-user': 'mallory' },
      sessionId: 'B'.repeat(32),
    });
    expect(stolen.status).toBe(404);
    expect(stolen.text).toBe(unknown.text);
    expect(log.events.map((event) => event.rule)).toEqual(
      expect.arrayContaining(['session-principal-mismatch', 'session-unknown']),
    );
    const own = await alice.request('tools/list', undefined, { headers: { 'x-user': 'alice' } });
    expect(own.status).toBe(200);
  });

  test('MCP-Protocol-Version naming another revision than the session agreed is 400', {
    tags: ['threat-model'],
  }, async () => {
    const { url } = await open();
    const client = new SessionClient(url);
    await client.open();
    const answer = await client.request('tools/list', undefined, {
      headers: { 'mcp-protocol-version': '2025-06-18' },
    });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ error: { code: -32022 } });
  });

  test('an MCP-Protocol-Version holding a byte past ASCII is 400, not read as no header', async () => {
    const { url } = await open();
    const client = new SessionClient(url);
    await client.open();
    const answer = await client.request('tools/list', undefined, {
      headers: { 'mcp-protocol-version': '2025-11-25\u00e9' },
    });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ error: { code: -32022 } });
  });

  test('an Mcp-Method a session request carries is held to its body: 400 -32020', async () => {
    const { url } = await open();
    const client = new SessionClient(url);
    await client.open();
    const answer = await client.request('tools/list', undefined, { headers: { 'mcp-method': 'tools/call' } });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ error: { code: -32020 } });
  });

  test('an Mcp-Name a session tools/call carries is read from its params: the same name is served, another is 400 -32020', async () => {
    const { url } = await open();
    const client = new SessionClient(url);
    await client.open();
    const call = { name: 'echo', arguments: { text: 'x' } };
    const same = await client.request('tools/call', call, {
      headers: { 'mcp-method': 'tools/call', 'mcp-name': 'echo' },
    });
    expect(same.status).toBe(200);
    const other = await client.request('tools/call', call, {
      headers: { 'mcp-method': 'tools/call', 'mcp-name': 'hold' },
    });
    expect(other.status).toBe(400);
    expect(other.json).toMatchObject({ error: { code: -32020 } });
  });

  test('an Mcp-Param header a session tools/call carries is held to the argument its tool declares', async () => {
    endpoint = await nodeEndpoint(
      createServer({
        name: 'regions',
        version: '1',
        tools: [
          defineTool<{ region: string }>({
            name: 'forecast',
            inputSchema: {
              type: 'object',
              properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
              required: ['region'],
            },
            handler: ({ region }) => ({ content: [{ type: 'text', text: region }] }),
          }),
        ],
      }),
      {},
    );
    const client = new SessionClient(endpoint.url);
    await client.open();
    const call = { name: 'forecast', arguments: { region: 'eu' } };
    const same = await client.request('tools/call', call, { headers: { 'mcp-param-region': 'eu' } });
    expect(same.status).toBe(200);
    const other = await client.request('tools/call', call, { headers: { 'mcp-param-region': 'us' } });
    expect(other.status).toBe(400);
    expect(other.json).toMatchObject({ error: { code: -32020 } });
  });

  test('without MCP-Protocol-Version a request runs under the revision the session agreed', async () => {
    const { url } = await open();
    const client = new SessionClient(url, '2025-06-18');
    await client.open();
    const answer = await client.post(
      client.message('tools/call', { name: 'echo', arguments: { text: 'x' } }),
      {
        headers: { 'mcp-protocol-version': '' },
      },
    );
    // An empty header is no revision: refused; absent is the session's own (below).
    expect(answer.status).toBe(400);
    const headers = client.headers();
    delete headers['mcp-protocol-version'];
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(client.message('tools/list')),
    });
    expect(response.status).toBe(200);
  });

  test('a body without _meta under a 2026-07-28 version header and no session id is refused -32602 naming _meta, not asked for a session id', async () => {
    const { url } = await open();
    const client = new SessionClient(url);
    const answer = await client.post(client.message('tools/list'), {
      sessionId: null,
      headers: { 'mcp-protocol-version': '2026-07-28' },
    });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ error: { code: -32602 } });
    expect(JSON.stringify(answer.json)).toContain('_meta');
  });

  test('a session request naming 2026-07-28 in its header but not in its body is held to the session: 400 -32022', async () => {
    const { url } = await open();
    const client = new SessionClient(url);
    await client.open();
    const answer = await client.request('tools/list', undefined, {
      headers: { 'mcp-protocol-version': '2026-07-28' },
    });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ error: { code: -32022 } });
  });

  test('a 2026-07-28 request is served statelessly, its Mcp-Session-Id ignored', {
    tags: ['threat-model'],
  }, async () => {
    const { url } = await open();
    const client = new SessionClient(url);
    await client.open();
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const answer = await client.post(client.message('tools/list', { _meta: meta }), {
      sessionId: 'not a session',
      headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('mcp-session-id')).toBeNull();
    expect(answer.json).toMatchObject({ result: { resultType: 'complete' } });
  });
});

describe('ending a session', () => {
  test('DELETE ends it: 204, then every request on it is 404', { tags: ['threat-model'] }, async () => {
    const { url } = await open();
    const client = new SessionClient(url);
    await client.open();
    expect((await client.delete()).status).toBe(204);
    expect((await client.request('tools/list')).status).toBe(404);
    expect((await client.delete()).status).toBe(404);
  });

  test('DELETE of another principal is 404 and leaves the session live', {
    tags: ['threat-model'],
  }, async () => {
    const { url } = await open({
      authorize: (request) => ({ ok: true, auth: { user: request.headers['x-user'] } }),
    });
    const alice = new SessionClient(url);
    await alice.open({}, { 'x-user': 'alice' });
    expect((await alice.delete({ headers: { 'x-user': 'mallory' } })).status).toBe(404);
    expect((await alice.request('tools/list', undefined, { headers: { 'x-user': 'alice' } })).status).toBe(
      200,
    );
  });

  test('without the sessions option DELETE and GET are 405, allowing POST only', {
    tags: ['threat-model'],
  }, async () => {
    const { url } = await open({ sessions: undefined });
    for (const method of ['DELETE', 'GET']) {
      const response = await fetch(url, {
        method,
        headers: { 'mcp-session-id': 'A'.repeat(32), accept: 'text/event-stream' },
      });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
  });

  test('with sessions another method is 405, allowing GET, POST and DELETE', async () => {
    const { url } = await open();
    const response = await fetch(url, { method: 'PUT', body: '{}' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, POST, DELETE');
  });

  test('a session idle for idleTimeoutMs is 404', { tags: ['threat-model'] }, async () => {
    // A second, not less: a shared machine must not expire the session between its first requests.
    const { url } = await open({ sessions: { idleTimeoutMs: 1_000 } });
    const client = new SessionClient(url);
    await client.open();
    expect((await client.request('tools/list')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await client.request('tools/list')).status).toBe(404);
  });

  test('a request keeps a session alive past idleTimeoutMs', { tags: ['threat-model'] }, async () => {
    const { url } = await open({ sessions: { idleTimeoutMs: 400 } });
    const client = new SessionClient(url);
    await client.open();
    for (let n = 0; n < 4; n += 1) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect((await client.request('tools/list')).status).toBe(200);
    }
  });

  test('an expired session is swept from the store without any request naming it', {
    tags: ['threat-model'],
  }, async () => {
    const store = new MemorySessionStore();
    const { url } = await open({ sessions: { idleTimeoutMs: 1_000, store } });
    await new SessionClient(url).open();
    expect(store.size()).toBe(1);
    await expect.poll(() => store.size(), { timeout: 5_000, interval: 100 }).toBe(0);
  });

  test('a store that fails while the sweep keeps an active session alive is a host fault, and the process serves on', {
    tags: ['threat-model'],
  }, async () => {
    const store = new HeldStore();
    const faults: string[] = [];
    let client: SessionClient | undefined;
    const rejections = await rejectionsDuring(async () => {
      const { url } = await open({
        sessions: { idleTimeoutMs: 1_000, store },
        onFault: (description) => faults.push(description),
      });
      client = new SessionClient(url);
      await client.open();
      // An open GET stream makes the session active: each sweep refreshes it in the store.
      const watching = await client.stream();
      if (!isReader(watching)) throw new Error(`expected a stream, got ${watching.status}`);
      const reads = store.hold('open');
      reads.fail(new Error('db down'));
      await expect
        .poll(() => faults, { timeout: 5_000, interval: 50 })
        .toContain('the session store failed to sweep');
      await watching.close();
    });
    expect(rejections).toEqual([]);
    store.unhold('open');
    expect((await client?.request('tools/list'))?.status).toBe(200);
  });
});

describe('bounds', () => {
  test('past maxSessions initialize is 503 with Retry-After, and every live session is still served', {
    tags: ['threat-model'],
  }, async () => {
    const log = logged();
    const { url } = await open({ sessions: { maxSessions: 2 }, onLog: log.onLog });
    const first = new SessionClient(url);
    const second = new SessionClient(url);
    await first.open();
    await second.open();
    const third = await new SessionClient(url).open();
    expect(third.status).toBe(503);
    expect(third.headers.get('retry-after')).toBe('60');
    expect(third.headers.get('mcp-session-id')).toBeNull();
    expect(log.events.map((event) => event.rule)).toContain('session-limit');
    expect((await first.request('tools/list')).status).toBe(200);
    expect((await second.request('tools/list')).status).toBe(200);
    await first.delete();
    expect((await new SessionClient(url).open()).status).toBe(200);
  });

  test('an initialize the store refuses to create, its count having raced past the limit, is 503 with Retry-After', async () => {
    const store = new MemorySessionStore();
    // Another process opened sessions between the count and the create: the count says room.
    store.size = () => 0;
    const { url } = await open({ sessions: { store, maxSessions: 1 } });
    expect((await new SessionClient(url).open()).status).toBe(200);
    const refused = await new SessionClient(url).open();
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(refused.headers.get('mcp-session-id')).toBeNull();
  });

  test('past maxRequestsInFlight a request is 429, and one finishing makes room', {
    tags: ['threat-model'],
  }, async () => {
    const probe = newProbe();
    const { url } = await open({ sessions: { maxRequestsInFlight: 2 } }, probe);
    const client = new SessionClient(url);
    await client.open();
    const held = [
      client.request('tools/call', { name: 'hold', arguments: { tag: 'a' } }),
      client.request('tools/call', { name: 'hold', arguments: { tag: 'b' } }),
    ];
    await probe.started('a');
    await probe.started('b');
    const third = await client.request('tools/call', { name: 'echo', arguments: { text: 'x' } });
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBe('1');
    probe.held.get('a')?.();
    await held[0];
    expect((await client.request('tools/call', { name: 'echo', arguments: { text: 'x' } })).status).toBe(200);
    probe.held.get('b')?.();
    await held[1];
  });

  test('a request id already in flight on the session is 400, and the first runs on', {
    tags: ['threat-model'],
  }, async () => {
    const probe = newProbe();
    const { url } = await open({}, probe);
    const client = new SessionClient(url);
    await client.open();
    const first = client.post(client.message('tools/call', { name: 'hold', arguments: { tag: 'a' } }, 77));
    await probe.started('a');
    const twin = await client.post(client.message('tools/list', undefined, 77));
    expect(twin.status).toBe(400);
    probe.held.get('a')?.();
    expect((await first).json).toMatchObject({ id: 77, result: { content: [{ text: 'released a' }] } });
  });

  test('the same request id on two sessions runs on both', async () => {
    const probe = newProbe();
    const { url } = await open({}, probe);
    const one = new SessionClient(url);
    const two = new SessionClient(url);
    await one.open();
    await two.open();
    const first = one.post(one.message('tools/call', { name: 'hold', arguments: { tag: 'a' } }, 5));
    await probe.started('a');
    const second = await two.post(two.message('tools/call', { name: 'echo', arguments: { text: 'two' } }, 5));
    expect(second.json).toMatchObject({ id: 5, result: { content: [{ text: 'two' }] } });
    probe.held.get('a')?.();
    await first;
  });
});

describe('state a session keeps', () => {
  test('logging/setLevel holds for later requests of that session only', async () => {
    const { url } = await open();
    const quiet = new SessionClient(url);
    const loud = new SessionClient(url);
    await quiet.open();
    await loud.open();
    expect((await quiet.request('logging/setLevel', { level: 'error' })).json).toMatchObject({ result: {} });
    await loud.request('logging/setLevel', { level: 'debug' });
    const call = { name: 'chatty', arguments: { count: 2 } };
    const quietAnswer = await quiet.request('tools/call', call);
    const loudAnswer = await loud.request('tools/call', call);
    const logs = (events: readonly { message?: Record<string, unknown> }[]) =>
      events.filter((event) => event.message?.['method'] === 'notifications/message').length;
    expect(quietAnswer.headers.get('content-type')).toBe('application/json');
    expect(logs(loudAnswer.events)).toBe(3);
  });

  test('an unknown method on the session is 404 -32601, as on the stateless path', async () => {
    const { url } = await open();
    const client = new SessionClient(url);
    await client.open();
    const answer = await client.request('no/such');
    expect(answer.status).toBe(404);
    expect(answer.json).toMatchObject({ error: { code: -32601 } });
  });
});

describe('the option', () => {
  test('is checked at construction: an unknown key throws naming it', {
    tags: ['threat-model'],
  }, async () => {
    await expect(nodeEndpoint(sessionServer(), { sessions: { maxSesions: 3 } as never })).rejects.toThrow(
      /sessions\.maxSesions/,
    );
  });

  test('a store missing a method throws naming it', async () => {
    await expect(
      nodeEndpoint(sessionServer(), { sessions: { store: { create() {} } as never } }),
    ).rejects.toThrow(/sessions\.store\.open/);
  });

  test('a bound out of range throws naming it', { tags: ['threat-model'] }, async () => {
    await expect(nodeEndpoint(sessionServer(), { sessions: { maxSessions: 0 } })).rejects.toThrow(
      /sessions\.maxSessions/,
    );
  });

  test('a principal that cannot be named is a host fault answered 500, and opens nothing', async () => {
    const faults: string[] = [];
    const server = createServer({
      name: 's',
      version: '1',
      tools: [defineTool({ name: 't', inputSchema: { type: 'object' }, handler: () => ({ content: [] }) })],
    });
    const store = new MemorySessionStore();
    endpoint = await nodeEndpoint(server, {
      authorize: () => ({ ok: true, auth: { handle: () => 1 } }),
      onFault: (description) => faults.push(description),
      sessions: { store },
    });
    const answer = await new SessionClient(endpoint.url).open();
    expect(answer.status).toBe(500);
    expect(faults).toEqual(['sessions.principal failed to name the principal']);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(store.size()).toBe(0);
  });
  test('a later request whose principal cannot be named is 500 by that name alone, and the session serves on', async () => {
    const faults: string[] = [];
    const events: HttpLogEvent[] = [];
    endpoint = await nodeEndpoint(sessionServer(newProbe()), {
      authorize: (req) =>
        req.headers['x-unnameable'] === undefined ? { ok: true } : { ok: true, auth: { handle: () => 1 } },
      onFault: (description) => faults.push(description),
      onLog: (event) => events.push(event),
    });
    const client = new SessionClient(endpoint.url);
    await client.open();
    const refused = await client.request('tools/list', undefined, { headers: { 'x-unnameable': '1' } });
    expect(refused.status).toBe(500);
    expect(faults).toEqual(['sessions.principal failed to name the principal']);
    expect(events.map((event) => event.rule)).toEqual(['session-principal-fault']);
    expect((await client.request('tools/list')).status).toBe(200);
  });
});

describe('a GET', () => {
  test('without Accept text/event-stream is 406', async () => {
    const { url } = await open();
    const client = new SessionClient(url);
    await client.open();
    const answer = await client.stream({ accept: 'application/json' });
    expect(isReader(answer)).toBe(false);
    if (!isReader(answer)) expect(answer.status).toBe(406);
  });
});
