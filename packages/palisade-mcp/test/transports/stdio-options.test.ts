/**
 * The options of `serveStdio`, checked by name at the call: not a plain object, an unknown key, an
 * `onFault` that is not a function. A host `onFault` that throws does not undo the -32603 it was
 * told about, leave the request unanswered, or stop the next line from being answered.
 */
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { PalisadeError } from '../../src/errors.js';
import { createServer } from '../../src/index.js';
import { serveStdio } from '../../src/transports/stdio.js';
import { catalogs } from '../fixtures/catalogs.js';
import { basicServer } from '../support/http-peer.js';
import { modern } from '../support/stdio-peer.js';
import { connectedPair, runOverSockets, type SocketPeer } from '../support/stdio-sockets.js';

const peers: SocketPeer[] = [];
afterEach(() => {
  for (const peer of peers.splice(0)) peer.destroy();
  vi.restoreAllMocks();
});

function thrownBy(run: () => unknown): PalisadeError {
  try {
    run();
  } catch (error) {
    if (error instanceof PalisadeError) return error;
    throw error;
  }
  throw new Error('expected serveStdio to throw');
}

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

describe('stdio options', () => {
  test('options that are not a plain object are refused by name', () => {
    const error = thrownBy(() => serveStdio(basicServer(), [] as never));
    expect(error.code).toBe('PALISADE_ERR_INVALID_OPTION');
    expect(error.message).toBe('option "stdio options" must be a plain object');
  });

  test('an unknown option is refused by name, listing the known ones', () => {
    const error = thrownBy(() => serveStdio(basicServer(), { inputs: new PassThrough() } as never));
    expect(error.code).toBe('PALISADE_ERR_UNKNOWN_OPTION');
    expect(error.message).toBe(
      'unknown option "inputs"; known options: input, output, exitOnClose, onFault, logger, inputTimeoutMs',
    );
  });
});
