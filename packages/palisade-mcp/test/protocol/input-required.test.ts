/**
 * Multi-round-trip requests (MRTR, 2026-07-28, spec §9) over the real transports: a handler
 * returns `ctx.inputRequired(...)`, the client gets an `input_required` result, retries with
 * `inputResponses` and the `requestState` it was given, and the handler completes.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { hmacSealer, mrtrDefinition } from '../fixtures/mrtr.js';
import { ALL_CAPABILITIES, type MrtrPeer, mountMrtr } from '../support/mrtr-http.js';
import { INITIALIZE, modern, type StdioPeer, startStdioServer } from '../support/stdio-peer.js';

type Json = Record<string, unknown>;

const SERVER_INFO = { 'io.modelcontextprotocol/serverInfo': { name: 'mrtr-fixture', version: '1.0.0' } };
const NAME_SCHEMA = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };

function resultOf(reply: { body: Json }): Json {
  expect(reply.body).toHaveProperty('result');
  return reply.body['result'] as Json;
}

function textOf(result: Json): string {
  return (result['content'] as Array<{ text: string }>)[0]!.text;
}

describe('MRTR over HTTP with a sealer', () => {
  let peer: MrtrPeer;
  beforeAll(async () => {
    peer = await mountMrtr(mrtrDefinition(hmacSealer()));
  });
  afterAll(() => peer.close());

  test('round one of tools/call is an input_required result with the requests and a requestState', async () => {
    const reply = await peer.call('tools/call', { name: 'greet' }, { capabilities: ALL_CAPABILITIES });
    expect(reply.status).toBe(200);
    const result = resultOf(reply);
    expect(Object.keys(result)).toEqual(['resultType', 'inputRequests', 'requestState', '_meta']);
    expect(result).toEqual({
      resultType: 'input_required',
      inputRequests: {
        user_name: {
          method: 'elicitation/create',
          params: { message: 'What is your name?', requestedSchema: NAME_SCHEMA },
        },
      },
      requestState: expect.any(String),
      _meta: SERVER_INFO,
    });
  });

  test('the retry completes, and the handler sees the inputResponses and its own state', async () => {
    const first = resultOf(
      await peer.call('tools/call', { name: 'greet' }, { capabilities: ALL_CAPABILITIES }),
    );
    const inputResponses = {
      user_name: { action: 'accept', content: { name: 'Ada' } },
      extra: { ignored: true },
    };
    const reply = await peer.call(
      'tools/call',
      { name: 'greet', inputResponses, requestState: first['requestState'] },
      { capabilities: ALL_CAPABILITIES },
    );
    const result = resultOf(reply);
    expect(result['resultType']).toBe('complete');
    expect(JSON.parse(textOf(result).slice('Hello! '.length))).toEqual({
      inputResponses,
      requestState: { step: 1 },
    });
  });

  test('resources/read answers input_required without ttlMs or cacheScope', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await peer.call(
      'resources/read',
      { uri: 'mrtr://confirm' },
      { capabilities: ALL_CAPABILITIES },
    );
    expect(resultOf(reply)).toEqual({
      resultType: 'input_required',
      inputRequests: {
        confirm: {
          method: 'elicitation/create',
          params: { message: 'Confirm?', requestedSchema: NAME_SCHEMA },
        },
      },
      requestState: expect.any(String),
      _meta: SERVER_INFO,
    });
  });

  test('prompts/get asks for input, then answers a GetPromptResult on the retry', async () => {
    const first = resultOf(
      await peer.call('prompts/get', { name: 'context_prompt' }, { capabilities: ALL_CAPABILITIES }),
    );
    expect(first['resultType']).toBe('input_required');
    expect(Object.keys(first['inputRequests'] as Json)).toEqual(['user_context']);
    const second = resultOf(
      await peer.call(
        'prompts/get',
        {
          name: 'context_prompt',
          inputResponses: { user_context: { action: 'accept', content: { context: 'tests' } } },
          requestState: first['requestState'],
        },
        { capabilities: ALL_CAPABILITIES },
      ),
    );
    expect(second).toMatchObject({
      resultType: 'complete',
      messages: [{ role: 'user', content: { type: 'text', text: 'Context: tests' } }],
    });
  });

  test('a three-round request gets a different requestState each round and then completes', async () => {
    const caps = { capabilities: ALL_CAPABILITIES };
    const one = resultOf(await peer.call('tools/call', { name: 'steps' }, caps));
    expect(Object.keys(one['inputRequests'] as Json)).toEqual(['step1']);
    const two = resultOf(
      await peer.call(
        'tools/call',
        {
          name: 'steps',
          inputResponses: { step1: { action: 'accept', content: { name: 'Ada' } } },
          requestState: one['requestState'],
        },
        caps,
      ),
    );
    expect(Object.keys(two['inputRequests'] as Json)).toEqual(['step2']);
    expect(two['requestState']).not.toBe(one['requestState']);
    const three = resultOf(
      await peer.call(
        'tools/call',
        {
          name: 'steps',
          inputResponses: { step2: { action: 'accept', content: { color: 'green' } } },
          requestState: two['requestState'],
        },
        caps,
      ),
    );
    expect(three['resultType']).toBe('complete');
    expect(textOf(three)).toBe('Ada likes green');
  });

  test('an input request needing a capability the request lacks is not sent: -32021 naming it, HTTP 400', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await peer.call(
      'tools/call',
      { name: 'ask_sampling' },
      { capabilities: { elicitation: {} } },
    );
    expect(reply.status).toBe(400);
    expect(reply.body['error']).toEqual({
      code: -32021,
      message: 'Missing required client capability',
      data: { requiredCapabilities: { sampling: {}, roots: {} } },
    });
  });

  test('a URL-mode elicitation needs elicitation.url, not just elicitation', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await peer.call('tools/call', { name: 'ask_url' }, { capabilities: { elicitation: {} } });
    expect(reply.status).toBe(400);
    expect(reply.body['error']).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: { url: {} } } },
    });
    const allowed = await peer.call(
      'tools/call',
      { name: 'ask_url' },
      { capabilities: { elicitation: { url: {} } } },
    );
    expect(resultOf(allowed)['resultType']).toBe('input_required');
  });

  test.each([
    ['a string', 'nope'],
    ['an array', [{ action: 'accept' }]],
    ['an object holding a number', { user_name: 12345 }],
    ['an object holding null', { user_name: null }],
  ])(
    'inputResponses given as %s is refused with -32602 naming the field',
    { tags: ['threat-model'] },
    async (_label, inputResponses) => {
      const reply = await peer.call(
        'tools/call',
        { name: 'greet', inputResponses },
        { capabilities: ALL_CAPABILITIES },
      );
      expect(reply.body['error']).toEqual({
        code: -32602,
        message: 'Invalid params: params.inputResponses must be an object whose values are objects',
      });
    },
  );

  test('an object with the members of the input-required value is an ordinary result, not a request for input', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await peer.call('tools/call', { name: 'look_alike' }, { capabilities: ALL_CAPABILITIES });
    const result = resultOf(reply);
    expect(result['resultType']).toBe('complete');
    expect(result).not.toHaveProperty('inputRequests');
  });
});

describe('MRTR bounds', () => {
  let peer: MrtrPeer;
  beforeAll(async () => {
    peer = await mountMrtr(mrtrDefinition(hmacSealer()));
  });
  afterAll(() => peer.close());

  test('a handler asking for 16 inputs in one round is answered, and for 17 is a host fault', {
    tags: ['threat-model'],
  }, async () => {
    const sixteen = await peer.call(
      'tools/call',
      { name: 'ask_many', arguments: { count: 16, keyLength: 2 } },
      {
        capabilities: ALL_CAPABILITIES,
      },
    );
    expect(Object.keys(resultOf(sixteen)['inputRequests'] as Json)).toHaveLength(16);
    const seventeen = await peer.call(
      'tools/call',
      { name: 'ask_many', arguments: { count: 17, keyLength: 2 } },
      {
        capabilities: ALL_CAPABILITIES,
      },
    );
    expect(seventeen.status).toBe(200);
    expect(seventeen.body['error']).toEqual({ code: -32603, message: 'Internal error' });
  });

  test('an input request key of 65 characters is a host fault', { tags: ['threat-model'] }, async () => {
    const sixtyFour = await peer.call(
      'tools/call',
      { name: 'ask_many', arguments: { count: 1, keyLength: 64 } },
      {
        capabilities: ALL_CAPABILITIES,
      },
    );
    expect(resultOf(sixtyFour)['resultType']).toBe('input_required');
    const sixtyFive = await peer.call(
      'tools/call',
      { name: 'ask_many', arguments: { count: 1, keyLength: 65 } },
      {
        capabilities: ALL_CAPABILITIES,
      },
    );
    expect(sixtyFive.body['error']).toEqual({ code: -32603, message: 'Internal error' });
  });
});

describe('MRTR over HTTP without a sealer', () => {
  let peer: MrtrPeer;
  beforeAll(async () => {
    peer = await mountMrtr(mrtrDefinition());
  });
  afterAll(() => peer.close());

  test('input_required carries the requests and no requestState', async () => {
    const reply = await peer.call('tools/call', { name: 'ask_plain' }, { capabilities: ALL_CAPABILITIES });
    expect(resultOf(reply)).toEqual({
      resultType: 'input_required',
      inputRequests: {
        user_name: {
          method: 'elicitation/create',
          params: { message: 'Name?', requestedSchema: NAME_SCHEMA },
        },
      },
      _meta: SERVER_INFO,
    });
  });

  test('an arriving requestState is not read, not acted on and not echoed', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await peer.call(
      'tools/call',
      {
        name: 'ask_plain',
        inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } },
        requestState: 'ATTACKER-STATE-91c2',
      },
      { capabilities: ALL_CAPABILITIES },
    );
    const result = resultOf(reply);
    expect(result['resultType']).toBe('complete');
    expect(JSON.parse(textOf(result))).toMatchObject({ requestState: null });
    expect(JSON.stringify(reply.body)).not.toContain('ATTACKER-STATE-91c2');
  });

  test('a handler giving a state with no sealer to seal it is a host fault, reported to the host', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await peer.call(
      'tools/call',
      { name: 'ask_with_state' },
      { capabilities: ALL_CAPABILITIES },
    );
    expect(reply.body['error']).toEqual({ code: -32603, message: 'Internal error' });
    expect(peer.faults).toContain(
      'ctx.inputRequired was given a state, but the server has no requestState.sealer',
    );
  });
});

describe('MRTR over stdio', () => {
  let peer: StdioPeer;
  beforeAll(() => {
    peer = startStdioServer('mrtr');
  });
  afterAll(async () => {
    await peer.close();
  });

  test('round one and its retry complete over the pipe', async () => {
    const meta = { 'io.modelcontextprotocol/clientCapabilities': ALL_CAPABILITIES };
    const first = await peer.request(modern(1, 'tools/call', { name: 'greet', _meta: meta }));
    const round = first['result'] as Json;
    expect(round['resultType']).toBe('input_required');
    const second = await peer.request(
      modern(2, 'tools/call', {
        name: 'greet',
        inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } },
        requestState: round['requestState'],
        _meta: meta,
      }),
    );
    expect((second['result'] as Json)['resultType']).toBe('complete');
    expect(textOf(second['result'] as Json)).toContain('"requestState":{"step":1}');
  });
});

describe('requests to the client over stdio (2025-11-25)', () => {
  let peer: StdioPeer;
  afterEach(async () => {
    await peer.close();
  });

  async function open(capabilities: Json, extraArgs: readonly string[] = []): Promise<void> {
    peer = startStdioServer('mrtr', extraArgs);
    await peer.request({ ...INITIALIZE, params: { ...INITIALIZE.params, capabilities } });
    peer.sendJson({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  test('ctx.inputRequired sends a real elicitation/create request, and the reply reaches the handler', {
    tags: ['threat-model'],
  }, async () => {
    await open({ elicitation: {} });
    peer.sendJson({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'greet' } });
    const request = await peer.nextMessage();
    expect(request).toEqual({
      jsonrpc: '2.0',
      id: expect.any(Number),
      method: 'elicitation/create',
      params: { message: 'What is your name?', requestedSchema: NAME_SCHEMA },
    });
    const reply = { action: 'accept', content: { name: 'Ada' } };
    const answer = await peer.request({ jsonrpc: '2.0', id: request['id'], result: reply });
    expect(answer).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: {
        content: [
          {
            type: 'text',
            text: `Hello! ${JSON.stringify({ inputResponses: { user_name: reply }, requestState: { step: 1 } })}`,
          },
        ],
      },
    });
  });

  test('an input request the client did not declare is -32021, and nothing is sent', {
    tags: ['threat-model'],
  }, async () => {
    await open({ sampling: {} });
    const reply = await peer.request({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'greet' },
    });
    expect(reply).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: {
        code: -32021,
        message: 'Missing required client capability',
        data: { requiredCapabilities: { elicitation: {} } },
      },
    });
  });

  test('a reply for an id nobody waits for is refused as any response from a client, and the connection serves on', {
    tags: ['threat-model'],
  }, async () => {
    await open({ elicitation: {} });
    const refused = await peer.request({ jsonrpc: '2.0', id: 77, result: { action: 'accept' } });
    expect(refused).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: expect.any(String) } });
    const pong = await peer.request({ jsonrpc: '2.0', id: 3, method: 'ping' });
    expect(pong).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
  });

  test('past inputTimeoutMs the handler catches PALISADE_ERR_INPUT_UNANSWERED, and a late reply is refused', {
    tags: ['threat-model'],
  }, async () => {
    await open({ elicitation: {} }, ['--input-timeout=200']);
    peer.sendJson({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'dual' } });
    const request = await peer.nextMessage();
    expect(request).toMatchObject({ method: 'elicitation/create' });
    const answer = await peer.nextMessage();
    expect(answer).toEqual({
      jsonrpc: '2.0',
      id: 4,
      result: { content: [{ type: 'text', text: 'fallback PALISADE_ERR_INPUT_UNANSWERED' }] },
    });
    const late = await peer.request({ jsonrpc: '2.0', id: request['id'], result: { action: 'decline' } });
    expect(late).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: expect.any(String) } });
  });
});
