/**
 * The contract every session store, event store and relay implementation passes unchanged: the
 * in-memory defaults here (memory-stores.test.ts), and any shared implementation (a PostgreSQL
 * adapter) in its own package's tests, by calling these three functions with a factory for a
 * fresh, empty instance. Nothing here looks inside an implementation: only the contract's methods
 * are called, awaited whether they answer at once or with a promise.
 */
import { describe, expect, test } from 'vitest';
import type {
  ClientReply,
  EventStore,
  SessionRecord,
  SessionRelay,
  SessionStore,
  StreamLimits,
} from '../../src/sessions/contracts.js';

type Factory<T> = () => T | Promise<T>;

const IDLE = 60_000;
const T0 = 1_700_000_000_000;

function record(id: string, principal = 'p-alice', lastSeen = T0): SessionRecord {
  return {
    id,
    principal,
    revision: '2025-11-25',
    clientCapabilities: { sampling: {} },
    initialized: false,
    subscriptions: [],
    lastSeen,
  };
}

export function sessionStoreContract(name: string, make: Factory<SessionStore>): void {
  describe(`${name}: the SessionStore contract`, () => {
    test('a created session opens for its principal, last seen now', async () => {
      const store = await make();
      expect(await store.create(record('a'), 10)).toBe(true);
      const opened = await store.open('a', 'p-alice', T0 + 1_000, IDLE);
      expect(opened).toMatchObject({
        id: 'a',
        principal: 'p-alice',
        revision: '2025-11-25',
        lastSeen: T0 + 1_000,
      });
      expect(opened).toMatchObject({
        clientCapabilities: { sampling: {} },
        initialized: false,
        subscriptions: [],
      });
    });

    test('opening moves lastSeen and keeps every other member as it was recorded', async () => {
      const store = await make();
      const made = { ...record('a'), logLevel: 'debug' as const };
      await store.create(made, 10);
      await store.update('a', { initialized: true, subscriptions: ['test://one', 'test://two'] });
      expect(await store.open('a', 'p-alice', T0 + 2_000, IDLE)).toEqual({
        ...made,
        initialized: true,
        subscriptions: ['test://one', 'test://two'],
        lastSeen: T0 + 2_000,
      });
    });

    test('an id never created opens as unknown', async () => {
      const store = await make();
      await store.create(record('a'), 10);
      expect(await store.open('b', 'p-alice', T0, IDLE)).toBe('unknown');
    });

    test('create answers false at the limit and keeps every live session', async () => {
      const store = await make();
      expect(await store.create(record('a'), 2)).toBe(true);
      expect(await store.create(record('b'), 2)).toBe(true);
      expect(await store.create(record('c'), 2)).toBe(false);
      expect(await store.size()).toBe(2);
      expect(await store.open('a', 'p-alice', T0, IDLE)).toMatchObject({ id: 'a' });
      expect(await store.open('b', 'p-alice', T0, IDLE)).toMatchObject({ id: 'b' });
      expect(await store.open('c', 'p-alice', T0, IDLE)).toBe('unknown');
    });

    test('another principal finds other-principal, and its attempt does not keep the session alive', async () => {
      const store = await make();
      await store.create(record('a'), 10);
      expect(await store.open('a', 'p-mallory', T0 + IDLE - 1, IDLE)).toBe('other-principal');
      // Had Mallory's attempt counted as activity, the session would still be live here.
      expect(await store.open('a', 'p-alice', T0 + IDLE, IDLE)).toBe('unknown');
    });

    test('a session idle for idleMs is gone for good', async () => {
      const store = await make();
      await store.create(record('a'), 10);
      expect(await store.open('a', 'p-alice', T0 + IDLE, IDLE)).toBe('unknown');
      expect(await store.open('a', 'p-alice', T0 + 1, IDLE)).toBe('unknown');
    });

    test('opening a session keeps it alive', async () => {
      const store = await make();
      await store.create(record('a'), 10);
      await store.open('a', 'p-alice', T0 + IDLE - 1, IDLE);
      expect(await store.open('a', 'p-alice', T0 + 2 * IDLE - 2, IDLE)).toMatchObject({ id: 'a' });
    });

    test('update records a change and keeps the rest', async () => {
      const store = await make();
      await store.create(record('a'), 10);
      await store.update('a', { initialized: true, logLevel: 'warning', subscriptions: ['test://x'] });
      expect(await store.open('a', 'p-alice', T0, IDLE)).toMatchObject({
        initialized: true,
        logLevel: 'warning',
        subscriptions: ['test://x'],
        revision: '2025-11-25',
        clientCapabilities: { sampling: {} },
      });
    });

    test('update of an id never created changes nothing', async () => {
      const store = await make();
      await store.update('ghost', { initialized: true });
      expect(await store.open('ghost', 'p-alice', T0, IDLE)).toBe('unknown');
      expect(await store.size()).toBe(0);
    });

    test('delete ends a session once', async () => {
      const store = await make();
      await store.create(record('a'), 10);
      expect(await store.delete('a')).toBe(true);
      expect(await store.delete('a')).toBe(false);
      expect(await store.open('a', 'p-alice', T0, IDLE)).toBe('unknown');
      expect(await store.size()).toBe(0);
    });

    test('a deleted session leaves room under the limit', async () => {
      const store = await make();
      await store.create(record('a'), 1);
      await store.delete('a');
      expect(await store.create(record('b'), 1)).toBe(true);
    });

    test('sweep ends exactly the sessions idle for idleMs and answers their ids', async () => {
      const store = await make();
      await store.create(record('old', 'p-alice', T0), 10);
      await store.create(record('new', 'p-alice', T0 + 10_000), 10);
      expect([...(await store.sweep(T0 + IDLE, IDLE))]).toEqual(['old']);
      expect(await store.size()).toBe(1);
      expect(await store.open('new', 'p-alice', T0 + IDLE, IDLE)).toMatchObject({ id: 'new' });
      expect([...(await store.sweep(T0 + IDLE, IDLE))]).toEqual([]);
    });
  });
}

const LIMITS: StreamLimits = { streams: 3, events: 4, bytes: 1_000 };

async function replayed(store: EventStore, session: string, last: string): Promise<unknown> {
  const replay = await store.replay(session, last);
  return typeof replay === 'string'
    ? replay
    : { ...replay, events: replay.events.map((event) => event.data) };
}

export function eventStoreContract(name: string, make: Factory<EventStore>): void {
  describe(`${name}: the EventStore contract`, () => {
    test('a replay is every event after the one named, on its own stream', async () => {
      const store = await make();
      const one = (await store.openStream('s', LIMITS)) as string;
      const two = (await store.openStream('s', LIMITS)) as string;
      expect(one).not.toBe(two);
      const first = (await store.append('s', one, 'a', LIMITS)) as string;
      await store.append('s', two, 'x', LIMITS);
      await store.append('s', one, 'b', LIMITS);
      await store.append('s', one, 'c', LIMITS);
      expect(await replayed(store, 's', first)).toEqual({ stream: one, events: ['b', 'c'], ended: false });
    });

    test('event ids are unique across a session and fit the Last-Event-ID syntax', async () => {
      const store = await make();
      const ids = new Set<string>();
      for (let stream = 0; stream < 3; stream += 1) {
        const id = (await store.openStream('s', LIMITS)) as string;
        for (let n = 0; n < 3; n += 1) ids.add((await store.append('s', id, `e${n}`, LIMITS)) as string);
      }
      expect(ids.size).toBe(9);
      for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9._~+/=:-]{1,128}$/);
    });

    test('the replay after the newest event is empty', async () => {
      const store = await make();
      const stream = (await store.openStream('s', LIMITS)) as string;
      const last = (await store.append('s', stream, 'a', LIMITS)) as string;
      expect(await replayed(store, 's', last)).toEqual({ stream, events: [], ended: false });
    });

    test('an id never issued, or issued to another session, is unknown', async () => {
      const store = await make();
      const stream = (await store.openStream('s', LIMITS)) as string;
      const id = (await store.append('s', stream, 'a', LIMITS)) as string;
      expect(await store.replay('other', id)).toBe('unknown');
      expect(await store.replay('s', 'never-issued')).toBe('unknown');
      expect(await store.replay('s', `${id}0`)).toBe('unknown');
    });

    test('past its event bound a stream drops its oldest, and a replay from before them is evicted', async () => {
      const store = await make();
      const stream = (await store.openStream('s', LIMITS)) as string;
      const ids: string[] = [];
      for (const data of ['a', 'b', 'c', 'd', 'e', 'f'])
        ids.push((await store.append('s', stream, data, LIMITS)) as string);
      // Four kept: c d e f. Holding b, the client needs c onwards: all there.
      expect(await replayed(store, 's', ids[1] as string)).toEqual({
        stream,
        events: ['c', 'd', 'e', 'f'],
        ended: false,
      });
      // Holding a, it needs b, which was dropped.
      expect(await store.replay('s', ids[0] as string)).toBe('evicted');
    });

    test('past its byte bound a stream drops its oldest, and always keeps its newest', async () => {
      const store = await make();
      const stream = (await store.openStream('s', LIMITS)) as string;
      const first = (await store.append('s', stream, 'x'.repeat(600), LIMITS)) as string;
      const second = (await store.append('s', stream, 'y'.repeat(600), LIMITS)) as string;
      expect(await store.replay('s', first)).toMatchObject({ events: [{ id: second }] });
      const huge = (await store.append('s', stream, 'z'.repeat(5_000), LIMITS)) as string;
      expect(await store.replay('s', second)).toMatchObject({ events: [{ id: huge }] });
    });

    test('an ended stream replays as ended and takes no more events', async () => {
      const store = await make();
      const stream = (await store.openStream('s', LIMITS)) as string;
      const first = (await store.append('s', stream, 'a', LIMITS)) as string;
      await store.append('s', stream, 'result', LIMITS);
      await store.endStream('s', stream);
      expect(await replayed(store, 's', first)).toEqual({ stream, events: ['result'], ended: true });
      expect(await store.append('s', stream, 'late', LIMITS)).toBeUndefined();
    });

    test('past its stream bound a session forgets its oldest ended stream, and opens none when none ended', async () => {
      const store = await make();
      const streams: string[] = [];
      const firsts: string[] = [];
      for (let n = 0; n < 3; n += 1) {
        const stream = (await store.openStream('s', LIMITS)) as string;
        streams.push(stream);
        firsts.push((await store.append('s', stream, 'a', LIMITS)) as string);
      }
      expect(await store.openStream('s', LIMITS)).toBeUndefined();
      await store.endStream('s', streams[1] as string);
      expect(await store.openStream('s', LIMITS)).toEqual(expect.any(String));
      expect(await store.replay('s', firsts[1] as string)).toBe('unknown');
      expect(await store.replay('s', firsts[0] as string)).toMatchObject({ stream: streams[0] });
    });

    test('another session has its own streams and bounds', async () => {
      const store = await make();
      for (let n = 0; n < 3; n += 1) await store.openStream('s', LIMITS);
      expect(await store.openStream('t', LIMITS)).toEqual(expect.any(String));
    });

    test('dropSession forgets every stream of that session and no other', async () => {
      const store = await make();
      const mine = (await store.openStream('s', LIMITS)) as string;
      const theirs = (await store.openStream('t', LIMITS)) as string;
      const id = (await store.append('s', mine, 'a', LIMITS)) as string;
      const other = (await store.append('t', theirs, 'a', LIMITS)) as string;
      await store.dropSession('s');
      expect(await store.replay('s', id)).toBe('unknown');
      expect(await store.append('s', mine, 'b', LIMITS)).toBeUndefined();
      expect(await store.replay('t', other)).toMatchObject({ stream: theirs });
    });
  });
}

const ANSWER = { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' };

function reply(id: string | number, result: Record<string, unknown> = ANSWER): ClientReply {
  return { id, result };
}

export function relayContract(name: string, make: Factory<SessionRelay>): void {
  describe(`${name}: the SessionRelay contract`, () => {
    test('a reply reaches the wait for its id on its session', async () => {
      const relay = await make();
      const wait = await relay.wait('s', Date.now() + 10_000);
      expect(await relay.deliver('s', reply(wait.id))).toBe('delivered');
      expect(await wait.reply).toEqual(reply(wait.id));
    });

    test('an error reply reaches the wait as it came', async () => {
      const relay = await make();
      const wait = await relay.wait('s', Date.now() + 10_000);
      const error: ClientReply = {
        id: wait.id,
        error: { code: -1, message: 'User rejected sampling request' },
      };
      expect(await relay.deliver('s', error)).toBe('delivered');
      expect(await wait.reply).toEqual(error);
    });

    test('the ids waited for are unique, across sessions too', async () => {
      const relay = await make();
      const ids = new Set<unknown>();
      for (const session of ['s', 't', 's', 't', 's'])
        ids.add((await relay.wait(session, Date.now() + 10_000)).id);
      expect(ids.size).toBe(5);
    });

    test('a reply for an id nobody waits for is unknown', async () => {
      const relay = await make();
      await relay.wait('s', Date.now() + 10_000);
      expect(await relay.deliver('s', reply(987_654_321))).toBe('unknown');
      expect(await relay.deliver('nobody', reply(1))).toBe('unknown');
    });

    test("a reply naming another session's wait is unknown, and that wait still waits", async () => {
      const relay = await make();
      const theirs = await relay.wait('victim', Date.now() + 10_000);
      expect(await relay.deliver('attacker', reply(theirs.id))).toBe('unknown');
      expect(await relay.deliver('victim', reply(theirs.id))).toBe('delivered');
      expect(await theirs.reply).toEqual(reply(theirs.id));
    });

    test('an id written as the other JSON type is another id', async () => {
      const relay = await make();
      const wait = await relay.wait('s', Date.now() + 10_000);
      const twin = typeof wait.id === 'number' ? String(wait.id) : Number(wait.id);
      expect(await relay.deliver('s', reply(twin))).toBe('unknown');
      wait.cancel();
    });

    test('a second reply to one request is not delivered', async () => {
      const relay = await make();
      const wait = await relay.wait('s', Date.now() + 10_000);
      await relay.deliver('s', reply(wait.id));
      expect(await relay.deliver('s', reply(wait.id))).not.toBe('delivered');
    });

    test('a wait lapses at its deadline, and a reply after it is late', async () => {
      const relay = await make();
      const wait = await relay.wait('s', Date.now() + 30);
      expect(await wait.reply).toBe('lapsed');
      expect(await relay.deliver('s', reply(wait.id))).toBe('late');
    });

    test('a cancelled wait lapses at once, and its reply is late', async () => {
      const relay = await make();
      const wait = await relay.wait('s', Date.now() + 10_000);
      wait.cancel();
      expect(await wait.reply).toBe('lapsed');
      expect(await relay.deliver('s', reply(wait.id))).toBe('late');
    });

    test('endSession ends every wait of that session, and no other', async () => {
      const relay = await make();
      const mine = await relay.wait('s', Date.now() + 10_000);
      const theirs = await relay.wait('t', Date.now() + 10_000);
      await relay.endSession('s');
      expect(await mine.reply).toBe('ended');
      expect(await relay.deliver('s', reply(mine.id))).not.toBe('delivered');
      expect(await relay.deliver('t', reply(theirs.id))).toBe('delivered');
    });

    test('a cancel runs the abort registered for that session and request, and no other', async () => {
      const relay = await make();
      const fired: string[] = [];
      relay.onCancel('s', 7, () => fired.push('s/7'));
      relay.onCancel('s', '7', () => fired.push('s/"7"'));
      relay.onCancel('t', 7, () => fired.push('t/7'));
      await relay.cancel('s', 7);
      expect(fired).toEqual(['s/7']);
      await relay.cancel('s', 8);
      expect(fired).toEqual(['s/7']);
    });

    test('a cancel after the undo does nothing', async () => {
      const relay = await make();
      const fired: string[] = [];
      const undo = relay.onCancel('s', 1, () => fired.push('fired'));
      undo();
      await relay.cancel('s', 1);
      expect(fired).toEqual([]);
    });
  });
}
