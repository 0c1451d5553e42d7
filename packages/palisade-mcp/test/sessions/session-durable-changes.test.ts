/**
 * What a request changes in its session (a subscription, `notifications/initialized`, its end by
 * DELETE) is stored before it is acknowledged: behind a load balancer the client's next request
 * may reach another process, which knows the session only from the store. A store that records
 * slowly delays the answer; one that fails turns it into a refusal, never into the handler's
 * success, and a change the store refused is not heard here either. The store's calls are held
 * by the test (support/held-store.ts), so the order is the test's, not the machine's.
 */
import { connect } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import type { HttpLogEvent } from '../../src/http/http-options.js';
import type { Server } from '../../src/index.js';
import { MemoryEventStore } from '../../src/sessions/memory-event-store.js';
import { MemoryRelay } from '../../src/sessions/memory-relay.js';
import { MemorySessionStore } from '../../src/sessions/memory-session-store.js';
import { UnavailableError } from '../../src/unavailable.js';
import { HeldStore } from '../support/held-store.js';
import { post } from '../support/http-peer.js';
import { rejectionsDuring } from '../support/rejections.js';
import {
  type Answer,
  type Endpoint,
  type EndpointOptions,
  type EventReader,
  isReader,
  nodeEndpoint,
  SessionClient,
} from '../support/session-peer.js';
import { sessionServer } from './session-server.js';

let endpoint: Endpoint | undefined;
afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
});

async function open(options: EndpointOptions): Promise<{ url: string; server: Server }> {
  const server = sessionServer();
  endpoint = await nodeEndpoint(server, options);
  return { url: endpoint.url, server };
}

/** A held store, an endpoint on it, and a client whose session is open (initialized). */
async function sessionOnHeldStore(
  options: Omit<EndpointOptions, 'sessions'> = {},
): Promise<{ store: HeldStore; client: SessionClient; server: Server }> {
  const store = new HeldStore();
  const { url, server } = await open({ ...options, sessions: { store } });
  const client = new SessionClient(url);
  await client.open();
  return { store, client, server };
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether `answer` settled within `ms`: a held store must keep it waiting. */
async function answeredWithin(answer: Promise<unknown>, ms: number): Promise<boolean> {
  let settled = false;
  void answer.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  await pause(ms);
  return settled;
}

async function stream(client: SessionClient): Promise<EventReader> {
  const opened = await client.stream();
  if (!isReader(opened)) throw new Error(`expected a stream, got ${opened.status}`);
  await opened.next(); // the priming event
  return opened;
}

const UPDATED = {
  jsonrpc: '2.0',
  method: 'notifications/resources/updated',
  params: { uri: 'test://watched' },
};

const unreachable = () =>
  new UnavailableError({ rule: 'store-unavailable', retryAfterSeconds: 7, message: 'the store is down' });

describe('a store whose reads answer later', () => {
  test('admits a GET and a DELETE of a live session, and refuses one it no longer holds with 404', async () => {
    const { store, client } = await sessionOnHeldStore();
    store.hold('open').release();
    const rejections = await rejectionsDuring(async () => {
      const watching = await stream(client);
      await watching.close();
      expect((await client.delete()).status).toBe(204);
      expect((await client.delete()).status).toBe(404);
    });
    expect(store.size()).toBe(0);
    expect(rejections).toEqual([]);
  });
});

describe('a change to a session is stored before it is acknowledged', () => {
  test('a subscription is answered only once the store has recorded it, and is heard by the GET stream opened next', {
    tags: ['threat-model'],
  }, async () => {
    const { store, client, server } = await sessionOnHeldStore();
    const gate = store.hold('update');
    const subscribed = client.request('resources/subscribe', { uri: 'test://watched' });
    await gate.arrived();
    expect(await answeredWithin(subscribed, 200)).toBe(false);
    gate.release();
    expect((await subscribed).json).toMatchObject({ result: {} });
    expect(store.applied).toContainEqual({ subscriptions: ['test://watched'] });
    const watching = await stream(client);
    try {
      server.notifyResourceUpdated('test://watched');
      expect((await watching.next())?.message).toEqual(UPDATED);
    } finally {
      await watching.close();
    }
  });

  test('a request writes to the store only what it changed: nothing for a read, the subscription alone for a subscribe', async () => {
    const { store, client } = await sessionOnHeldStore();
    expect((await client.request('logging/setLevel', { level: 'info' })).status).toBe(200);
    expect(store.applied.at(-1)).toEqual({ logLevel: 'info' });
    const written = store.applied.length;
    expect((await client.request('tools/list')).status).toBe(200);
    expect(store.applied.length).toBe(written);
    expect((await client.request('resources/subscribe', { uri: 'test://watched' })).status).toBe(200);
    expect(store.applied.slice(written)).toEqual([{ subscriptions: ['test://watched'] }]);
  });

  test('notifications/initialized is answered 202 only once the store has recorded it', async () => {
    const store = new HeldStore();
    const gate = store.hold('update');
    const { url } = await open({ sessions: { store } });
    const client = new SessionClient(url);
    // open() sends notifications/initialized and waits for its 202.
    const opened = client.open();
    await gate.arrived();
    expect(await answeredWithin(opened, 200)).toBe(false);
    gate.release();
    await opened;
    expect(store.applied).toEqual([{ initialized: true }]);
  });

  test('DELETE is answered 204 only once the store no longer holds the session', {
    tags: ['threat-model'],
  }, async () => {
    const { store, client } = await sessionOnHeldStore();
    const gate = store.hold('delete');
    const deleted = client.delete();
    await gate.arrived();
    expect(await answeredWithin(deleted, 200)).toBe(false);
    expect(store.size()).toBe(1);
    gate.release();
    expect((await deleted).status).toBe(204);
    expect(store.size()).toBe(0);
  });

  test('a subscription stored while another request of the session was being admitted is still heard here', async () => {
    const { store, client, server } = await sessionOnHeldStore();
    const watching = await stream(client);
    try {
      const updates = store.hold('update');
      const subscribed = client.request('resources/subscribe', { uri: 'test://watched' });
      await updates.arrived();
      // A second request reads the session before the subscription lands, and its read arrives after.
      const reads = store.hold('open');
      const listed = client.request('tools/list');
      await reads.arrived();
      updates.release();
      expect((await subscribed).json).toMatchObject({ result: {} });
      reads.release();
      expect((await listed).status).toBe(200);
      server.notifyResourceUpdated('test://watched');
      expect((await watching.next())?.message).toEqual(UPDATED);
    } finally {
      await watching.close();
    }
  });

  test('a cancel that arrives once the request has run, its change being stored, is too late: the answer is sent', async () => {
    const { store, client } = await sessionOnHeldStore();
    const gate = store.hold('update');
    const subscribed = client.post(client.message('resources/subscribe', { uri: 'test://watched' }, 41), {
      accept: 'application/json',
    });
    await gate.arrived();
    expect((await client.notify('notifications/cancelled', { requestId: 41 })).status).toBe(202);
    gate.release();
    const answer = await subscribed;
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ jsonrpc: '2.0', id: 41, result: {} });
  });
});

describe('a change the store cannot record', () => {
  test('a subscription the store cannot record for now is 503 with its Retry-After and rule, not a result', {
    tags: ['threat-model'],
  }, async () => {
    const events: HttpLogEvent[] = [];
    const { store, client } = await sessionOnHeldStore({ onLog: (event) => events.push(event) });
    store.hold('update').fail(unreachable());
    const answer = await client.request('resources/subscribe', { uri: 'test://watched' });
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('7');
    expect(answer.json).toMatchObject({ error: { code: -32603, message: 'Service unavailable' } });
    expect(answer.json?.['result']).toBeUndefined();
    expect(events.map((event) => event.rule)).toContain('store-unavailable');
  });

  test('a subscription the store fails to record is 503 session-store-fault, and the host hears the fault', {
    tags: ['threat-model'],
  }, async () => {
    const events: HttpLogEvent[] = [];
    const faults: string[] = [];
    const { store, client } = await sessionOnHeldStore({
      onLog: (event) => events.push(event),
      onFault: (description) => faults.push(description),
    });
    store.hold('update').fail(new Error('disk full'));
    const answer = await client.request('resources/subscribe', { uri: 'test://watched' });
    expect(answer.status).toBe(503);
    expect(answer.text).not.toContain('disk full');
    expect(answer.json).toMatchObject({ error: { code: -32603, message: 'Service unavailable' } });
    expect(events.map((event) => event.rule)).toContain('session-store-fault');
    expect(faults).toContain('the session store failed to record a change');
  });

  test('a change that fails to store after its client left is answered to nobody, and no refusal is told of', async () => {
    const events: HttpLogEvent[] = [];
    const { store, client } = await sessionOnHeldStore({ onLog: (event) => events.push(event) });
    const gate = store.hold('update');
    const body = JSON.stringify(client.message('resources/subscribe', { uri: 'test://watched' }, 50));
    const socket = connect(Number(new URL(endpoint?.url ?? '').port), '127.0.0.1');
    socket.on('error', () => {});
    socket.write(
      post(body, {
        'Mcp-Session-Id': client.sessionId,
        'MCP-Protocol-Version': '2025-11-25',
        Accept: 'application/json',
      }),
    );
    await gate.arrived();
    socket.destroy();
    await pause(50);
    gate.fail(unreachable());
    await pause(50);
    expect(events.map((event) => event.rule)).not.toContain('store-unavailable');
  });

  test('a subscription the store refused is not heard on this process either', async () => {
    const { store, client, server } = await sessionOnHeldStore();
    const watching = await stream(client);
    try {
      store.hold('update').fail(unreachable());
      expect((await client.request('resources/subscribe', { uri: 'test://watched' })).status).toBe(503);
      server.notifyResourceUpdated('test://watched');
      server.notifyListChanged('tools');
      // The list change arrives; the update of the URI the store never recorded does not.
      expect((await watching.next())?.message?.['method']).toBe('notifications/tools/list_changed');
    } finally {
      await watching.close();
    }
  });

  test('notifications/initialized the store cannot record is 503, not 202', {
    tags: ['threat-model'],
  }, async () => {
    const store = new HeldStore();
    store.hold('update').fail(unreachable());
    const { url } = await open({ sessions: { store } });
    await expect(new SessionClient(url).open()).rejects.toThrow('initialized answered 503');
  });

  test('a DELETE the store cannot carry out is 503, and the session can still be resumed', async () => {
    const { store, client } = await sessionOnHeldStore();
    const first = await client.stream();
    if (!isReader(first)) throw new Error(`expected a stream, got ${first.status}`);
    const priming = await first.next();
    await first.close();
    store.hold('delete').fail(unreachable());
    const answer: Answer = await client.delete();
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('7');
    expect(store.size()).toBe(1);
    // Its kept events were not dropped: a resume from the priming event is no last-event-id-unknown.
    const resumed = await client.stream({ 'last-event-id': priming?.id ?? '' });
    expect(isReader(resumed) ? 200 : resumed.status).toBe(200);
    if (isReader(resumed)) await resumed.close();
  });
});

describe('a store that throws instead of answering', () => {
  const acts: [string, string, (client: SessionClient) => Promise<Answer>][] = [
    ['open', 'the session store failed', (client) => client.request('tools/list')],
    [
      'update',
      'the session store failed to record a change',
      (client) => client.request('resources/subscribe', { uri: 'test://watched' }),
    ],
    ['delete', 'the session store failed', (client) => client.delete()],
  ];

  test.each(acts)(
    'a throwing %s is 503, heard by the host as "%s", and the session serves on once it recovers',
    async (method, fault, act) => {
      const faults: string[] = [];
      const { store, client } = await sessionOnHeldStore({
        onFault: (description) => faults.push(description),
      });
      const name = method as 'open' | 'update' | 'delete';
      const real = store[name];
      Object.assign(store, {
        [name]: () => {
          throw new Error('driver bug at 10.0.0.5');
        },
      });
      const answer = await act(client);
      expect(answer.status).toBe(503);
      expect(answer.text).not.toContain('10.0.0.5');
      expect(faults).toEqual([fault]);
      Object.assign(store, { [name]: real });
      expect((await client.request('tools/list')).status).toBe(200);
    },
  );

  test('a throwing update of notifications/initialized is 503, not 202, and heard by the host', async () => {
    const faults: string[] = [];
    const { store } = await sessionOnHeldStore({ onFault: (description) => faults.push(description) });
    store.update = () => {
      throw new Error('driver bug');
    };
    const other = new SessionClient(endpoint?.url ?? '');
    await expect(other.open()).rejects.toThrow('initialized answered 503');
    expect(faults).toEqual(['the session store failed']);
  });

  test('a throwing size is 503 for the initialize, heard by the host, and opens nothing', async () => {
    const faults: string[] = [];
    const { store } = await sessionOnHeldStore({ onFault: (description) => faults.push(description) });
    store.size = () => {
      throw new Error('driver bug');
    };
    const other = new SessionClient(endpoint?.url ?? '');
    const answer = await other.open();
    expect(answer.status).toBe(503);
    expect(other.sessionId).toBeUndefined();
    expect(faults).toEqual(['the session store failed']);
  });

  test('a throwing create is 503 for the initialize, heard by the host, and opens nothing', async () => {
    const faults: string[] = [];
    const { store } = await sessionOnHeldStore({ onFault: (description) => faults.push(description) });
    store.create = () => {
      throw new Error('driver bug');
    };
    const other = new SessionClient(endpoint?.url ?? '');
    const answer = await other.open();
    expect(answer.status).toBe(503);
    expect(other.sessionId).toBeUndefined();
    expect(faults).toEqual(['the session store failed']);
    expect(store.size()).toBe(1);
  });
});

describe('two processes on one store', () => {
  test('a subscription made through the other process is heard here once this process next reads the session', async () => {
    const shared = {
      store: new MemorySessionStore(),
      events: new MemoryEventStore(),
      relay: new MemoryRelay(),
    };
    const { url, server } = await open({ sessions: shared });
    const other = await nodeEndpoint(sessionServer(), { sessions: shared });
    const here = new SessionClient(url);
    await here.open();
    const watching = await stream(here);
    try {
      const there = new SessionClient(other.url);
      there.sessionId = here.sessionId;
      expect((await there.request('resources/subscribe', { uri: 'test://watched' })).status).toBe(200);
      expect((await here.request('tools/list')).status).toBe(200);
      server.notifyResourceUpdated('test://watched');
      expect((await watching.next())?.message).toEqual(UPDATED);
    } finally {
      await watching.close();
      await other.close();
    }
  });
  test('a stream whose call ended on the other process replays to its end there and closes', async () => {
    const shared = {
      store: new MemorySessionStore(),
      events: new MemoryEventStore(),
      relay: new MemoryRelay(),
    };
    const { url } = await open({ sessions: shared });
    const other = await nodeEndpoint(sessionServer(), { sessions: shared });
    try {
      const here = new SessionClient(url);
      await here.open();
      await here.request('logging/setLevel', { level: 'info' });
      const call = await here.postStream(
        here.message('tools/call', { name: 'chatty', arguments: { count: 1 } }, 60),
      );
      if (!isReader(call)) throw new Error(`expected a stream, got ${call.status}`);
      const priming = await call.next();
      await call.rest();
      const there = new SessionClient(other.url);
      there.sessionId = here.sessionId;
      const replay = await there.stream({ 'last-event-id': priming?.id as string });
      if (!isReader(replay)) throw new Error(`expected a stream, got ${replay.status}`);
      expect(
        (await replay.rest()).map((event) => event.message?.['method'] ?? event.message?.['id']),
      ).toEqual(['notifications/message', 60]);
    } finally {
      await other.close();
    }
  });
});
