/**
 * After an answer, an idle keep-alive connection is closed at the server's `keepAliveTimeout`,
 * as it is for any `node:http` listener. Node 20.19 reset a socket's timeout on every parse
 * step (20.20 and later do not); the handler once took a body Node already held before the parser
 * had completed the message, so that last step ran after the answer and cleared the keep-alive
 * timeout: on 20.19 the connection then stayed open for good (found 2026-11-30 by running the suite
 * on Node 20.19.0, the oldest version `engines` admits). Over a real socket, with exact bytes.
 */
import { once } from 'node:events';
import { connect } from 'node:net';
import { describe, expect, test } from 'vitest';
import { createHttpHandler } from '../../../src/http/node/handler.js';
import { closeAfterEach } from '../../support/close-after-each.js';
import { ADMIT_ALL, basicServer, modernRequest, mount, post } from '../../support/http-peer.js';

const closeLater = closeAfterEach();

const KEEP_ALIVE_MS = 200;

/** Sends one request on a fresh connection, then times how long the idle connection stays open. */
async function idleAfterAnswer(
  call: { body: string; headers: Record<string, unknown> },
  accept: string,
): Promise<{ answer: string; openForMs: number }> {
  const mounted = await closeLater(
    mount(createHttpHandler(basicServer(), ADMIT_ALL), (server) => {
      server.keepAliveTimeout = KEEP_ALIVE_MS;
    }),
  );
  const socket = connect(mounted.port, '127.0.0.1');
  let received = '';
  let answeredAt = 0;
  socket.setEncoding('latin1').on('data', (text: string) => {
    received += text;
    // A JSON answer ends with its Content-Length; an event stream with its last chunk.
    if (answeredAt === 0 && (received.endsWith('}') || received.endsWith('0\r\n\r\n'))) {
      answeredAt = performance.now();
    }
  });
  socket.write(post(call.body, { ...call.headers, Accept: accept }));
  const closed = once(socket, 'close');
  const stillOpen = new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), 5_000));
  const outcome = await Promise.race([closed, stillOpen]);
  socket.destroy();
  expect(outcome).not.toBe('still open');
  return { answer: received, openForMs: performance.now() - answeredAt };
}

describe('an idle keep-alive connection after an answer', () => {
  test('is closed at keepAliveTimeout after a JSON answer', { tags: ['threat-model'] }, async () => {
    const call = modernRequest(1, 'tools/call', { name: 'echo', arguments: { text: 'hi' } });
    const { answer, openForMs } = await idleAfterAnswer(call, 'application/json');
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*content-type: application\/json\r\n/);
    expect(openForMs).toBeGreaterThanOrEqual(KEEP_ALIVE_MS - 50);
  });

  test('is closed at keepAliveTimeout after an event-stream answer', { tags: ['threat-model'] }, async () => {
    const call = modernRequest(2, 'tools/call', { name: 'progress', _meta: { progressToken: 'p' } });
    const { answer, openForMs } = await idleAfterAnswer(call, 'application/json, text/event-stream');
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*content-type: text\/event-stream\r\n/);
    expect(answer).toContain('"method":"notifications/progress"');
    expect(openForMs).toBeGreaterThanOrEqual(KEEP_ALIVE_MS - 50);
  });
});
