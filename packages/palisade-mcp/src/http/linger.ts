/**
 * Closing an HTTP/1.1 connection after an answer sent before the request's body was read (an early
 * refusal, a preflight that declared a body) without losing that answer. Destroying the socket
 * while the client is still sending makes the kernel answer its next bytes with a reset, and a
 * reset discards what the client had not yet read: nginx in front of Palisade turned a 413 into
 * its own 502 that way. So, as RFC 9112 §9.6 advises, only the sending side is closed (Node has
 * already ended it); nothing more is read (a refused body is never drained on the client's behalf:
 * what it still sends waits in the kernel's buffer, and a full buffer stops the client, it resets
 * nothing), and the socket is destroyed when the client closes it or LINGER_MS has passed.
 */
import type { Socket } from 'node:net';
import { LINGER_MS } from '../limits.js';

export function lingeringClose(socket: Socket): void {
  // Stryker disable next-line ConditionalExpression: on a destroyed socket every step below is a no-op
  if (socket.destroyed) return;
  // Node's destroySoon() destroys the socket once its end is flushed: that destroy is the reset.
  socket.removeListener('finish', socket.destroy);
  // Stryker disable next-line ConditionalExpression: end() on a socket already ended does nothing
  if (socket.writable) socket.end();
  // Node's request resumes a paused socket to dump its body unless the socket is marked paused by
  // the server itself (`_paused`, what its own pipelining backpressure sets): marked so here.
  Reflect.set(socket, '_paused', true);
  socket.pause();
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  // Node's server already lets go at the client's end (a body cut short is HPE_INVALID_EOF_STATE,
  // destroyed by client-error.ts; a whole one is ended, then auto-destroyed); this keeps it so if either changes.
  // Stryker disable next-line StringLiteral,ArrowFunction: equivalent while Node's server closes at the client's end
  socket.once('end', () => socket.destroy());
  // Stryker disable next-line StringLiteral,ArrowFunction: the timer is unref'd, and destroying a closed socket does nothing
  socket.once('close', () => clearTimeout(timer));
}
