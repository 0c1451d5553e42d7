import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { INITIALIZE, modern, type StdioPeer, startStdioServer } from '../support/stdio-peer.js';

type Json = Record<string, unknown>;

let peer: StdioPeer;
beforeAll(() => {
  peer = startStdioServer('basic');
});
afterAll(async () => {
  await peer.close();
});

function read(uri: unknown, id: number | string = 1): Promise<Json> {
  return peer.request(modern(id, 'resources/read', { uri }));
}

describe('resources', () => {
  test('resources/list lists every resource sorted by URI with cache hints', async () => {
    const reply = await peer.request(modern(1, 'resources/list'));
    expect(reply['result']).toMatchObject({
      resources: [
        { uri: 'fixture://blob', name: 'blob' },
        { uri: 'fixture://empty', name: 'empty' },
        { uri: 'fixture://missing', name: 'missing' },
        { uri: 'fixture://readme', name: 'readme', mimeType: 'text/plain' },
      ],
      ttlMs: 0,
      cacheScope: 'private',
      resultType: 'complete',
    });
  });

  test('resources/templates/list lists the templates', async () => {
    const reply = await peer.request(modern(2, 'resources/templates/list'));
    expect((reply['result'] as Json)['resourceTemplates']).toEqual([
      { uriTemplate: 'fixture://files/{+path}', name: 'file' },
      { uriTemplate: 'fixture://objects/{constructor}', name: 'object' },
      { uriTemplate: 'fixture://users/{id}', name: 'user' },
    ]);
  });

  test('a listed resource is read, with cache hints', async () => {
    const reply = await read('fixture://readme');
    expect(reply['result']).toMatchObject({
      contents: [{ uri: 'fixture://readme', mimeType: 'text/plain', text: 'hello' }],
      ttlMs: 0,
      cacheScope: 'private',
    });
  });

  test('a blob given as bytes is sent as base64', async () => {
    const reply = await read('fixture://blob');
    expect((reply['result'] as Json)['contents']).toEqual([{ uri: 'fixture://blob', blob: 'aGk=' }]);
  });

  test('a template match hands the reader strictly decoded variables', async () => {
    const reply = await read('fixture://users/caf%C3%A9');
    expect((reply['result'] as { contents: Array<{ text: string }> }).contents[0]!.text).toBe(
      '{"id":"café"}',
    );
  });

  test('on 2026-07-28 an unknown resource is -32602 with data.uri, never -32002', {
    tags: ['threat-model'],
  }, async () => {
    expect(await read('fixture://nowhere', 3)).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: {
        code: -32602,
        message: 'Invalid params: resource not found',
        data: { uri: 'fixture://nowhere' },
      },
    });
  });

  test('a reader answering undefined is not found, not an empty contents list', {
    tags: ['threat-model'],
  }, async () => {
    expect(await read('fixture://missing', 4)).toMatchObject({ id: 4, error: { code: -32602 } });
  });

  test('a reader answering an empty list is not found: an empty contents list would claim the resource exists', {
    tags: ['threat-model'],
  }, async () => {
    expect(await read('fixture://empty', 12)).toMatchObject({
      id: 12,
      error: { code: -32602, data: { uri: 'fixture://empty' } },
    });
  });

  test('a {var} never spans a slash, %2F included: the reader is never called', {
    tags: ['threat-model'],
  }, async () => {
    expect(await read('fixture://users/a%2Fb', 5)).toMatchObject({ id: 5, error: { code: -32602 } });
    expect(await read('fixture://users/a/b', 6)).toMatchObject({ id: 6, error: { code: -32602 } });
  });

  test('a {+var} admits slashes but no dot segment', { tags: ['threat-model'] }, async () => {
    expect(await read('fixture://files/a/b.txt', 7)).toHaveProperty('result');
    expect(await read('fixture://files/a/../secret', 8)).toMatchObject({ id: 8, error: { code: -32602 } });
    expect(await read('fixture://files/a/%2e%2e/secret', 9)).toMatchObject({
      id: 9,
      error: { code: -32602 },
    });
  });

  test('a URI too long to echo is refused without data.uri', async () => {
    const reply = await read(`fixture://nowhere/${'x'.repeat(3000)}`, 10);
    expect(reply).toEqual({
      jsonrpc: '2.0',
      id: 10,
      error: { code: -32602, message: 'Invalid params: resource not found' },
    });
  });

  test('a uri that is not a string is -32602', async () => {
    expect(await read(42, 11)).toMatchObject({ id: 11, error: { code: -32602 } });
  });

  test('on 2025-11-25 an unknown resource is -32002 with data.uri', async () => {
    const legacy = startStdioServer('basic');
    try {
      await legacy.request(INITIALIZE);
      const reply = await legacy.request({
        jsonrpc: '2.0',
        id: 1,
        method: 'resources/read',
        params: { uri: 'fixture://nowhere' },
      });
      expect(reply).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32002, message: 'Resource not found', data: { uri: 'fixture://nowhere' } },
      });
    } finally {
      await legacy.close();
    }
  });
});

describe('prompts', () => {
  test('prompts/list lists arguments as declared', async () => {
    const reply = await peer.request(modern(1, 'prompts/list'));
    expect((reply['result'] as Json)['prompts']).toEqual([
      { name: 'greet', arguments: [{ name: 'name', required: true }, { name: 'style' }] },
      { name: 'proto_args', arguments: [{ name: '__proto__', required: true }, { name: 'constructor' }] },
    ]);
  });

  test('prompts/get hands the reader exactly the declared string arguments', async () => {
    const reply = await peer.request(modern(2, 'prompts/get', { name: 'greet', arguments: { name: 'Ada' } }));
    expect(reply['result']).toMatchObject({
      messages: [{ role: 'user', content: { type: 'text', text: '{"name":"Ada"}' } }],
      resultType: 'complete',
    });
  });

  test('a missing required argument is -32602 naming it', { tags: ['threat-model'] }, async () => {
    const reply = await peer.request(modern(3, 'prompts/get', { name: 'greet', arguments: {} }));
    expect(reply['error']).toEqual({ code: -32602, message: 'Invalid params: argument "name" is required' });
  });

  test('an undeclared argument is -32602 and is not echoed', { tags: ['threat-model'] }, async () => {
    const reply = await peer.request(
      modern(4, 'prompts/get', { name: 'greet', arguments: { name: 'a', MARKERX: 'b' } }),
    );
    expect(reply['error']).toEqual({
      code: -32602,
      message: 'Invalid params: an argument is not declared by this prompt',
    });
  });

  test('an argument that is not a string is -32602', async () => {
    const reply = await peer.request(modern(5, 'prompts/get', { name: 'greet', arguments: { name: 1 } }));
    expect(reply).toMatchObject({ id: 5, error: { code: -32602 } });
  });

  test('an argument named __proto__ reaches the reader as an own property, not through a setter', async () => {
    const reply = await peer.request(
      modern(7, 'prompts/get', { name: 'proto_args', arguments: { constructor: 'c' } }),
    );
    expect(reply['error']).toEqual({
      code: -32602,
      message: 'Invalid params: argument "__proto__" is required',
    });
    peer.send(
      `${JSON.stringify(modern(8, 'prompts/get', { name: 'proto_args', arguments: {} })).replace('"arguments":{}', '"arguments":{"__proto__":"p"}')}\n`,
    );
    const served = await peer.nextMessage();
    const text = ((served['result'] as Json)['messages'] as Array<{ content: { text: string } }>)[0]!.content
      .text;
    expect(JSON.parse(text)).toEqual({ own: ['__proto__'], proto: true });
  });

  test('an unknown prompt is -32602', async () => {
    expect(await peer.request(modern(6, 'prompts/get', { name: 'constructor' }))).toMatchObject({
      id: 6,
      error: { code: -32602 },
    });
  });
});

describe('completion/complete', () => {
  test('completes a prompt argument', async () => {
    const reply = await peer.request(
      modern(1, 'completion/complete', {
        ref: { type: 'ref/prompt', name: 'greet' },
        argument: { name: 'style', value: 'f' },
      }),
    );
    expect((reply['result'] as Json)['completion']).toEqual({ values: ['formal'], total: 1, hasMore: false });
  });

  test('answers at most 100 values, saying there are more', { tags: ['threat-model'] }, async () => {
    const reply = await peer.request(
      modern(2, 'completion/complete', {
        ref: { type: 'ref/resource', uri: 'fixture://users/{id}' },
        argument: { name: 'id', value: 'u' },
      }),
    );
    const completion = (
      reply['result'] as { completion: { values: string[]; total: number; hasMore: boolean } }
    ).completion;
    expect(completion.values).toHaveLength(100);
    expect(completion.total).toBe(150);
    expect(completion.hasMore).toBe(true);
  });

  test('an argument with no completer completes to nothing', async () => {
    const reply = await peer.request(
      modern(3, 'completion/complete', {
        ref: { type: 'ref/prompt', name: 'greet' },
        argument: { name: 'name', value: '' },
      }),
    );
    expect((reply['result'] as Json)['completion']).toEqual({ values: [], total: 0, hasMore: false });
  });

  test('a template variable named constructor finds no completer on the prototype chain', async () => {
    const reply = await peer.request(
      modern(5, 'completion/complete', {
        ref: { type: 'ref/resource', uri: 'fixture://objects/{constructor}' },
        argument: { name: 'constructor', value: '' },
      }),
    );
    expect((reply['result'] as Json)['completion']).toEqual({ values: [], total: 0, hasMore: false });
  });

  test('an unknown reference is -32602', async () => {
    const reply = await peer.request(
      modern(4, 'completion/complete', {
        ref: { type: 'ref/prompt', name: 'nope' },
        argument: { name: 'x', value: '' },
      }),
    );
    expect(reply).toMatchObject({ id: 4, error: { code: -32602 } });
  });
});
