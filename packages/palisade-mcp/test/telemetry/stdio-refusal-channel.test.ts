/**
 * The stdio transport tells `palisade:stdio-refusal` of every refusal it answers itself, as
 * `{ rule, code }` and nothing else. Observed over a real pipe: the spawned server subscribes and
 * writes each event to its stderr.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MAX_MESSAGE_BYTES, STDIO_REFUSAL_CHANNEL } from '../../src/index.js';
import { bundledFixture } from '../support/fixture-bundles.js';
import { modern, StdioPeer } from '../support/stdio-peer.js';

const MARKER = 'STDIOMARK';

const peer = new StdioPeer(
  spawn(process.execPath, [bundledFixture('serve-telemetry-stdio'), '--channel'], { stdio: 'pipe' }),
);
// A spawned tsx process can take many seconds to start on a busy machine: wait for its first answer.
beforeAll(async () => {
  peer.sendJson(modern('warm', 'tools/list'));
  await peer.nextMessage(60_000);
}, 60_000);
afterAll(() => peer.kill());

/** The channel events the server has written to stderr so far, once `count` of them arrived. */
async function channelEvents(count: number): Promise<unknown[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const events = peer.stderr
      .split('\n')
      .filter((line) => line.startsWith('channel '))
      .map((line) => JSON.parse(line.slice('channel '.length)) as unknown);
    if (events.length >= count || Date.now() > deadline) return events;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the stdio refusal channel', () => {
  test('the channel name is palisade:stdio-refusal', () => {
    expect(STDIO_REFUSAL_CHANNEL).toBe('palisade:stdio-refusal');
  });

  test('a line that is not JSON publishes its rule and code, and none of its bytes', {
    tags: ['threat-model'],
  }, async () => {
    peer.send(`{"not json ${MARKER}\n`);
    const refusal = await peer.nextMessage();
    expect((refusal['error'] as { code: number }).code).toBe(-32700);
    const events = await channelEvents(1);
    expect(events.at(-1)).toEqual({ rule: 'not-json', code: -32700 });
    expect(peer.stderr).not.toContain(MARKER);
  });

  test('a line over the size bound publishes line-too-large', async () => {
    const before = (await channelEvents(0)).length;
    peer.send(`${'x'.repeat(MAX_MESSAGE_BYTES + 1)}\n`);
    await peer.nextMessage();
    const events = await channelEvents(before + 1);
    expect(events.at(-1)).toEqual({ rule: 'line-too-large', code: -32600 });
  });

  test('a request reusing the id of one in flight publishes id-in-flight', async () => {
    const before = (await channelEvents(0)).length;
    // Both lines arrive in one chunk: the second is framed before the first one's answer settles.
    peer.send(
      `${JSON.stringify(modern('same', 'tools/call', { name: 'trace' }))}\n${JSON.stringify(modern('same', 'tools/call', { name: 'trace' }))}\n`,
    );
    await peer.nextMessage();
    await peer.nextMessage();
    const events = await channelEvents(before + 1);
    expect(events.at(-1)).toEqual({ rule: 'id-in-flight', code: -32600 });
  });

  test('a request the server answers is not a transport refusal and publishes nothing', async () => {
    const before = (await channelEvents(0)).length;
    await peer.request(modern(7, 'tools/call', { name: 'no-such-tool' }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await channelEvents(0)).toHaveLength(before);
  });
});
