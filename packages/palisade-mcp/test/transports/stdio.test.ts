import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { MARKER } from '../fixtures/catalogs.js';
import { INITIALIZE, modern, type StdioPeer, startStdioServer } from '../support/stdio-peer.js';

type Json = Record<string, unknown>;

/** An echo request whose serialized line is exactly `size` bytes long (newline not counted). */
function echoLineOfSize(size: number, id: number): string {
  const skeleton = JSON.stringify(modern(id, 'tools/call', { name: 'echo', arguments: { text: '' } }));
  const line = skeleton.replace('"text":""', `"text":"${'a'.repeat(size - skeleton.length)}"`);
  expect(Buffer.byteLength(line)).toBe(size);
  return line;
}

const TOOLS_LIST = JSON.stringify(modern(99, 'tools/list'));

describe('stdio framing over a real pipe', () => {
  let peer: StdioPeer;
  beforeAll(() => {
    peer = startStdioServer('basic');
  });
  afterAll(async () => {
    await peer.close();
  });

  test('a line of exactly 1,048,576 bytes is admitted and answered', { tags: ['threat-model'] }, async () => {
    peer.send(`${echoLineOfSize(1_048_576, 1)}\n`);
    const reply = await peer.nextMessage();
    expect(reply['id']).toBe(1);
    expect(reply).toHaveProperty('result');
  });

  test('a line one byte past 1 MiB is refused by name and the next line is answered', {
    tags: ['threat-model'],
  }, async () => {
    peer.send(`${echoLineOfSize(1_048_577, 2)}\n${TOOLS_LIST}\n`);
    expect(await peer.nextMessage()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid request: line exceeds 1048576 bytes' },
    });
    expect((await peer.nextMessage())['id']).toBe(99);
  });

  test('the tail of an over-long line is discarded to its newline, never read as a message', {
    tags: ['threat-model'],
  }, async () => {
    const hidden = JSON.stringify(modern(3, 'tools/call', { name: 'echo', arguments: { text: 'hidden' } }));
    peer.send(`${'x'.repeat(1_048_577)}${hidden}\n${TOOLS_LIST}\n`);
    expect(await peer.nextMessage()).toMatchObject({ error: { code: -32600 } });
    expect((await peer.nextMessage())['id']).toBe(99);
  });

  test('a trailing carriage return counts toward the bound and is then trimmed', {
    tags: ['threat-model'],
  }, async () => {
    peer.send(`${echoLineOfSize(1_048_575, 4)}\r\n`);
    expect((await peer.nextMessage())['id']).toBe(4);
    peer.send(`${echoLineOfSize(1_048_576, 5)}\r\n${TOOLS_LIST}\n`);
    expect(await peer.nextMessage()).toMatchObject({ error: { code: -32600 } });
    expect((await peer.nextMessage())['id']).toBe(99);
  });

  test('a legacy Content-Length frame is read and answered in the same framing', {
    tags: ['threat-model'],
  }, async () => {
    const body = JSON.stringify(modern(6, 'tools/call', { name: 'echo', arguments: { text: 'framed' } }));
    peer.send(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    const header = await peer.nextLine();
    expect(header).toMatch(/^Content-Length: \d+\r$/);
    expect(await peer.nextLine()).toBe('\r');
    const length = Number(header.slice('Content-Length: '.length, -1));
    await expect.poll(() => peer.pending.length).toBeGreaterThanOrEqual(length);
    const reply = JSON.parse(peer.pending.subarray(0, length).toString('utf8')) as Json;
    peer.pending.subarray(length);
    expect(reply).toMatchObject({ id: 6, result: { content: [{ text: 'framed' }] } });
    // Drain what was read so the next test starts on a clean line boundary.
    (peer as unknown as { buffered: Buffer }).buffered = peer.pending.subarray(length);
  });

  test('a legacy frame declaring more than 1 MiB is refused and its body is never read as messages', {
    tags: ['threat-model'],
  }, async () => {
    const inside = `${JSON.stringify(modern(7, 'tools/call', { name: 'echo', arguments: { text: 'smuggled' } }))}\n`;
    const body = inside.padEnd(1_048_577, ' ');
    peer.send(`Content-Length: 1048577\r\n\r\n${body}${TOOLS_LIST}\n`);
    const header = await peer.nextLine();
    expect(header).toMatch(/^Content-Length: \d+\r$/);
    await peer.nextLine();
    await expect.poll(() => peer.pending.length).toBeGreaterThanOrEqual(Number(header.slice(16, -1)));
    const length = Number(header.slice(16, -1));
    const refusal = JSON.parse(peer.pending.subarray(0, length).toString('utf8')) as Json;
    (peer as unknown as { buffered: Buffer }).buffered = peer.pending.subarray(length);
    expect(refusal).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid request: frame exceeds 1048576 bytes' },
    });
    const next = await peer.nextMessage();
    expect(next['id']).toBe(99);
  });

  test('a line nested exactly 64 levels is read; 65 is refused by name and the loop goes on', {
    tags: ['threat-model'],
  }, async () => {
    const nest = (levels: number) => `${'['.repeat(levels - 2)}${']'.repeat(levels - 2)}`;
    const line64 = JSON.stringify(
      modern(8, 'tools/call', { name: 'inspect', arguments: { v: 'HOLE' } }),
    ).replace('"HOLE"', nest(64 - 1));
    // The arguments object is level 4 (message, params, arguments, v's array): fill to exactly 64.
    const depthOf = (text: string) => {
      let depth = 0;
      let max = 0;
      for (const char of text) {
        if (char === '[' || char === '{') max = Math.max(max, ++depth);
        if (char === ']' || char === '}') depth -= 1;
      }
      return max;
    };
    const admitted = line64.replace(nest(63), nest(63 - (depthOf(line64) - 64)));
    expect(depthOf(admitted)).toBe(64);
    peer.send(`${admitted}\n`);
    expect((await peer.nextMessage())['id']).toBe(8);
    const refused = admitted.replace('[]', '[[]]');
    expect(depthOf(refused)).toBe(65);
    peer.send(`${refused}\n${TOOLS_LIST}\n`);
    expect(await peer.nextMessage()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid request: message nests deeper than 64 levels' },
    });
    expect((await peer.nextMessage())['id']).toBe(99);
  });

  test('a line with a repeated key is refused naming the key, and the loop goes on', {
    tags: ['threat-model'],
  }, async () => {
    peer.send(`{"jsonrpc":"2.0","id":9,"method":"tools/list","method":"tools/call"}\n${TOOLS_LIST}\n`);
    expect(await peer.nextMessage()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid request: message repeats the key "method"' },
    });
    expect((await peer.nextMessage())['id']).toBe(99);
  });

  test('a line that is not JSON is -32700 and carries none of its bytes', {
    tags: ['threat-model'],
  }, async () => {
    peer.send(`{"jsonrpc": ${MARKER}\n`);
    const reply = await peer.nextMessage();
    expect(reply).toEqual({
      jsonrpc: '2.0',
      error: { code: -32700, message: 'Parse error: message is not valid JSON' },
    });
  });

  test('a line of invalid UTF-8 is -32700', { tags: ['threat-model'] }, async () => {
    peer.send(
      Buffer.concat([
        Buffer.from('{"jsonrpc":"2.0","id":1,"method":"'),
        Buffer.from([0xc3, 0x28]),
        Buffer.from('"}\n'),
      ]),
    );
    expect(await peer.nextMessage()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32700, message: 'Parse error: message is not valid UTF-8' },
    });
  });

  test('JSON that is not an object is -32600 naming its type, never silence', {
    tags: ['threat-model'],
  }, async () => {
    peer.send('"just a string"\n');
    expect(await peer.nextMessage()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid request: message is a string, not an object' },
    });
  });

  test('a batch is refused by name', { tags: ['threat-model'] }, async () => {
    peer.send(`[${TOOLS_LIST}]\n`);
    expect(await peer.nextMessage()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid request: batch (array) messages are not supported' },
    });
  });

  test('empty lines between messages are skipped', async () => {
    peer.send(`\n\r\n\n${TOOLS_LIST}\n`);
    expect((await peer.nextMessage())['id']).toBe(99);
  });

  test('a second request in flight under the same id is refused without an id', {
    tags: ['threat-model'],
  }, async () => {
    const waiting = JSON.stringify(modern(10, 'tools/call', { name: 'wait_for_abort' }));
    peer.send(`${waiting}\n${waiting}\n`);
    expect(await peer.nextMessage()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid request: id is already used by a request in flight' },
    });
    peer.sendJson({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 10 } });
    await expect.poll(() => peer.stderr).toContain('wait_for_abort: aborted');
  });
});

describe('stdio lifecycle', () => {
  let peer: StdioPeer;
  afterEach(() => {
    peer.kill();
  });

  test('a host writing to stdout through console or process.stdout lands on stderr, not in the protocol stream', {
    tags: ['threat-model'],
  }, async () => {
    peer = startStdioServer('basic');
    const reply = await peer.request(modern(1, 'tools/call', { name: 'stray_output' }));
    expect(reply).toMatchObject({ id: 1, result: { content: [{ text: 'wrote' }] } });
    expect((await peer.request(modern(2, 'tools/list')))['id']).toBe(2);
    await expect.poll(() => peer.stderr).toContain(`process.stdout.write ${MARKER}`);
    expect(peer.stderr).toContain(`console.log ${MARKER}`);
    expect(peer.stderr).toContain(`console.info ${MARKER}`);
  });

  test('notifications/cancelled aborts the handler and nothing more is sent for that request', {
    tags: ['threat-model'],
  }, async () => {
    peer = startStdioServer('basic');
    peer.sendJson(modern(1, 'tools/call', { name: 'wait_for_abort', _meta: { progressToken: 't' } }));
    expect(await peer.nextMessage()).toMatchObject({
      method: 'notifications/progress',
      params: { progress: 1 },
    });
    peer.sendJson({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 1, reason: 'user' },
    });
    await expect.poll(() => peer.stderr).toContain('wait_for_abort: aborted');
    // The handler returned and tried to report progress after the abort: neither reaches the client.
    const next = await peer.request(modern(2, 'tools/list'));
    expect(next['id']).toBe(2);
  });

  test('a cancel for an unknown id is ignored', async () => {
    peer = startStdioServer('basic');
    peer.sendJson({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'nope' } });
    expect((await peer.request(modern(3, 'tools/list')))['id']).toBe(3);
  });

  test('when stdin closes, in-flight handlers are aborted and the process exits', {
    tags: ['threat-model'],
  }, async () => {
    peer = startStdioServer('basic');
    peer.sendJson(modern(1, 'tools/call', { name: 'wait_for_abort' }));
    await expect.poll(() => peer.stderr).not.toBe('__never__');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const code = await peer.close();
    expect(code).toBe(0);
    expect(peer.stderr).toContain('wait_for_abort: aborted');
  });

  test('a request piped just before stdin closes is still answered', async () => {
    peer = startStdioServer('basic');
    peer.child.stdin.end(`${JSON.stringify(INITIALIZE)}\n`);
    expect(await peer.nextMessage()).toMatchObject({ id: 0, result: { protocolVersion: '2025-11-25' } });
    expect(await peer.exited).toBe(0);
  });

  test('a final line without a newline is answered at end of input', async () => {
    peer = startStdioServer('basic');
    peer.child.stdin.end(JSON.stringify(modern(5, 'tools/list')));
    expect((await peer.nextMessage())['id']).toBe(5);
  });
});
