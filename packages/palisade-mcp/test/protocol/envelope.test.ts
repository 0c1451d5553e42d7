import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MODERN_META, modern, type StdioPeer, startStdioServer } from '../support/stdio-peer.js';

let peer: StdioPeer;
beforeAll(() => {
  peer = startStdioServer('basic');
});
afterAll(async () => {
  await peer.close();
});

/** Sends one exact line and returns the one line that answers it. */
async function answer(line: string): Promise<Record<string, unknown>> {
  peer.send(`${line}\n`);
  return JSON.parse(await peer.nextLine()) as Record<string, unknown>;
}

const META = JSON.stringify(MODERN_META);

describe('the JSON-RPC envelope', () => {
  test('a jsonrpc member other than "2.0" is refused with -32600 and the request id', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await answer(`{"jsonrpc":"1.0","id":7,"method":"tools/list","params":{"_meta":${META}}}`);
    expect(reply).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32600, message: 'Invalid request: jsonrpc must be "2.0"' },
    });
  });

  test('a message without jsonrpc is refused with -32600', async () => {
    const reply = await answer(`{"id":8,"method":"tools/list","params":{"_meta":${META}}}`);
    expect(reply).toMatchObject({ id: 8, error: { code: -32600 } });
  });

  test('a method that is not a string is refused with -32600', async () => {
    const reply = await answer('{"jsonrpc":"2.0","id":9,"method":42}');
    expect(reply).toEqual({
      jsonrpc: '2.0',
      id: 9,
      error: { code: -32600, message: 'Invalid request: method must be a string' },
    });
  });

  test.each([
    ['null', 'null'],
    ['fractional', '1.5'],
    ['boolean', 'true'],
    ['an object', '{"n":1}'],
    ['an array', '[1]'],
    ['beyond 2^53 - 1', '9007199254740992'],
    ['below -(2^53 - 1)', '-9007199254740992'],
  ])(
    'an id that is %s is refused with -32600 and carries no id',
    { tags: ['threat-model'] },
    async (_label, id) => {
      const reply = await answer(
        `{"jsonrpc":"2.0","id":${id},"method":"tools/list","params":{"_meta":${META}}}`,
      );
      expect(reply).toEqual({
        jsonrpc: '2.0',
        error: {
          code: -32600,
          message: 'Invalid request: id must be a string or an integer within ±(2^53 - 1)',
        },
      });
      expect(Object.hasOwn(reply, 'id')).toBe(false);
    },
  );

  test('an id of exactly 2^53 - 1 is answered with that id', async () => {
    const reply = await answer(
      `{"jsonrpc":"2.0","id":9007199254740991,"method":"tools/list","params":{"_meta":${META}}}`,
    );
    expect(reply['id']).toBe(9007199254740991);
    expect(reply).toHaveProperty('result');
  });

  test('a string id is answered with the same string', async () => {
    const reply = await peer.request(modern('req-α', 'tools/list'));
    expect(reply['id']).toBe('req-α');
  });

  test('a JSON-RPC response sent by the client is refused with -32600 and no id', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await answer('{"jsonrpc":"2.0","id":5,"result":{}}');
    expect(reply).toEqual({
      jsonrpc: '2.0',
      error: {
        code: -32600,
        message: 'Invalid request: a JSON-RPC response is not accepted from the client',
      },
    });
  });

  test('a client error response is refused the same way', async () => {
    const reply = await answer('{"jsonrpc":"2.0","id":5,"error":{"code":1,"message":"x"}}');
    expect(reply).toMatchObject({ error: { code: -32600 } });
    expect(Object.hasOwn(reply, 'id')).toBe(false);
  });

  test('a top-level _meta on a request is refused with -32602 naming the place, and never read as a fallback', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await answer(`{"jsonrpc":"2.0","id":11,"method":"tools/list","_meta":${META},"params":{}}`);
    expect(reply).toEqual({
      jsonrpc: '2.0',
      id: 11,
      error: {
        code: -32602,
        message: 'Invalid params: _meta belongs in params._meta; a top-level _meta is not read',
      },
    });
  });

  test('a top-level _meta is refused even when params._meta is also present', async () => {
    const reply = await answer(
      `{"jsonrpc":"2.0","id":12,"method":"tools/list","_meta":${META},"params":{"_meta":${META}}}`,
    );
    expect(reply).toMatchObject({ id: 12, error: { code: -32602 } });
  });

  test('params that are an array are refused with -32602', async () => {
    const reply = await answer('{"jsonrpc":"2.0","id":13,"method":"tools/list","params":[]}');
    expect(reply).toEqual({
      jsonrpc: '2.0',
      id: 13,
      error: { code: -32602, message: 'Invalid params: params must be an object' },
    });
  });

  test('a member JSON-RPC does not define is refused with -32600', { tags: ['threat-model'] }, async () => {
    const reply = await answer(
      `{"jsonrpc":"2.0","id":14,"method":"tools/list","params":{"_meta":${META}},"extra":1}`,
    );
    expect(reply).toMatchObject({ id: 14, error: { code: -32600 } });
  });

  test('an unknown method is -32601 and names no client bytes', async () => {
    const reply = await peer.request(modern(15, 'no/such/method-MARKER'));
    expect(reply).toEqual({ jsonrpc: '2.0', id: 15, error: { code: -32601, message: 'Method not found' } });
  });

  test.each(['toString', '__proto__', 'constructor', 'hasOwnProperty'])(
    'the method name %s resolves to nothing',
    { tags: ['threat-model'] },
    async (method) => {
      const reply = await peer.request(modern(16, method));
      expect(reply).toMatchObject({ id: 16, error: { code: -32601 } });
    },
  );

  test('a notification is never answered, and the next request is', async () => {
    peer.send('{"jsonrpc":"2.0","method":"notifications/whatever"}\n');
    const reply = await peer.request(modern(17, 'tools/list'));
    expect(reply['id']).toBe(17);
  });

  test('a notification with a malformed envelope is refused without an id', async () => {
    const reply = await answer('{"jsonrpc":"2.0","method":7}');
    expect(reply).toMatchObject({ error: { code: -32600 } });
    expect(Object.hasOwn(reply, 'id')).toBe(false);
  });
});
