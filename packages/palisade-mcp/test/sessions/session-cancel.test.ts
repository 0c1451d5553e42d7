/**
 * Cancellation on a session, over a real socket: `notifications/cancelled` aborts the named
 * request's signal and nothing more is sent for it, its answer included; it reaches only that
 * request of that session. A disconnect is still no cancel (2025-11-25), and ending the session
 * aborts what runs on it.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { SessionRelay } from '../../src/sessions/contracts.js';
import { MemoryRelay } from '../../src/sessions/memory-relay.js';
import { UnavailableError } from '../../src/unavailable.js';
import type { RequestId } from '../../src/wire/jsonrpc.js';
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
import { newProbe, type Probe, sessionServer } from './session-server.js';

let endpoint: Endpoint | undefined;
afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
});

async function open(options: EndpointOptions = {}, probe: Probe = newProbe()) {
  endpoint = await nodeEndpoint(sessionServer(probe), options);
  return { url: endpoint.url, probe };
}

function reader(value: EventReader | Answer): EventReader {
  if (!isReader(value)) throw new Error(`expected a stream, got ${value.status} ${value.text}`);
  return value;
}

const settle = (ms = 100): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('notifications/cancelled on a session', () => {
  test("fires the named request's signal, and its stream ends with no answer", {
    tags: ['threat-model'],
  }, async () => {
    const probe = newProbe();
    const { url } = await open({}, probe);
    const client = new SessionClient(url);
    await client.open();
    const call = reader(
      await client.postStream(
        client.message('tools/call', { name: 'hold', arguments: { tag: 'c', say: true } }, 21),
      ),
    );
    await call.next();
    await call.next();
    const cancelled = await client.notify('notifications/cancelled', { requestId: 21, reason: 'user' });
    expect(cancelled.status).toBe(202);
    const rest = await call.rest();
    expect(rest).toEqual([]);
    expect(probe.aborted).toEqual(['c']);
  });

  test('answers a POST not yet streaming with an empty stream, never the result', async () => {
    const probe = newProbe();
    const { url } = await open({}, probe);
    const client = new SessionClient(url);
    await client.open();
    const pending = client
      .request('tools/call', { name: 'hold', arguments: { tag: 'q' } }, {})
      .then((answer) => answer);
    const id = 2; // open() used 1; the hold is the next request
    await probe.started('q');
    await client.notify('notifications/cancelled', { requestId: id });
    const answer = await pending;
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/event-stream');
    expect(answer.events).toEqual([]);
    expect(probe.aborted).toEqual(['q']);
  });

  test('answers a JSON-only POST with 204 and no body', async () => {
    const probe = newProbe();
    const { url } = await open({}, probe);
    const client = new SessionClient(url);
    await client.open();
    const pending = client.request(
      'tools/call',
      { name: 'hold', arguments: { tag: 'j' } },
      { accept: 'application/json' },
    );
    await probe.started('j');
    await client.notify('notifications/cancelled', { requestId: 2 });
    const answer = await pending;
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
  });

  test('nothing a handler sends once cancelled reaches the client, on the GET stream either', async () => {
    const probe = newProbe();
    const { url } = await open({}, probe);
    const client = new SessionClient(url);
    await client.open();
    await client.request('logging/setLevel', { level: 'info' });
    const stream = reader(await client.stream());
    await stream.next(); // the priming event
    const pending = client.request(
      'tools/call',
      { name: 'hold', arguments: { tag: 'n', sayAfter: true } },
      { accept: 'application/json' },
    );
    await probe.started('n');
    await client.notify('notifications/cancelled', { requestId: 3 });
    expect((await pending).status).toBe(204);
    expect(probe.aborted).toEqual(['n']);
    await expect(stream.next(300)).rejects.toThrow('no event in time');
    await stream.close();
  });

  test('a cancelled call that ends later leaves alone a new call that took its id', async () => {
    const probe = newProbe();
    const { url } = await open({}, probe);
    const client = new SessionClient(url);
    await client.open();
    const json = { accept: 'application/json' };
    const first = client.post(
      client.message('tools/call', { name: 'hold', arguments: { tag: 'a', stubborn: true } }, 40),
      json,
    );
    await probe.started('a');
    await client.notify('notifications/cancelled', { requestId: 40 });
    expect((await first).status).toBe(204);
    const second = client.post(
      client.message('tools/call', { name: 'hold', arguments: { tag: 'b' } }, 40),
      json,
    );
    await probe.started('b');
    // The first handler ends only now, its answer long refused: the session must not take it for the second.
    probe.held.get('a')?.();
    await settle(50);
    await client.notify('notifications/cancelled', { requestId: 40 });
    expect((await second).status).toBe(204);
    expect(probe.aborted).toEqual(['a', 'b']);
  });

  test('reaches only the request it names: another of the session runs on', async () => {
    const probe = newProbe();
    const { url } = await open({}, probe);
    const client = new SessionClient(url);
    await client.open();
    const first = client.post(client.message('tools/call', { name: 'hold', arguments: { tag: 'one' } }, 'a'));
    const second = client.post(
      client.message('tools/call', { name: 'hold', arguments: { tag: 'two' } }, 'b'),
    );
    await probe.started('one');
    await probe.started('two');
    await client.notify('notifications/cancelled', { requestId: 'a' });
    await first;
    expect(probe.aborted).toEqual(['one']);
    probe.held.get('two')?.();
    expect((await second).json).toMatchObject({ id: 'b', result: { content: [{ text: 'released two' }] } });
  });

  test('reaches no request of another session, even one with the same id', {
    tags: ['threat-model'],
  }, async () => {
    const probe = newProbe();
    const { url } = await open({}, probe);
    const victim = new SessionClient(url);
    const attacker = new SessionClient(url);
    await victim.open();
    await attacker.open();
    const call = victim.post(victim.message('tools/call', { name: 'hold', arguments: { tag: 'v' } }, 7));
    await probe.started('v');
    expect((await attacker.notify('notifications/cancelled', { requestId: 7 })).status).toBe(202);
    await settle();
    expect(probe.aborted).toEqual([]);
    probe.held.get('v')?.();
    expect((await call).json).toMatchObject({ id: 7, result: { content: [{ text: 'released v' }] } });
  });

  test('naming a number does not cancel the request whose id is that string', async () => {
    const probe = newProbe();
    const { url } = await open({}, probe);
    const client = new SessionClient(url);
    await client.open();
    const call = client.post(client.message('tools/call', { name: 'hold', arguments: { tag: 's' } }, '5'));
    await probe.started('s');
    await client.notify('notifications/cancelled', { requestId: 5 });
    await settle();
    expect(probe.aborted).toEqual([]);
    probe.held.get('s')?.();
    await call;
  });

  test('an unknown or finished id is ignored, 202, and the host hears no fault', async () => {
    const faults: string[] = [];
    const { url } = await open({ onFault: (description) => faults.push(description) });
    const client = new SessionClient(url);
    await client.open();
    // An open GET stream keeps the session live in this process while the cancels arrive.
    const stream = reader(await client.stream());
    await client.request('tools/list');
    expect((await client.notify('notifications/cancelled', { requestId: 1 })).status).toBe(202);
    expect((await client.notify('notifications/cancelled', { requestId: 999 })).status).toBe(202);
    expect((await client.request('tools/list')).status).toBe(200);
    expect(faults).toEqual([]);
    await stream.close();
  });
});

/** A relay given to the host, as another process's would be: a MemoryRelay with its own `cancel`. */
function relayWith(
  cancel: (relay: MemoryRelay, session: string, request: RequestId) => void | Promise<void>,
): SessionRelay {
  const relay = new MemoryRelay();
  return {
    wait: (session, deadline) => relay.wait(session, deadline),
    deliver: (session, reply) => relay.deliver(session, reply),
    onCancel: (session, request, abort) => relay.onCancel(session, request, abort),
    cancel: (session, request) => cancel(relay, session, request),
    endSession: (session) => relay.endSession(session),
  };
}

describe('a cancel and the relay the host was given', () => {
  test('the relay carries the cancel to the other processes, and the call here is aborted', async () => {
    const carried: unknown[] = [];
    const counting = relayWith((relay, session, request) => {
      carried.push(request);
      relay.cancel(session, request);
    });
    const probe = newProbe();
    const faults: string[] = [];
    const { url } = await open(
      { sessions: { relay: counting }, onFault: (description) => faults.push(description) },
      probe,
    );
    const client = new SessionClient(url);
    await client.open();
    const call = client.postStream(
      client.message('tools/call', { name: 'hold', arguments: { tag: 'r' } }, 31),
    );
    await probe.started('r');
    expect((await client.notify('notifications/cancelled', { requestId: 31 })).status).toBe(202);
    await call;
    expect(carried).toEqual([31]);
    expect(probe.aborted).toEqual(['r']);
    expect(faults).toEqual([]);
  });

  test('a cancel another process put on the relay aborts the call running here', async () => {
    const relay = new MemoryRelay();
    const probe = newProbe();
    const { url } = await open({ sessions: { relay } }, probe);
    const client = new SessionClient(url);
    await client.open();
    const call = client.postStream(
      client.message('tools/call', { name: 'hold', arguments: { tag: 'o' } }, 35),
    );
    await probe.started('o');
    // What a shared relay does when another process relays the client's cancel to this one.
    relay.cancel(client.sessionId ?? '', 35);
    await call;
    expect(probe.aborted).toEqual(['o']);
  });
});

describe('a cancel the given relay cannot carry', () => {
  async function cancelThrough(
    relay: SessionRelay,
    tag: string,
    id: number,
  ): Promise<{ faults: string[]; probe: Probe }> {
    const faults: string[] = [];
    const probe = newProbe();
    const { url } = await open(
      { sessions: { relay }, onFault: (description) => faults.push(description) },
      probe,
    );
    const client = new SessionClient(url);
    await client.open();
    const call = client.postStream(client.message('tools/call', { name: 'hold', arguments: { tag } }, id));
    await probe.started(tag);
    expect((await client.notify('notifications/cancelled', { requestId: id })).status).toBe(202);
    await call;
    await settle();
    return { faults, probe };
  }

  test('a relay whose cancel fails is a host fault, never an unhandled rejection; the call here is still aborted', async () => {
    let seen: { faults: string[]; probe: Probe } | undefined;
    const rejections = await rejectionsDuring(async () => {
      seen = await cancelThrough(
        relayWith(() => Promise.reject(new Error('relay down'))),
        'f',
        32,
      );
    });
    expect(seen?.probe.aborted).toEqual(['f']);
    expect(seen?.faults).toEqual(['the session relay failed to carry a cancel']);
    expect(rejections).toEqual([]);
  });

  test('one unreachable for now (UnavailableError) is no fault, and the call here is still aborted', async () => {
    const unavailable = new UnavailableError({ rule: 'relay-down', retryAfterSeconds: 1, message: 'down' });
    const { faults, probe } = await cancelThrough(
      relayWith(() => Promise.reject(unavailable)),
      'u',
      33,
    );
    expect(probe.aborted).toEqual(['u']);
    expect(faults).toEqual([]);
  });

  test('one whose cancel throws is a host fault, and the call here is still aborted', async () => {
    const { faults, probe } = await cancelThrough(
      relayWith(() => {
        throw new Error('relay broken');
      }),
      't',
      34,
    );
    expect(probe.aborted).toEqual(['t']);
    expect(faults).toEqual(['the session relay failed to carry a cancel']);
  });
});

describe('what is not a cancel, and what ends everything', () => {
  test('a client leaving the stream is no cancel: the handler runs on', {
    tags: ['threat-model'],
  }, async () => {
    const probe = newProbe();
    const { url } = await open({}, probe);
    const client = new SessionClient(url);
    await client.open();
    const call = reader(
      await client.postStream(
        client.message('tools/call', { name: 'hold', arguments: { tag: 'd', say: true } }),
      ),
    );
    await call.next();
    await call.close();
    await settle();
    expect(probe.aborted).toEqual([]);
    probe.held.get('d')?.();
  });

  test('DELETE aborts every request running on the session', { tags: ['threat-model'] }, async () => {
    const probe = newProbe();
    const { url } = await open({}, probe);
    const client = new SessionClient(url);
    await client.open();
    const calls = ['x', 'y'].map((tag) => client.request('tools/call', { name: 'hold', arguments: { tag } }));
    await probe.started('x');
    await probe.started('y');
    expect((await client.delete()).status).toBe(204);
    await Promise.all(calls);
    expect([...probe.aborted].sort()).toEqual(['x', 'y']);
  });

  test('a session expiring aborts nothing still running: a request in flight keeps it alive', async () => {
    const probe = newProbe();
    const { url } = await open({ sessions: { idleTimeoutMs: 1_000 } }, probe);
    const client = new SessionClient(url);
    await client.open();
    const call = client.request('tools/call', { name: 'hold', arguments: { tag: 'long' } });
    await probe.started('long');
    await settle(2_000);
    expect(probe.aborted).toEqual([]);
    probe.held.get('long')?.();
    expect((await call).json).toMatchObject({ result: { content: [{ text: 'released long' }] } });
    expect((await client.request('tools/list')).status).toBe(200);
  });
});

describe('without sessions (stateless 2025-11-25 over HTTP)', () => {
  test('notifications/cancelled is 202 and the handler runs on to its answer: nothing links the two POSTs', {
    tags: ['threat-model'],
  }, async () => {
    const probe = newProbe();
    const { url } = await open({ sessions: undefined }, probe);
    const client = new SessionClient(url);
    await client.open();
    expect(client.sessionId).toBeUndefined();
    const call = client.request('tools/call', { name: 'hold', arguments: { tag: 'stateless' } });
    await probe.started('stateless');
    const cancelled = await client.notify('notifications/cancelled', { requestId: 2 });
    expect(cancelled.status).toBe(202);
    await settle();
    expect(probe.aborted).toEqual([]);
    probe.held.get('stateless')?.();
    expect((await call).json).toMatchObject({ result: { content: [{ text: 'released stateless' }] } });
  });
});
