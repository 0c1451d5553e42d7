/**
 * What a request changes in its session (a subscription, `notifications/initialized`, its end by
 * DELETE) is stored before it is acknowledged: behind a load balancer the client's next request may reach another
 * process, which knows the session only from the store. A store that records slowly delays the
 * answer; one that fails turns it into a refusal, never into the handler's success.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { HttpLogEvent } from '../../src/http/http-options.js';
import type { Server } from '../../src/index.js';
import type { SessionChange } from '../../src/sessions/contracts.js';
import { MemorySessionStore } from '../../src/sessions/memory-session-store.js';
import { UnavailableError } from '../../src/unavailable.js';
import {
  type Endpoint,
  type EndpointOptions,
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

/** A memory store whose `update` lands `delayMs` after it is asked, as a database's would. */
class SlowStore extends MemorySessionStore {
  readonly applied: SessionChange[] = [];
  readonly #delayMs: number;

  constructor(delayMs: number) {
    super();
    this.#delayMs = delayMs;
  }

  override update(id: string, change: SessionChange): Promise<void> {
    return new Promise((resolve) =>
      setTimeout(() => {
        super.update(id, change);
        this.applied.push(change);
        resolve();
      }, this.#delayMs),
    );
  }

  override delete(id: string): Promise<boolean> {
    return new Promise((resolve) => setTimeout(() => resolve(super.delete(id)), this.#delayMs));
  }
}

/** A memory store whose `update` fails with `failure` once `failing` is set. */
class FailingStore extends MemorySessionStore {
  failing = false;
  readonly #failure: () => Error;

  constructor(failure: () => Error) {
    super();
    this.#failure = failure;
  }

  override update(id: string, change: SessionChange): Promise<void> {
    if (this.failing) return Promise.reject(this.#failure());
    super.update(id, change);
    return Promise.resolve();
  }

  override delete(id: string): Promise<boolean> {
    if (this.failing) return Promise.reject(this.#failure());
    return Promise.resolve(super.delete(id));
  }
}

const unreachable = () =>
  new UnavailableError({ rule: 'store-unavailable', retryAfterSeconds: 7, message: 'the store is down' });

describe('a change to a session is stored before it is acknowledged', () => {
  test('a subscription answered on a slow store is heard by the GET stream opened next', {
    tags: ['threat-model'],
  }, async () => {
    const store = new SlowStore(150);
    const { url, server } = await open({ sessions: { store } });
    const client = new SessionClient(url);
    await client.open();
    const subscribed = await client.request('resources/subscribe', { uri: 'test://watched' });
    expect(subscribed.json).toMatchObject({ result: {} });
    const stream = await client.stream();
    if (!isReader(stream)) throw new Error(`expected a stream, got ${stream.status}`);
    try {
      await stream.next();
      server.notifyResourceUpdated('test://watched');
      expect((await stream.next())?.message).toEqual({
        jsonrpc: '2.0',
        method: 'notifications/resources/updated',
        params: { uri: 'test://watched' },
      });
    } finally {
      await stream.close();
    }
  });

  test('notifications/initialized is answered 202 only once the store has recorded it', async () => {
    const store = new SlowStore(150);
    const { url } = await open({ sessions: { store } });
    const client = new SessionClient(url);
    // open() sends notifications/initialized and waits for its 202.
    await client.open();
    expect(store.applied).toContainEqual({ initialized: true });
  });

  test('a subscription the store cannot record for now is 503 with its Retry-After and rule, not a result', {
    tags: ['threat-model'],
  }, async () => {
    const store = new FailingStore(unreachable);
    const events: HttpLogEvent[] = [];
    const { url } = await open({ sessions: { store }, onLog: (event) => events.push(event) });
    const client = new SessionClient(url);
    await client.open();
    store.failing = true;
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
    const store = new FailingStore(() => new Error('disk full'));
    const events: HttpLogEvent[] = [];
    const faults: string[] = [];
    const { url } = await open({
      sessions: { store },
      onLog: (event) => events.push(event),
      onFault: (description) => faults.push(description),
    });
    const client = new SessionClient(url);
    await client.open();
    store.failing = true;
    const answer = await client.request('resources/subscribe', { uri: 'test://watched' });
    expect(answer.status).toBe(503);
    expect(answer.text).not.toContain('disk full');
    expect(answer.json).toMatchObject({ error: { code: -32603, message: 'Service unavailable' } });
    expect(events.map((event) => event.rule)).toContain('session-store-fault');
    expect(faults).toContain('the session store failed to record a change');
  });

  test('DELETE is answered 204 only once the store no longer holds the session', {
    tags: ['threat-model'],
  }, async () => {
    const store = new SlowStore(150);
    const { url } = await open({ sessions: { store } });
    const client = new SessionClient(url);
    await client.open();
    expect(store.size()).toBe(1);
    expect((await client.delete()).status).toBe(204);
    expect(store.size()).toBe(0);
  });

  test('a DELETE the store cannot carry out is 503, not 204', async () => {
    const store = new FailingStore(unreachable);
    const { url } = await open({ sessions: { store } });
    const client = new SessionClient(url);
    await client.open();
    store.failing = true;
    const answer = await client.delete();
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('7');
    expect(store.size()).toBe(1);
  });

  test('notifications/initialized the store cannot record is 503, not 202', {
    tags: ['threat-model'],
  }, async () => {
    const store = new FailingStore(unreachable);
    const { url } = await open({ sessions: { store } });
    const client = new SessionClient(url);
    store.failing = true;
    await expect(client.open()).rejects.toThrow('initialized answered 503');
  });
});
