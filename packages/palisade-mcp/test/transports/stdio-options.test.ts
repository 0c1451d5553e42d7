/**
 * The stdio transport's `onFault`: checked at construction like every option, and a host hook
 * that throws does not undo the -32603 it was told about, leave the request unanswered, or stop
 * the next line from being answered.
 */
import { afterEach, expect, test, vi } from 'vitest';
import { createServer } from '../../src/index.js';
import { serveStdio } from '../../src/transports/stdio.js';
import { catalogs } from '../fixtures/catalogs.js';
import { modern } from '../support/stdio-peer.js';
import { connectedPair, runOverSockets, type SocketPeer } from '../support/stdio-sockets.js';

const peers: SocketPeer[] = [];
afterEach(() => {
  for (const peer of peers.splice(0)) peer.destroy();
  vi.restoreAllMocks();
});

test('an onFault that is not a function is refused at construction, naming onFault', {
  tags: ['threat-model'],
}, async () => {
  const stdin = await connectedPair();
  const stdout = await connectedPair();
  let thrown: unknown;
  try {
    serveStdio(createServer(catalogs['basic']!()), {
      input: stdin.far,
      output: stdout.far,
      onFault: true as never,
    });
  } catch (error) {
    thrown = error;
  }
  for (const socket of [stdin.near, stdin.far, stdout.near, stdout.far]) socket.destroy();
  expect(thrown).toMatchObject({
    code: 'PALISADE_ERR_INVALID_OPTION',
    message: 'option "onFault" must be a function',
  });
});

test('a tool that throws is answered -32603 when onFault throws too, and the next line is answered', {
  tags: ['threat-model'],
}, async () => {
  const stderr: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr.push(String(chunk));
    return true;
  });
  const peer = await runOverSockets(createServer(catalogs['basic']!()), {
    onFault: () => {
      throw new Error('the host hook failed');
    },
  });
  peers.push(peer);
  peer.sendJson(modern(1, 'tools/call', { name: 'throws', arguments: {} }));
  expect(await peer.nextMessage()).toEqual({
    jsonrpc: '2.0',
    id: 1,
    error: { code: -32603, message: 'Internal error' },
  });
  peer.sendJson(modern(2, 'tools/list'));
  expect(await peer.nextMessage()).toMatchObject({ id: 2, result: { tools: expect.any(Array) } });
  expect(stderr).toContain("palisade: the host's onFault threw; what it was given is dropped\n");
});
