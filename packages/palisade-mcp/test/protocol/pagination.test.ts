import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { modern, type StdioPeer, startStdioServer } from '../support/stdio-peer.js';

type Json = Record<string, unknown>;

let peer: StdioPeer;
beforeAll(() => {
  peer = startStdioServer('many');
});
afterAll(async () => {
  await peer.close();
});

async function page(method: string, cursor?: unknown, id: number | string = 1): Promise<Json> {
  return peer.request(modern(id, method, cursor === undefined ? {} : { cursor }));
}

describe('pagination', () => {
  test('120 tools come in pages of 50, 50 and 20, every tool once, the last page without nextCursor', async () => {
    const names: string[] = [];
    const sizes: number[] = [];
    let cursor: unknown;
    for (let round = 0; round < 5; round += 1) {
      const result = (await page('tools/list', cursor))['result'] as { tools: Json[]; nextCursor?: string };
      sizes.push(result.tools.length);
      names.push(...result.tools.map((tool) => tool['name'] as string));
      cursor = result.nextCursor;
      if (cursor === undefined) {
        expect(Object.hasOwn(result, 'nextCursor')).toBe(false);
        break;
      }
    }
    expect(sizes).toEqual([50, 50, 20]);
    expect(names).toEqual(Array.from({ length: 120 }, (_, i) => `tool_${String(i).padStart(3, '0')}`));
  });

  test('every page of a list carries the same cacheScope', async () => {
    const first = (await page('tools/list'))['result'] as Json;
    const second = (await page('tools/list', first['nextCursor']))['result'] as Json;
    expect(first['cacheScope']).toBe('private');
    expect(second['cacheScope']).toBe('private');
  });

  test('a cursor from another list is refused by name', { tags: ['threat-model'] }, async () => {
    const first = (await page('tools/list'))['result'] as Json;
    const reply = await page('resources/list', first['nextCursor'], 2);
    expect(reply).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32602, message: 'Invalid params: cursor belongs to another list' },
    });
  });

  test.each([
    ['not base64url', '!!!'],
    ['not JSON inside', Buffer.from('not json').toString('base64url')],
    ['a JSON object of the wrong shape', Buffer.from('{"v":1,"l":"tools"}').toString('base64url')],
    ['a wrong version', Buffer.from('{"v":2,"l":"tools","k":"x"}').toString('base64url')],
    ['a repeated key inside', Buffer.from('{"v":1,"l":"tools","k":"a","k":"b"}').toString('base64url')],
    ['an empty string', ''],
    ['a number', 5],
    ['longer than 1024 characters', 'A'.repeat(1025)],
  ])(
    'a forged cursor that is %s is refused as malformed',
    { tags: ['threat-model'] },
    async (_label, cursor) => {
      const reply = await page('tools/list', cursor, 3);
      expect(reply).toEqual({
        jsonrpc: '2.0',
        id: 3,
        error: { code: -32602, message: 'Invalid params: cursor is malformed' },
      });
    },
  );

  test('a cursor spelled with different trailing bits than issued is refused', async () => {
    const issued = Buffer.from('{"v":1,"l":"tools","k":"tool_049"}').toString('base64url');
    const last = issued.at(-1)!;
    const sibling = issued.slice(0, -1) + String.fromCharCode(last.charCodeAt(0) + 1);
    expect(Buffer.from(sibling, 'base64url').toString()).toBe(Buffer.from(issued, 'base64url').toString());
    expect(await page('tools/list', sibling, 4)).toMatchObject({ error: { code: -32602 } });
  });

  test('a cursor keyed on an item starts after that item, wherever it stands', async () => {
    const cursor = Buffer.from('{"v":1,"l":"tools","k":"tool_049"}').toString('base64url');
    const result = (await page('tools/list', cursor))['result'] as { tools: Json[] };
    expect(result.tools[0]!['name']).toBe('tool_050');
  });

  test('a cursor naming a key between two items never skips the next one', {
    tags: ['threat-model'],
  }, async () => {
    const cursor = Buffer.from('{"v":1,"l":"tools","k":"tool_049a"}').toString('base64url');
    const result = (await page('tools/list', cursor))['result'] as { tools: Json[] };
    expect(result.tools[0]!['name']).toBe('tool_050');
  });
});
