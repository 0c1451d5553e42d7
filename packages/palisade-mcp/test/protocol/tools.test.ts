import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MARKER } from '../fixtures/catalogs.js';
import { INITIALIZE, modern, type StdioPeer, startStdioServer } from '../support/stdio-peer.js';

let peer: StdioPeer;
beforeAll(() => {
  peer = startStdioServer('basic');
});
afterAll(async () => {
  await peer.close();
});

type Json = Record<string, unknown>;

async function call(name: string, args?: unknown, id: number | string = 1): Promise<Json> {
  const params: Json = { name };
  if (args !== undefined) params['arguments'] = args;
  return peer.request(modern(id, 'tools/call', params));
}

function resultOf(reply: Json): Json {
  expect(reply).toHaveProperty('result');
  return reply['result'] as Json;
}

function inspected(reply: Json): Json {
  const content = resultOf(reply)['content'] as Array<{ text: string }>;
  return JSON.parse(content[0]!.text) as Json;
}

describe('tools/list', () => {
  test('lists every tool, sorted by name, with the schema tools/call enforces', async () => {
    const reply = await peer.request(modern(1, 'tools/list'));
    const tools = resultOf(reply)['tools'] as Json[];
    const names = tools.map((tool) => tool['name'] as string);
    expect(names).toEqual([...names].sort());
    expect(tools.find((tool) => tool['name'] === 'echo')).toEqual({
      name: 'echo',
      inputSchema: {
        type: 'object',
        properties: { text: { type: 'string' } },
        required: ['text'],
        additionalProperties: false,
      },
    });
  });

  test('on 2025-11-25 a tool whose outputSchema root is not an object is listed without it', async () => {
    const legacy = startStdioServer('basic');
    try {
      await legacy.request(INITIALIZE);
      const reply = await legacy.request({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      const tools = (reply['result'] as { tools: Json[] }).tools;
      expect(tools.find((tool) => tool['name'] === 'list_output')).not.toHaveProperty('outputSchema');
      expect(tools.find((tool) => tool['name'] === 'add')).toHaveProperty('outputSchema');
    } finally {
      await legacy.close();
    }
  });
});

describe('tools/call arguments', () => {
  test('an unknown tool is -32602, not -32601', async () => {
    expect(await call('nope')).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32602, message: 'Invalid params: no tool has that name' },
    });
  });

  test.each(['toString', '__proto__', 'constructor'])(
    'the tool name %s resolves to nothing',
    { tags: ['threat-model'] },
    async (name) => {
      expect(await call(name)).toMatchObject({ error: { code: -32602 } });
    },
  );

  test('a missing tool name is -32602', async () => {
    expect(await peer.request(modern(2, 'tools/call', {}))).toMatchObject({ id: 2, error: { code: -32602 } });
  });

  test('arguments that are not an object are -32602', async () => {
    expect(await call('echo', ['x'])).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32602, message: 'Invalid params: params.arguments must be an object' },
    });
  });

  test('arguments failing the schema are a tool result with isError, not a protocol error', {
    tags: ['threat-model'],
  }, async () => {
    const result = resultOf(await call('echo', { text: 5 }));
    expect(result['isError']).toBe(true);
    expect(result['content']).toEqual([
      { type: 'text', text: expect.stringMatching(/^Invalid arguments: /) },
    ]);
  });

  test('a schema refusal does not echo the client value', { tags: ['threat-model'] }, async () => {
    const result = resultOf(await call('echo', { text: 5, [MARKER]: MARKER }));
    expect(JSON.stringify(result)).not.toContain(`${MARKER}${MARKER}`);
    const value = resultOf(await call('echo', { text: { deep: MARKER } }));
    expect(JSON.stringify(value)).not.toContain(MARKER);
  });

  test('true, false and null reach the handler as themselves, and nothing is coerced', {
    tags: ['threat-model'],
  }, async () => {
    const report = inspected(await call('typed', { flag: false, maybe: null }));
    expect(report).toEqual({ args: { flag: false, maybe: null }, types: ['boolean', 'null'] });
  });

  test('a schema default is not filled in', { tags: ['threat-model'] }, async () => {
    const report = inspected(await call('typed', {}));
    expect(report).toEqual({ args: {}, types: [] });
  });

  test('a string is not coerced to the integer the schema wants', async () => {
    const result = resultOf(await call('typed', { count: '7' }));
    expect(result['isError']).toBe(true);
  });

  test('an undeclared property is refused, not silently removed', { tags: ['threat-model'] }, async () => {
    const result = resultOf(await call('typed', { flag: true, extra: 1 }));
    expect(result['isError']).toBe(true);
  });

  test('absent arguments are validated and handed over as an empty object', async () => {
    const report = inspected(await call('inspect'));
    expect(report['args']).toEqual({});
  });

  test('a __proto__ key in arguments reaches the handler as an own property and changes no prototype', {
    tags: ['threat-model'],
  }, async () => {
    peer.send(
      `${JSON.stringify(modern(3, 'tools/call', { name: 'inspect', arguments: {} })).replace('"arguments":{}', '"arguments":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"prototype":1}')}\n`,
    );
    const report = inspected(await peer.nextMessage());
    expect(report['protoIsObject']).toBe(true);
    expect(report['polluted']).toBe(false);
    expect(report['ownKeys']).toEqual(['__proto__', 'constructor', 'prototype']);
  });
});

describe('tools/call results', () => {
  test('structured content is checked against outputSchema and also sent as a text block', async () => {
    const result = resultOf(await call('add', { a: 2, b: 3 }));
    expect(result).toMatchObject({
      content: [{ type: 'text', text: '{"sum":5}' }],
      structuredContent: { sum: 5 },
      resultType: 'complete',
    });
  });

  test('a 2026-07-28 client receives non-object structured content', async () => {
    const result = resultOf(await call('list_output'));
    expect(result['structuredContent']).toEqual([1, 2, 3]);
  });

  test('a 2025-11-25 client never receives non-object structured content, only the text block', {
    tags: ['threat-model'],
  }, async () => {
    const legacy = startStdioServer('basic');
    try {
      await legacy.request(INITIALIZE);
      const reply = await legacy.request({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'list_output' },
      });
      expect(reply['result']).toEqual({ content: [{ type: 'text', text: '[1,2,3]' }] });
    } finally {
      await legacy.close();
    }
  });

  test('a host result that fails its own outputSchema is -32603 and leaks nothing', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await call('bad_output', {}, 4);
    expect(reply).toEqual({ jsonrpc: '2.0', id: 4, error: { code: -32603, message: 'Internal error' } });
  });

  test('bytes from the host are base64-encoded; a base64 string is sent as it is', {
    tags: ['threat-model'],
  }, async () => {
    const result = resultOf(await call('bytes'));
    expect(result['content']).toEqual([
      { type: 'image', data: 'AAEC/f7/', mimeType: 'image/png' },
      { type: 'audio', data: 'AAEC', mimeType: 'audio/wav' },
      { type: 'resource', resource: { uri: 'fixture://blob', blob: 'aGk=' } },
    ]);
  });

  test.each([
    ['throws (even with a status of its own)', 'throws'],
    ['rejects', 'rejects'],
    ['returns a BigInt', 'bigint'],
    ['returns a cycle', 'cycle'],
    ['returns a toJSON that throws', 'throwing_tojson'],
    ['returns NaN', 'nan'],
    ['returns a boxed NaN', 'boxed_nan'],
    ['returns a Map', 'map_result'],
    ['returns an invalid Date', 'invalid_date'],
    ['returns something that is not a result', 'not_a_result'],
  ])(
    'a handler that %s is answered -32603 with the request id, and the loop goes on',
    { tags: ['threat-model'] },
    async (_label, name) => {
      const reply = await call(name, {}, `fault-${name}`);
      expect(reply).toEqual({
        jsonrpc: '2.0',
        id: `fault-${name}`,
        error: { code: -32603, message: 'Internal error' },
      });
      expect(JSON.stringify(reply)).not.toContain(MARKER);
      expect(await call('echo', { text: 'still here' })).toMatchObject({
        result: { content: [{ text: 'still here' }] },
      });
    },
  );

  test('an undefined member of a host result is omitted, as JSON has no undefined', async () => {
    const result = resultOf(await call('undefined_member'));
    expect(result['structuredContent']).toEqual({ kept: 1 });
  });

  test('a host fault is reported on stderr, never on stdout', { tags: ['threat-model'] }, async () => {
    await call('throws', {}, 5);
    await expect.poll(() => peer.stderr).toContain('palisade: host fault');
  });
});

describe('progress and logging', () => {
  test('progress is sent only when asked, strictly increasing, and log lines only at the level asked', {
    tags: ['threat-model'],
  }, async () => {
    peer.sendJson(
      modern(6, 'tools/call', {
        name: 'progress',
        _meta: { progressToken: 'p1', 'io.modelcontextprotocol/logLevel': 'info' },
      }),
    );
    const messages: Json[] = [];
    for (;;) {
      const message = await peer.nextMessage();
      messages.push(message);
      if (message['id'] === 6) break;
    }
    expect(messages.slice(0, -1)).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'p1', progress: 1, total: 3 },
      },
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'p1', progress: 2, total: 3, message: 'two' },
      },
      {
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'warning', logger: 'fixture', data: { note: 'a warning' } },
      },
    ]);
  });

  test('without a progressToken or a logLevel nothing precedes the response', async () => {
    const reply = await call('progress', {}, 7);
    expect(reply['id']).toBe(7);
  });

  test('nothing is sent for a request after its response', { tags: ['threat-model'] }, async () => {
    const reply = await peer.request(
      modern(8, 'tools/call', {
        name: 'late_emit',
        _meta: { progressToken: 'late', 'io.modelcontextprotocol/logLevel': 'debug' },
      }),
    );
    expect(reply['id']).toBe(8);
    await expect.poll(() => peer.stderr).toContain('late_emit: emitted');
    const next = await call('echo', { text: 'after' }, 9);
    expect(next['id']).toBe(9);
  });
});
