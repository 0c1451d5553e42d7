/**
 * stdio transport behaviours that mutation testing found unpinned: its options are checked by
 * name at the call, and a client that stops reading stops the transport reading. Run in this
 * process over streams, since both are about the transport's own objects, not a process boundary.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { PalisadeError } from '../../src/errors.js';
import { serveStdio } from '../../src/transports/stdio.js';
import { basicServer } from '../support/http-peer.js';
import { modern } from '../support/stdio-peer.js';

function thrownBy(run: () => unknown): PalisadeError {
  try {
    run();
  } catch (error) {
    if (error instanceof PalisadeError) return error;
    throw error;
  }
  throw new Error('expected serveStdio to throw');
}

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

describe('stdio backpressure', () => {
  test('while the client does not read its output, input is paused; once output drains it is read again', async () => {
    const input = new PassThrough();
    // A 1-byte buffer: the first response already exceeds it, as a full pipe would.
    const output = new PassThrough({ highWaterMark: 1 });
    const handle = serveStdio(basicServer(), { input, output, exitOnClose: false, onFault: () => {} });
    input.write(`${JSON.stringify(modern(1, 'tools/list'))}\n`);
    await expect.poll(() => output.readableLength).toBeGreaterThan(0);
    expect(input.isPaused()).toBe(true);

    output.resume();
    await expect.poll(() => input.isPaused()).toBe(false);
    input.end();
    await handle.closed;
  });
});
