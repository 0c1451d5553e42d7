/**
 * An early refusal is answered before the body is read, and the connection is then closed. Closed
 * how matters: a socket destroyed while the client is still sending is reset by the kernel at the
 * client's next bytes, and the reset throws away the answer the client had not read yet (nginx in
 * front of Palisade turned a 413 into its own 502 that way). These clients go on sending their
 * body after the answer, and read only then.
 */
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { describe, expect, test } from 'vitest';
import { serve } from '../../../src/http/node/serve.js';
import { LINGER_MS } from '../../../src/limits.js';
import { closeAfterEach } from '../../support/close-after-each.js';
import { ADMIT_ALL, basicServer } from '../../support/http-peer.js';

const { allowedHosts: _unused, ...ADMIT } = ADMIT_ALL;
const closeLater = closeAfterEach();

/** Resolves when the socket closes, whatever the cause; a socket still open after `ms` is destroyed first. */
function closedWithin(socket: Socket, ms: number): Promise<void> {
  return new Promise((resolve) => {
    if (socket.closed) return resolve();
    const timer = setTimeout(() => socket.destroy(), ms);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** What a client that sent `head`, then kept sending `more` bytes before reading, gets back. */
async function sendThenRead(
  port: number,
  head: string,
  more: number,
): Promise<{ text: string; error: string | undefined }> {
  const socket: Socket = connect(port, '127.0.0.1');
  let error: string | undefined;
  socket.on('error', (cause: NodeJS.ErrnoException) => {
    error ??= cause.code;
  });
  await once(socket, 'connect');
  // Nothing is read until the body is sent: the answer waits in the kernel's buffer meanwhile.
  socket.pause();
  socket.write(head);
  // The answer is written while the client is still sending, as a proxy forwarding a body does.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const chunk = Buffer.alloc(16 * 1024, 0x78);
  for (let sent = 0; sent < more; sent += chunk.length) {
    if (socket.destroyed) break;
    socket.write(chunk);
    await new Promise((resolve) => setImmediate(resolve));
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
  const received: Buffer[] = [];
  socket.on('data', (data: Buffer) => received.push(data));
  socket.resume();
  await closedWithin(socket, 10_000);
  return { text: Buffer.concat(received).toString('latin1'), error };
}

describe('the close after an early refusal', () => {
  test('a client still sending a body past the bound reads the whole 413, and the connection ends without a reset', {
    tags: ['threat-model'],
  }, async () => {
    const served = await closeLater(serve(basicServer(), { ...ADMIT }));
    const head =
      'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
      'Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\n' +
      'Content-Length: 2000000\r\n\r\n';
    const { text, error } = await sendThenRead(served.port, head, 256 * 1024);
    expect(error).toBeUndefined();
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    expect(text).toContain('"code":-32600');
  });

  test('a client that keeps sending past LINGER_MS is cut: the connection is not held open by it', async () => {
    const served = await closeLater(serve(basicServer(), { ...ADMIT }));
    const socket = connect(served.port, '127.0.0.1');
    socket.on('error', () => {});
    await once(socket, 'connect');
    socket.write(
      'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        'Content-Length: 100000000\r\n\r\n',
    );
    const started = performance.now();
    const timer = setInterval(() => socket.write(Buffer.alloc(1024, 0x78)), 20);
    try {
      await closedWithin(socket, 10_000);
    } finally {
      clearInterval(timer);
    }
    const tookMs = performance.now() - started;
    expect(tookMs).toBeGreaterThanOrEqual(LINGER_MS - 100);
    expect(tookMs).toBeLessThan(10_000);
  });
});
