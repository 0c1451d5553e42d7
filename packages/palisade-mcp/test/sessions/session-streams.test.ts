/**
 * A session's streams over a real socket: the one standalone GET stream and what reaches it
 * (list changes, updates of subscribed resources, notifications a JSON-only POST cannot carry),
 * event ids and resumption with Last-Event-ID from the event store, 2025-11-25 polling (priming
 * event, retry, the connection released mid-call and the result delivered on the resumed stream),
 * and the bounds on what a stream keeps and what an unread stream may hold.
 */
import { once } from 'node:events';
import { connect } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import type { HttpLogEvent } from '../../src/http/http-options.js';
import { createServer, defineTool, type Server } from '../../src/index.js';
import { MemoryEventStore } from '../../src/sessions/memory-event-store.js';
import { exchange, post } from '../support/http-peer.js';
import { laterEvents } from '../support/later-events.js';
import {
  type Answer,
  type Endpoint,
  type EndpointOptions,
  type EventReader,
  isReader,
  nodeEndpoint,
  SessionClient,
  type SseEvent,
} from '../support/session-peer.js';
import { newProbe, type Probe, sessionServer } from './session-server.js';

let endpoint: Endpoint | undefined;
afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
});

async function open(
  options: EndpointOptions = {},
  probe: Probe = newProbe(),
): Promise<{ url: string; server: Server; probe: Probe }> {
  const server = sessionServer(probe);
  endpoint = await nodeEndpoint(server, options);
  return { url: endpoint.url, server, probe };
}

function reader(value: EventReader | Answer): EventReader {
  if (!isReader(value)) throw new Error(`expected a stream, got ${value.status} ${value.text}`);
  return value;
}

const isMethod = (method: string) => (event: SseEvent | undefined) => event?.message?.['method'] === method;

describe('the standalone GET stream', () => {
  test('opens with a priming event (an id, the retry, no data) on 2025-11-25', async () => {
    const { url } = await open({ sessions: { retryMs: 2_500 } });
    const client = new SessionClient(url);
    await client.open();
    const stream = reader(await client.stream());
    expect(stream.response.headers.get('content-type')).toBe('text/event-stream');
    const first = await stream.next();
    expect(first).toEqual({ id: expect.stringMatching(/^[0-9]+-[0-9]+$/), retry: 2_500, data: '' });
    await stream.close();
  });

  test('on 2025-06-18 opens with no priming event, which that revision does not define', async () => {
    const { url, server } = await open();
    const client = new SessionClient(url, '2025-06-18');
    await client.open();
    const stream = reader(await client.stream());
    server.notifyListChanged('tools');
    const first = await stream.next();
    expect(first?.message).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    expect(first?.id).toMatch(/^[0-9]+-[0-9]+$/);
    await stream.close();
  });

  test('carries a list change to every initialized session with its stream open', {
    tags: ['threat-model'],
  }, async () => {
    const { url, server } = await open();
    const clients = [new SessionClient(url), new SessionClient(url)];
    const streams: EventReader[] = [];
    for (const client of clients) {
      await client.open();
      const stream = reader(await client.stream());
      await stream.next();
      streams.push(stream);
    }
    server.notifyListChanged('tools');
    for (const stream of streams) {
      expect((await stream.next())?.message).toEqual({
        jsonrpc: '2.0',
        method: 'notifications/tools/list_changed',
      });
      await stream.close();
    }
  });

  test('carries no list change to a session whose client has not sent notifications/initialized', async () => {
    const { url, server } = await open();
    const client = new SessionClient(url);
    const opened = await client.post(
      {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'n', version: '1' } },
      },
      { sessionId: null },
    );
    client.sessionId = opened.headers.get('mcp-session-id') ?? undefined;
    const stream = reader(await client.stream());
    await stream.next();
    server.notifyListChanged('tools');
    await expect(stream.next(300)).rejects.toThrow('no event in time');
    await stream.close();
  });

  test('a second GET while the first is open is 409, and the first keeps working', {
    tags: ['threat-model'],
  }, async () => {
    const log: HttpLogEvent[] = [];
    const { url, server } = await open({ onLog: (event) => log.push(event) });
    const client = new SessionClient(url);
    await client.open();
    const stream = reader(await client.stream());
    await stream.next();
    const second = await client.stream();
    expect(isReader(second)).toBe(false);
    if (!isReader(second)) expect(second.status).toBe(409);
    expect(log.map((event) => event.rule)).toContain('session-stream-open');
    server.notifyListChanged('tools');
    expect(isMethod('notifications/tools/list_changed')(await stream.next())).toBe(true);
    await stream.close();
  });

  test('after the first closes, a new GET opens the stream again', async () => {
    const { url } = await open();
    const client = new SessionClient(url);
    await client.open();
    const stream = reader(await client.stream());
    await stream.next();
    await stream.close();
    // The server learns of the close when its socket does: until then a GET is still 409.
    let again = await client.stream();
    for (let tries = 0; !isReader(again) && again.status === 409 && tries < 100; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      again = await client.stream();
    }
    again = reader(again);
    expect((await again.next())?.data).toBe('');
    await again.close();
  });

  test('carries resources/updated only for URIs the session subscribed to, until it unsubscribes', {
    tags: ['threat-model'],
  }, async () => {
    const { url, server } = await open();
    const watcher = new SessionClient(url);
    const bystander = new SessionClient(url);
    await watcher.open();
    await bystander.open();
    expect((await watcher.request('resources/subscribe', { uri: 'test://watched' })).json).toMatchObject({
      result: {},
    });
    const watching = reader(await watcher.stream());
    const idle = reader(await bystander.stream());
    await watching.next();
    await idle.next();
    server.notifyResourceUpdated('test://other');
    server.notifyResourceUpdated('test://watched');
    expect((await watching.next())?.message).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: 'test://watched' },
    });
    await expect(idle.next(300)).rejects.toThrow('no event in time');
    await watcher.request('resources/unsubscribe', { uri: 'test://watched' });
    server.notifyResourceUpdated('test://watched');
    server.notifyListChanged('resources');
    expect(isMethod('notifications/resources/list_changed')(await watching.next())).toBe(true);
    await watching.close();
    await idle.close();
  });

  test("carries a JSON-only request's log messages, at the session's level", async () => {
    const { url } = await open();
    const client = new SessionClient(url);
    await client.open();
    await client.request('logging/setLevel', { level: 'info' });
    const stream = reader(await client.stream());
    await stream.next();
    const answer = await client.request(
      'tools/call',
      { name: 'chatty', arguments: { count: 2 } },
      { accept: 'application/json' },
    );
    expect(answer.headers.get('content-type')).toBe('application/json');
    const logs = [await stream.next(), await stream.next()];
    expect(logs.map((event) => event?.message?.['params'])).toEqual([
      { level: 'info', data: 'line 0' },
      { level: 'info', data: 'line 1' },
    ]);
    await expect(stream.next(300)).rejects.toThrow('no event in time');
    await stream.close();
  });

  test("a JSON-only request's log messages with no GET stream open are dropped, and the call is answered", async () => {
    const { url } = await open();
    const client = new SessionClient(url);
    await client.open();
    await client.request('logging/setLevel', { level: 'info' });
    const answer = await client.request(
      'tools/call',
      { name: 'chatty', arguments: { count: 2 } },
      { accept: 'application/json' },
    );
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ result: { content: [{ type: 'text', text: 'logged 2' }] } });
  });

  test('is cut when its client stops reading, and the session goes on', {
    tags: ['threat-model'],
  }, async () => {
    const log: HttpLogEvent[] = [];
    const { url, server } = await open({ onLog: (event) => log.push(event) });
    const client = new SessionClient(url);
    await client.open();
    const { port } = new URL(url);
    const socket = connect(Number(port), '127.0.0.1');
    await once(socket, 'connect');
    socket.write(
      `GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nMcp-Session-Id: ${client.sessionId}\r\n\r\n`,
    );
    // Never read: the kernel's buffers fill, then Node's queue, until the writer's bound cuts the stream.
    socket.pause();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const cut = () =>
      log.some((event) => event.rule === 'sse-events-queued' || event.rule === 'sse-queue-full');
    for (let n = 0; n < 400_000 && !cut(); n += 1) {
      server.notifyListChanged('tools');
      if (n % 1_000 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    expect(cut()).toBe(true);
    socket.destroy();
    expect((await client.request('tools/list')).status).toBe(200);
  });
});

describe('resumption', () => {
  test('a POST stream resumed with Last-Event-ID after the client left gets what it missed, then the result', async () => {
    const probe = newProbe();
    const { url } = await open({}, probe);
    const client = new SessionClient(url);
    await client.open();
    const call = reader(
      await client.postStream(
        client.message('tools/call', { name: 'hold', arguments: { tag: 'r', say: true } }, 8),
      ),
    );
    const priming = await call.next();
    const said = await call.next();
    expect(priming).toEqual({ id: expect.any(String), retry: 1_000, data: '' });
    expect(said?.message).toMatchObject({ method: 'notifications/message', params: { data: 'holding r' } });
    // The client leaves: on 2025-11-25 that is no cancel, the handler runs on.
    await call.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    probe.held.get('r')?.();
    expect(probe.aborted).toEqual([]);
    const resumed = reader(await client.stream({ 'last-event-id': priming?.id as string }));
    const events = await resumed.rest();
    expect(events.map((event) => event.message?.['method'] ?? event.message?.['id'])).toEqual([
      'notifications/message',
      8,
    ]);
    expect(events[0]?.id).toBe(said?.id);
  });

  test('a stream released by the server mid-call is resumed by GET with Last-Event-ID and ends with the result', {
    tags: ['threat-model'],
  }, async () => {
    const probe = newProbe();
    const { url } = await open({ sessions: { pollAfterMs: 100, retryMs: 10 } }, probe);
    const client = new SessionClient(url);
    await client.open();
    const call = reader(
      await client.postStream(client.message('tools/call', { name: 'hold', arguments: { tag: 'p' } }, 9)),
    );
    const priming = await call.next();
    expect(priming).toEqual({ id: expect.any(String), retry: 10, data: '' });
    const released = await call.rest();
    expect(released.every((event) => event.message === undefined)).toBe(true);
    expect(call.done).toBe(true);
    probe.held.get('p')?.();
    const resumed = reader(await client.stream({ 'last-event-id': priming?.id as string }));
    const events = await resumed.rest();
    expect(events.map((event) => event.message)).toEqual([
      { jsonrpc: '2.0', id: 9, result: { content: [{ type: 'text', text: 'released p' }] } },
    ]);
    expect(events[0]?.id).toEqual(expect.any(String));
  });

  test('a resumed stream still running gets its later events live, then the result, then ends', async () => {
    const probe = newProbe();
    const { url } = await open({ sessions: { pollAfterMs: 100 } }, probe);
    const client = new SessionClient(url);
    await client.open();
    const call = reader(
      await client.postStream(client.message('tools/call', { name: 'hold', arguments: { tag: 'l' } }, 3)),
    );
    const priming = await call.next();
    await call.rest();
    const resumed = reader(await client.stream({ 'last-event-id': priming?.id as string }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    probe.held.get('l')?.();
    const events = await resumed.rest();
    expect(events.map((event) => event.message?.['id'])).toEqual([3]);
  });

  test('the standalone stream resumed after a disconnect replays the changes it missed, in order', async () => {
    const { url, server } = await open();
    const client = new SessionClient(url);
    await client.open();
    const first = reader(await client.stream());
    const priming = await first.next();
    server.notifyListChanged('tools');
    const seen = await first.next();
    await first.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    server.notifyListChanged('resources');
    server.notifyListChanged('tools');
    const resumed = reader(await client.stream({ 'last-event-id': seen?.id as string }));
    const missed = [await resumed.next(), await resumed.next()];
    expect(missed.map((event) => event?.message?.['method'])).toEqual([
      'notifications/resources/list_changed',
      'notifications/tools/list_changed',
    ]);
    expect(new Set([priming?.id, seen?.id, ...missed.map((event) => event?.id)]).size).toBe(4);
    server.notifyListChanged('tools');
    expect(isMethod('notifications/tools/list_changed')(await resumed.next())).toBe(true);
    await resumed.close();
  });

  test('a malformed Last-Event-ID is 400 and never echoed', { tags: ['threat-model'] }, async () => {
    const { url } = await open();
    const client = new SessionClient(url);
    await client.open();
    const answer = await client.stream({ 'last-event-id': 'bad id <script>' });
    expect(isReader(answer)).toBe(false);
    if (!isReader(answer)) {
      expect(answer.status).toBe(400);
      expect(answer.text).not.toContain('script');
      // Refused by its syntax, before any store is asked what it names.
      expect(answer.text).toContain('Last-Event-ID must be one value of 1 to');
    }
  });

  test('two Last-Event-ID lines are 400 by syntax, even naming one event', async () => {
    const { url } = await open();
    const client = new SessionClient(url);
    await client.open();
    const stream = reader(await client.stream());
    const priming = await stream.next();
    await stream.close();
    const reply = await exchange(
      Number(new URL(url).port),
      post(
        '',
        {
          'Mcp-Session-Id': client.sessionId,
          'MCP-Protocol-Version': '2025-11-25',
          Accept: 'text/event-stream',
          'Content-Type': undefined,
          'Content-Length': undefined,
          'Last-Event-ID': [priming?.id, priming?.id],
        },
        'GET',
      ),
    );
    reply.client.end();
    expect(reply.status).toBe(400);
    expect(reply.body).toContain('Last-Event-ID must be one value of 1 to');
  });

  test("a Last-Event-ID this session never issued is 400, another session's included", {
    tags: ['threat-model'],
  }, async () => {
    const { url } = await open();
    const mine = new SessionClient(url);
    const theirs = new SessionClient(url);
    await mine.open();
    await theirs.open();
    const stream = reader(await theirs.stream());
    const priming = await stream.next();
    await stream.close();
    for (const id of ['999-0', priming?.id as string]) {
      const answer = await mine.stream({ 'last-event-id': id });
      expect(isReader(answer)).toBe(false);
      if (!isReader(answer)) expect(answer.status).toBe(400);
    }
  });

  test('resuming from before what the stream keeps is 400 last-event-id-evicted, not a silent gap', {
    tags: ['threat-model'],
  }, async () => {
    const log: HttpLogEvent[] = [];
    const { url, server } = await open({
      sessions: { maxStreamEvents: 3 },
      onLog: (event) => log.push(event),
    });
    const client = new SessionClient(url);
    await client.open();
    const stream = reader(await client.stream());
    const priming = await stream.next();
    await stream.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (let n = 0; n < 5; n += 1) server.notifyListChanged('tools');
    const answer = await client.stream({ 'last-event-id': priming?.id as string });
    expect(isReader(answer)).toBe(false);
    if (!isReader(answer)) expect(answer.status).toBe(400);
    expect(log.map((event) => event.rule)).toContain('last-event-id-evicted');
  });

  test('a stream whose request ended replays to its end and closes', async () => {
    const probe = newProbe();
    const { url } = await open({ sessions: { pollAfterMs: 100 } }, probe);
    const client = new SessionClient(url);
    await client.open();
    const call = reader(
      await client.postStream(client.message('tools/call', { name: 'hold', arguments: { tag: 'e' } }, 4)),
    );
    const priming = await call.next();
    await call.rest();
    probe.held.get('e')?.();
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (let twice = 0; twice < 2; twice += 1) {
      const replay = reader(await client.stream({ 'last-event-id': priming?.id as string }));
      expect((await replay.rest()).map((event) => event.message?.['id'])).toEqual([4]);
    }
  });
});

describe('the streams a session keeps', () => {
  test('a call past maxStreams, every kept stream still open, gets no kept stream and is told of as session-streams', async () => {
    const log: HttpLogEvent[] = [];
    const probe = newProbe();
    const { url } = await open({ sessions: { maxStreams: 2 }, onLog: (event) => log.push(event) }, probe);
    const client = new SessionClient(url);
    await client.open();
    await client.request('logging/setLevel', { level: 'info' });
    const held: EventReader[] = [];
    for (const [tag, id] of [
      ['k1', 71],
      ['k2', 72],
    ] as const) {
      const stream = reader(
        await client.postStream(
          client.message('tools/call', { name: 'hold', arguments: { tag, say: true } }, id),
        ),
      );
      await stream.next();
      held.push(stream);
    }
    const third = client.postStream(
      client.message('tools/call', { name: 'hold', arguments: { tag: 'k3', say: true } }, 73),
    );
    await probe.started('k3');
    await expect.poll(() => log.map((event) => event.rule)).toContain('session-streams');
    for (const tag of ['k1', 'k2', 'k3']) probe.held.get(tag)?.();
    await third;
    for (const stream of held) await stream.close();
  });
});

describe('what ending a session leaves behind', () => {
  test('DELETE drops every event the event store kept for the session', async () => {
    const events = new MemoryEventStore();
    const { url } = await open({ sessions: { events } });
    const client = new SessionClient(url);
    await client.open();
    const stream = reader(await client.stream());
    const priming = await stream.next();
    await stream.close();
    const id = client.sessionId ?? '';
    expect(events.replay(id, priming?.id as string)).toMatchObject({ events: [] });
    expect((await client.delete()).status).toBe(204);
    expect(events.replay(id, priming?.id as string)).toBe('unknown');
  });

  test('the sweep of an expired session drops every event the event store kept for it', async () => {
    const events = new MemoryEventStore();
    const { url } = await open({ sessions: { events, idleTimeoutMs: 1_000 } });
    const client = new SessionClient(url);
    await client.open();
    const stream = reader(await client.stream());
    const priming = await stream.next();
    await stream.close();
    const id = client.sessionId ?? '';
    expect(events.replay(id, priming?.id as string)).toMatchObject({ events: [] });
    await expect
      .poll(() => events.replay(id, priming?.id as string), { timeout: 5_000, interval: 100 })
      .toBe('unknown');
  });
});

describe('over an event store that answers later', () => {
  test('a call streams its events in order, and a client that left resumes with what it missed, then the result', async () => {
    const probe = newProbe();
    const { url } = await open({ sessions: { events: laterEvents() } }, probe);
    const client = new SessionClient(url);
    await client.open();
    const call = reader(
      await client.postStream(
        client.message('tools/call', { name: 'hold', arguments: { tag: 'l', say: true } }, 9),
      ),
    );
    const priming = await call.next();
    const said = await call.next();
    expect(priming).toEqual({ id: expect.any(String), retry: 1_000, data: '' });
    expect(said?.message).toMatchObject({ method: 'notifications/message', params: { data: 'holding l' } });
    await call.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    probe.held.get('l')?.();
    const resumed = reader(await client.stream({ 'last-event-id': priming?.id as string }));
    const events = await resumed.rest();
    expect(events.map((event) => event.message?.['method'] ?? event.message?.['id'])).toEqual([
      'notifications/message',
      9,
    ]);
  });

  test('a store that fails a step is a host fault, and the session serves on', async () => {
    const faults: string[] = [];
    const failing = laterEvents();
    const { url } = await open({
      sessions: { events: { ...failing, append: () => Promise.reject(new Error('events down')) } },
      onFault: (description) => faults.push(description),
    });
    const client = new SessionClient(url);
    await client.open();
    const stream = reader(await client.stream());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(faults).toEqual(['a session stream step failed']);
    await stream.close();
    expect((await client.request('tools/list')).status).toBe(200);
  });
});

describe('polling (2025-11-25)', () => {
  test('a request answered within pollAfterMs is answered on its own POST, unprimed', async () => {
    const { url } = await open({ sessions: { pollAfterMs: 5_000 } });
    const client = new SessionClient(url);
    await client.open();
    const answer = await client.request('tools/call', { name: 'echo', arguments: { text: 'quick' } });
    expect(answer.headers.get('content-type')).toBe('application/json');
  });

  test('is not done on 2025-06-18, whose clients know no priming event: the POST is held to the end', async () => {
    const probe = newProbe();
    const { url } = await open({ sessions: { pollAfterMs: 50 } }, probe);
    const client = new SessionClient(url, '2025-06-18');
    await client.open();
    const pending = client.request('tools/call', { name: 'hold', arguments: { tag: 'old' } }, {});
    await probe.started('old');
    await new Promise((resolve) => setTimeout(resolve, 200));
    probe.held.get('old')?.();
    const answer = await pending;
    expect(answer.json).toMatchObject({ result: { content: [{ text: 'released old' }] } });
  });
});

describe('messages the encoder refuses, on a session', () => {
  const unencodable = () =>
    createServer({
      name: 'unencodable-session',
      version: '1',
      tools: [
        defineTool({
          name: 'meta_bigint',
          inputSchema: { type: 'object' },
          handler: () => ({ content: [], _meta: { big: 10n } }) as never,
        }),
        defineTool({
          name: 'log_bigint',
          inputSchema: { type: 'object' },
          handler: async (_args, ctx) => {
            ctx.log('info', { big: 10n } as never);
            ctx.log('info', 'plain');
            await Promise.resolve();
            return { content: [{ type: 'text', text: 'logged' }] };
          },
        }),
      ],
    });

  test('a response that cannot be serialized is -32603 under its id, and the host hears why', async () => {
    const faults: string[] = [];
    endpoint = await nodeEndpoint(unencodable(), { onFault: (description) => faults.push(description) });
    const client = new SessionClient(endpoint.url);
    await client.open();
    const answer = await client.request(
      'tools/call',
      { name: 'meta_bigint', arguments: {} },
      { accept: 'application/json' },
    );
    expect(answer.json).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32603, message: 'Internal error' },
    });
    expect(faults).toEqual(['a response could not be serialized: the value holds a BigInt']);
  });

  test('a notification that cannot be serialized is left out of the stream, and the host hears why', async () => {
    const faults: string[] = [];
    endpoint = await nodeEndpoint(unencodable(), { onFault: (description) => faults.push(description) });
    const client = new SessionClient(endpoint.url);
    await client.open();
    await client.request('logging/setLevel', { level: 'info' });
    const call = reader(
      await client.postStream(client.message('tools/call', { name: 'log_bigint', arguments: {} }, 7)),
    );
    const events = (await call.rest()).filter((event) => event.message !== undefined);
    expect(events.map((event) => event.message?.['params'] ?? event.message?.['id'])).toEqual([
      { level: 'info', data: 'plain' },
      7,
    ]);
    expect(faults).toEqual(['a notification could not be serialized: the value holds a BigInt']);
  });
});
