/**
 * Requests to the client on a session, over a real socket: a handler's `ctx.inputRequired`
 * becomes real `sampling/createMessage`, `elicitation/create` and `roots/list` requests on the
 * call's stream; the client's reply, POSTed on the session, reaches the waiting handler, which
 * runs again with it, exactly as a 2026-07-28 retry would run it. Capabilities are checked first;
 * a reply nobody waits for, another session's, a late one and a malformed one are refused by
 * name; a wait is bounded and ends in the handler with a named error.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { HttpLogEvent } from '../../src/http/http-options.js';
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
import { MODERN_META } from '../support/stdio-peer.js';
import { newProbe, type Probe, sessionServer } from './session-server.js';

let endpoint: Endpoint | undefined;
afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
});

async function open(options: EndpointOptions = {}, probe: Probe = newProbe()) {
  const log: HttpLogEvent[] = [];
  endpoint = await nodeEndpoint(sessionServer(probe), { onLog: (event) => log.push(event), ...options });
  return { url: endpoint.url, probe, log };
}

function reader(value: EventReader | Answer): EventReader {
  if (!isReader(value)) throw new Error(`expected a stream, got ${value.status} ${value.text}`);
  return value;
}

/** The next event on `stream` that is a request to the client. */
async function nextRequest(stream: EventReader): Promise<SseEvent & { message: Record<string, unknown> }> {
  for (;;) {
    const event = await stream.next();
    if (event === undefined) throw new Error('the stream ended with no request');
    if (event.message?.['method'] !== undefined && event.message['id'] !== undefined)
      return event as SseEvent & { message: Record<string, unknown> };
  }
}

const SAMPLED = { role: 'assistant', content: { type: 'text', text: 'hello there' }, model: 'test-model' };

describe('a handler asking the client on a 2025-11-25 session', () => {
  test('sends a sampling/createMessage request on the call stream and answers with the reply', {
    tags: ['threat-model'],
  }, async () => {
    const { url, probe } = await open();
    const client = new SessionClient(url);
    await client.open({ sampling: {} });
    const call = reader(
      await client.postStream(client.message('tools/call', { name: 'ask', arguments: {} }, 11)),
    );
    const request = await nextRequest(call);
    expect(request.message).toEqual({
      jsonrpc: '2.0',
      id: expect.any(Number),
      method: 'sampling/createMessage',
      params: { messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 10 },
    });
    expect(request.id).toEqual(expect.any(String));
    const reply = await client.post({ jsonrpc: '2.0', id: request.message['id'], result: SAMPLED });
    expect(reply.status).toBe(202);
    const rest = await call.rest();
    expect(rest.at(-1)?.message).toEqual({
      jsonrpc: '2.0',
      id: 11,
      result: { content: [{ type: 'text', text: 'sampled: hello there (state {"step":1})' }] },
    });
    expect(probe.rounds.map((round) => round.responses)).toEqual([undefined, { hi: SAMPLED }]);
  });

  test('asks every request of a round at once, runs again per round, and hands back its state', async () => {
    const { url } = await open();
    const client = new SessionClient(url);
    await client.open({ elicitation: {}, roots: {} });
    const call = reader(
      await client.postStream(client.message('tools/call', { name: 'ask_twice', arguments: {} }, 2)),
    );
    const first = [await nextRequest(call), await nextRequest(call)];
    expect(first.map((event) => event.message['method']).sort()).toEqual([
      'elicitation/create',
      'roots/list',
    ]);
    for (const event of first) {
      const result =
        event.message['method'] === 'roots/list'
          ? { roots: [{ uri: 'file:///work', name: 'work' }] }
          : { action: 'accept', content: { n: 'Ada' } };
      expect((await client.post({ jsonrpc: '2.0', id: event.message['id'], result })).status).toBe(202);
    }
    const second = await nextRequest(call);
    expect(second.message).toMatchObject({ method: 'elicitation/create', params: { message: 'Colour?' } });
    await client.post({
      jsonrpc: '2.0',
      id: second.message['id'],
      result: { action: 'accept', content: { c: 'red' } },
    });
    const rest = await call.rest();
    expect(rest.at(-1)?.message).toMatchObject({
      id: 2,
      result: { content: [{ text: 'done: {"action":"accept","content":{"c":"red"}} after {"round":2}' }] },
    });
  });

  test('is -32021 when the client did not declare the capability at initialize, and nothing is sent', {
    tags: ['threat-model'],
  }, async () => {
    const { url, probe } = await open();
    const client = new SessionClient(url);
    await client.open({ elicitation: {} });
    const answer = await client.request('tools/call', { name: 'ask', arguments: {} });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({
      error: { code: -32021, data: { requiredCapabilities: { sampling: {} } } },
    });
    expect(answer.events.filter((event) => event.message?.['method'] === 'sampling/createMessage')).toEqual(
      [],
    );
    expect(probe.rounds).toHaveLength(1);
  });

  test('on a 2025-03-26 session elicitation is -32021 though the client declared it: that revision defines none', {
    tags: ['threat-model'],
  }, async () => {
    const { url, probe } = await open();
    const client = new SessionClient(url, '2025-03-26');
    await client.open({ elicitation: {}, roots: {} });
    const answer = await client.request('tools/call', { name: 'ask_twice', arguments: {} });
    expect(answer.json).toMatchObject({
      error: { code: -32021, data: { requiredCapabilities: { elicitation: {} } } },
    });
    expect(answer.events.filter((event) => event.message?.['method'] === 'elicitation/create')).toEqual([]);
    expect(probe.rounds).toHaveLength(1);
  });

  test('on a 2025-06-18 session URL-mode elicitation is -32021 though the client declared it', {
    tags: ['threat-model'],
  }, async () => {
    const { url } = await open();
    const client = new SessionClient(url, '2025-06-18');
    await client.open({ elicitation: { form: {}, url: {} } });
    const answer = await client.request('tools/call', { name: 'ask_url', arguments: {} });
    expect(answer.json).toMatchObject({
      error: { code: -32021, data: { requiredCapabilities: { elicitation: { url: {} } } } },
    });
  });

  test('one handler serves 2026-07-28 unchanged: input_required, then the retry answers as the session did', async () => {
    const { url } = await open();
    const client = new SessionClient(url);
    const meta = { ...MODERN_META, 'io.modelcontextprotocol/clientCapabilities': { sampling: {} } };
    const headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'ask' };
    const first = await client.post(
      client.message('tools/call', { name: 'ask', arguments: {}, _meta: meta }),
      {
        sessionId: null,
        headers,
      },
    );
    expect(first.json).toMatchObject({
      result: { resultType: 'input_required', inputRequests: { hi: { method: 'sampling/createMessage' } } },
    });
    const requestState = (first.json?.['result'] as Record<string, unknown> | undefined)?.['requestState'];
    const retry = await client.post(
      client.message('tools/call', {
        name: 'ask',
        arguments: {},
        _meta: meta,
        inputResponses: { hi: SAMPLED },
        requestState,
      }),
      { sessionId: null, headers },
    );
    expect(retry.json).toMatchObject({
      result: { content: [{ type: 'text', text: 'sampled: hello there (state {"step":1})' }] },
    });
  });

  test('without a session (stateless 2025-11-25) the handler catches PALISADE_ERR_INPUT_REQUIRED_UNAVAILABLE', {
    tags: ['threat-model'],
  }, async () => {
    const { url, probe } = await open({ sessions: undefined });
    const client = new SessionClient(url);
    await client.open({ sampling: {} });
    const answer = await client.request('tools/call', { name: 'ask', arguments: {} });
    expect(answer.json).toMatchObject({
      result: { content: [{ text: 'fell back: PALISADE_ERR_INPUT_REQUIRED_UNAVAILABLE' }] },
    });
    expect(probe.inputErrors[0]?.code).toBe('PALISADE_ERR_INPUT_REQUIRED_UNAVAILABLE');
  });

  test('a JSON-only POST has its request carried by the GET stream when one is open', async () => {
    const { url } = await open();
    const client = new SessionClient(url);
    await client.open({ sampling: {} });
    const stream = reader(await client.stream());
    await stream.next();
    const pending = client.request(
      'tools/call',
      { name: 'ask', arguments: {} },
      { accept: 'application/json' },
    );
    const request = await nextRequest(stream);
    await client.post({ jsonrpc: '2.0', id: request.message['id'], result: SAMPLED });
    const answer = await pending;
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.json).toMatchObject({
      result: { content: [{ text: 'sampled: hello there (state {"step":1})' }] },
    });
    await stream.close();
  });

  test('a JSON-only POST with no GET stream open cannot ask: the handler catches PALISADE_ERR_INPUT_UNANSWERED', async () => {
    const { url, probe } = await open();
    const client = new SessionClient(url);
    await client.open({ sampling: {} });
    const answer = await client.request(
      'tools/call',
      { name: 'ask', arguments: {} },
      { accept: 'application/json' },
    );
    expect(answer.json).toMatchObject({
      result: { content: [{ text: 'fell back: PALISADE_ERR_INPUT_UNANSWERED' }] },
    });
    expect(probe.inputErrors[0]?.message).toMatch(/nothing can carry a request to the client/);
  });
  test('a JSON-only POST whose session GET stream was closed cannot ask either: nothing waits on a stream nobody reads', async () => {
    const { url, probe } = await open();
    const client = new SessionClient(url);
    await client.open({ sampling: {} });
    const opened = reader(await client.stream());
    await opened.next();
    await opened.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const answer = await client.request(
      'tools/call',
      { name: 'ask', arguments: {} },
      { accept: 'application/json' },
    );
    expect(answer.json).toMatchObject({
      result: { content: [{ text: 'fell back: PALISADE_ERR_INPUT_UNANSWERED' }] },
    });
    expect(probe.inputErrors[0]?.message).toMatch(/nothing can carry a request to the client/);
  });
});

describe('replies the server refuses', () => {
  test('a reply for an id nobody waits for is 400 client-reply-unknown', {
    tags: ['threat-model'],
  }, async () => {
    const { url, log } = await open();
    const client = new SessionClient(url);
    await client.open({ sampling: {} });
    const reply = await client.post({ jsonrpc: '2.0', id: 424_242, result: SAMPLED });
    expect(reply.status).toBe(400);
    expect(log.map((event) => event.rule)).toContain('client-reply-unknown');
  });

  test("a reply for another session's request is refused there, and that request still gets its own", {
    tags: ['threat-model'],
  }, async () => {
    const { url, log } = await open();
    const victim = new SessionClient(url);
    const attacker = new SessionClient(url);
    await victim.open({ sampling: {} });
    await attacker.open({ sampling: {} });
    const call = reader(
      await victim.postStream(victim.message('tools/call', { name: 'ask', arguments: {} }, 1)),
    );
    const request = await nextRequest(call);
    const forged = { role: 'assistant', content: { type: 'text', text: 'forged' }, model: 'evil' };
    const stolen = await attacker.post({ jsonrpc: '2.0', id: request.message['id'], result: forged });
    expect(stolen.status).toBe(400);
    expect(log.map((event) => event.rule)).toContain('client-reply-unknown');
    await victim.post({ jsonrpc: '2.0', id: request.message['id'], result: SAMPLED });
    const rest = await call.rest();
    expect(JSON.stringify(rest.at(-1)?.message)).toContain('hello there');
    expect(JSON.stringify(rest)).not.toContain('forged');
  });

  test('a reply without the session id is 400 session-id-missing and reaches nobody', async () => {
    const { url } = await open({ sessions: { inputTimeoutMs: 300 } });
    const client = new SessionClient(url);
    await client.open({ sampling: {} });
    const call = reader(
      await client.postStream(client.message('tools/call', { name: 'ask', arguments: {} }, 1)),
    );
    const request = await nextRequest(call);
    const reply = await client.post(
      { jsonrpc: '2.0', id: request.message['id'], result: SAMPLED },
      { sessionId: null },
    );
    expect(reply.status).toBe(400);
    expect(JSON.stringify(await call.rest())).toContain('fell back: PALISADE_ERR_INPUT_UNANSWERED');
  });

  test('past inputTimeoutMs the handler runs again and catches PALISADE_ERR_INPUT_UNANSWERED; the late reply is 400 client-reply-late', {
    tags: ['threat-model'],
  }, async () => {
    const { url, probe, log } = await open({ sessions: { inputTimeoutMs: 200 } });
    const client = new SessionClient(url);
    await client.open({ sampling: {} });
    const call = reader(
      await client.postStream(client.message('tools/call', { name: 'ask', arguments: {} }, 1)),
    );
    const request = await nextRequest(call);
    const rest = await call.rest();
    expect(rest.at(-1)?.message).toMatchObject({
      result: { content: [{ text: 'fell back: PALISADE_ERR_INPUT_UNANSWERED' }] },
    });
    expect(probe.inputErrors[0]?.message).toBe(
      "the client's input is not available: no answer to sampling/createMessage within 200 ms",
    );
    const late = await client.post({ jsonrpc: '2.0', id: request.message['id'], result: SAMPLED });
    expect(late.status).toBe(400);
    expect(log.map((event) => event.rule)).toContain('client-reply-late');
  });

  test('an error reply ends the round: the handler catches PALISADE_ERR_INPUT_UNANSWERED naming the code', async () => {
    const { url, probe } = await open();
    const client = new SessionClient(url);
    await client.open({ sampling: {} });
    const call = reader(
      await client.postStream(client.message('tools/call', { name: 'ask', arguments: {} }, 1)),
    );
    const request = await nextRequest(call);
    const reply = await client.post({
      jsonrpc: '2.0',
      id: request.message['id'],
      error: { code: -1, message: 'User rejected sampling request' },
    });
    expect(reply.status).toBe(202);
    expect(JSON.stringify(await call.rest())).toContain('fell back: PALISADE_ERR_INPUT_UNANSWERED');
    expect(probe.inputErrors[0]?.message).toBe(
      "the client's input is not available: the client answered sampling/createMessage with error -1",
    );
  });

  test('a malformed reply is 400 client-reply-malformed before any session is looked up', {
    tags: ['threat-model'],
  }, async () => {
    const { url, log } = await open();
    const client = new SessionClient(url);
    await client.open({ sampling: {} });
    for (const body of [
      { jsonrpc: '2.0', id: 1, result: 'not an object' },
      { jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'both' } },
      { jsonrpc: '2.0', id: 1, error: { code: 1.5, message: 'x' } },
      { jsonrpc: '2.0', id: 1, result: {}, extra: true },
      { jsonrpc: '1.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: null, result: {} },
    ]) {
      const reply = await client.post(body, { sessionId: null });
      expect(reply.status).toBe(400);
    }
    expect(log.filter((event) => event.rule === 'client-reply-malformed')).toHaveLength(6);
  });

  test('a reply on the stateless path is refused as any response from a client', async () => {
    const { url } = await open({ sessions: undefined });
    const client = new SessionClient(url);
    const reply = await client.post({ jsonrpc: '2.0', id: 1, result: SAMPLED });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ error: { code: -32600 } });
  });
});
