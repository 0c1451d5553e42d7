/**
 * The `sessions` option on every way Palisade serves HTTP: the node handler, the fetch handler
 * (behind @hono/node-server, as a Hono app runs it) and `serve()`. One session's life runs against
 * each over a real socket: its id issued, a request to the client answered, a list change heard
 * on the GET stream, a cancel reaching the handler, and DELETE ending it.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { serve } from '../../src/http/node/serve.js';
import type { Server } from '../../src/index.js';
import {
  type Answer,
  type Endpoint,
  type EventReader,
  fetchEndpoint,
  isReader,
  nodeEndpoint,
  SESSION_OPTIONS,
  SessionClient,
} from '../support/session-peer.js';
import { newProbe, type Probe, sessionServer } from './session-server.js';

async function serveEndpoint(server: Server): Promise<Endpoint> {
  const serving = await serve(server, { ...SESSION_OPTIONS, port: 0, sessions: {} } as never);
  return { url: `${serving.url}/mcp`, close: () => serving.close() };
}

const RUNTIMES = [
  ['the node handler', nodeEndpoint],
  ['the fetch handler', fetchEndpoint],
  ['serve()', serveEndpoint],
] as const;

let endpoint: Endpoint | undefined;
afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
});

function reader(value: EventReader | Answer): EventReader {
  if (!isReader(value)) throw new Error(`expected a stream, got ${value.status} ${value.text}`);
  return value;
}

async function open(
  start: (server: Server) => Promise<Endpoint>,
): Promise<{ probe: Probe; server: Server; client: SessionClient }> {
  const probe = newProbe();
  const server = sessionServer(probe);
  endpoint = await start(server);
  const client = new SessionClient(endpoint.url);
  await client.open({ sampling: {} });
  return { probe, server, client };
}

describe.each(RUNTIMES)('sessions on %s', (_name, start) => {
  test('initialize issues an Mcp-Session-Id and a later request on it is served', async () => {
    const { client } = await open(start);
    expect(client.sessionId).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const answer = await client.request('tools/call', { name: 'echo', arguments: { text: 'hi' } });
    expect(answer.json).toMatchObject({ result: { content: [{ type: 'text', text: 'hi' }] } });
  });

  test("a tool's sampling request reaches the client and its reply the tool", async () => {
    const { client } = await open(start);
    const call = reader(
      await client.postStream(client.message('tools/call', { name: 'ask', arguments: {} }, 5)),
    );
    let request: Record<string, unknown> | undefined;
    while (request === undefined) {
      const event = await call.next();
      if (event?.message?.['method'] === 'sampling/createMessage') request = event.message;
    }
    const result = { role: 'assistant', content: { type: 'text', text: 'yo' }, model: 'm' };
    expect((await client.post({ jsonrpc: '2.0', id: request['id'], result })).status).toBe(202);
    const rest = await call.rest();
    expect(rest.at(-1)?.message).toMatchObject({
      id: 5,
      result: { content: [{ text: 'sampled: yo (state {"step":1})' }] },
    });
  });

  test('the GET stream carries a list change', async () => {
    const { client, server } = await open(start);
    const stream = reader(await client.stream());
    expect((await stream.next())?.data).toBe('');
    server.notifyListChanged('tools');
    expect((await stream.next())?.message).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
    });
    await stream.close();
  });

  test("notifications/cancelled fires the handler's signal", async () => {
    const { client, probe } = await open(start);
    const call = client.postStream(
      client.message('tools/call', { name: 'hold', arguments: { tag: 'c' } }, 9),
    );
    await probe.started('c');
    expect((await client.notify('notifications/cancelled', { requestId: 9 })).status).toBe(202);
    await expect.poll(() => probe.aborted).toEqual(['c']);
    const answered = await call;
    if (isReader(answered)) await answered.rest();
  });

  test('a DELETE declaring a body is 400 unread, and the session lives on', {
    tags: ['threat-model'],
  }, async () => {
    const { client } = await open(start);
    const answer = await fetch(client.url, {
      method: 'DELETE',
      headers: { 'mcp-session-id': client.sessionId as string, 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain('GET and DELETE carry no body');
    expect((await client.request('ping')).status).toBe(200);
  });

  test('DELETE ends the session: 204, then 404', async () => {
    const { client } = await open(start);
    expect((await client.delete()).status).toBe(204);
    expect((await client.request('ping')).status).toBe(404);
  });
});
