import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { modern, type StdioPeer, startStdioServer } from '../support/stdio-peer.js';

let peer: StdioPeer;
beforeAll(() => {
  peer = startStdioServer('basic');
});
afterAll(async () => {
  await peer.close();
});

describe('validation cannot hold the event loop', () => {
  // The only timed assertion here, and deliberately loose: a backtracking engine needs hours
  // (2^n steps) to reject this input, so any bound in seconds tells the two apart.
  test('a catastrophic host pattern against a 1 MiB argument is rejected and the next request is answered promptly', {
    tags: ['threat-model'],
  }, async () => {
    const started = Date.now();
    peer.sendJson(
      modern(1, 'tools/call', {
        name: 'catastrophic_pattern',
        arguments: { s: `${'a'.repeat(1_000_000)}!` },
      }),
    );
    peer.sendJson(modern(2, 'tools/list'));
    const first = await peer.nextMessage(20_000);
    const second = await peer.nextMessage(20_000);
    const elapsed = Date.now() - started;
    const byId = new Map([first, second].map((message) => [message['id'], message]));
    expect(byId.get(1)).toMatchObject({ result: { isError: true } });
    expect(byId.get(2)).toHaveProperty('result');
    expect(elapsed).toBeLessThan(15_000);
  });

  test('a pattern that would build a state per character fails closed within its work budget, and the next request is answered', {
    tags: ['threat-model'],
  }, async () => {
    let seed = 7;
    const random = Array.from({ length: 1_000_000 }, () => {
      seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
      return (seed >> 16) & 1 ? 'a' : 'b';
    }).join('');
    const started = Date.now();
    peer.sendJson(modern(4, 'tools/call', { name: 'state_explosion_pattern', arguments: { s: random } }));
    peer.sendJson(modern(5, 'tools/list'));
    const replies = [await peer.nextMessage(20_000), await peer.nextMessage(20_000)];
    const elapsed = Date.now() - started;
    const byId = new Map(replies.map((message) => [message['id'], message]));
    expect(byId.get(4)).toMatchObject({
      result: {
        isError: true,
        content: [{ type: 'text', text: expect.stringContaining('could not check within its work budget') }],
      },
    });
    expect(byId.get(5)).toHaveProperty('result');
    expect(elapsed).toBeLessThan(5_000);
  });

  test('a matching long argument is admitted', async () => {
    const reply = await peer.request(
      modern(3, 'tools/call', { name: 'catastrophic_pattern', arguments: { s: 'a'.repeat(100_000) } }),
    );
    expect(reply).toMatchObject({ id: 3, result: { content: [{ type: 'text', text: '100000' }] } });
  });
});
