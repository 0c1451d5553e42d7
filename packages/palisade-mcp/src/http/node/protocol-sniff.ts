/**
 * Tells HTTP/2 by prior knowledge (h2c) from HTTP/1.1 on one plaintext port by the first bytes of
 * a connection, before either HTTP server sees it. Both bounds are the sniffer's own: at most the
 * 24 bytes of the client preface are held, and a connection that has not decided within the
 * deadline is closed, so a silent or dribbling peer costs one socket and one timer, never a parser.
 */
import type { Socket } from 'node:net';

/** RFC 9113 §3.4: the client connection preface. */
export const HTTP2_PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

/** `neither`: the connection went away, or showed nothing within the deadline. */
export type Sniffed = 'http2' | 'http1' | 'neither';

/**
 * The verdict on the bytes so far, or undefined while they are still a prefix of the preface.
 * Anything else is HTTP/1.1's parser to judge, whatever its first byte: a request line, one after
 * empty lines (RFC 9112 §2.2 has a server ignore at least one; llhttp skips CR and LF alike), or
 * bytes the parser refuses, which are then answered 400 by name (a lower-case method, a TLS
 * ClientHello sent to the plaintext port), never closed unanswered.
 */
export function classify(bytes: Buffer): Sniffed | undefined {
  if (bytes.length === 0) return undefined;
  const length = Math.min(bytes.length, HTTP2_PREFACE.length);
  if (bytes.subarray(0, length).equals(HTTP2_PREFACE.subarray(0, length))) {
    return length === HTTP2_PREFACE.length ? 'http2' : undefined;
  }
  return 'http1';
}

/**
 * Reads until `classify` decides or `timeoutMs` lapses, then puts every byte read back
 * (`unshift`, the socket paused) so the server the socket is handed to parses the connection from
 * its first byte. `decided` is called synchronously: a flowing socket with no 'data' listener would
 * drop bytes between here and the hand-over. A lapse, a close or an error is 'neither', with the
 * socket already destroyed.
 */
export function sniff(socket: Socket, timeoutMs: number, decided: (verdict: Sniffed) => void): void {
  let held = Buffer.alloc(0);
  let done = false;
  const finish = (verdict: Sniffed): void => {
    if (done) return;
    // Stryker disable next-line BooleanLiteral: finish drops the timer and every listener, so nothing calls it twice
    done = true;
    clearTimeout(timer);
    // Stryker disable next-line StringLiteral: a listener left on only reaches finish again, which returns at once
    socket.off('data', onData);
    // Stryker disable next-line StringLiteral: likewise
    socket.off('close', onGone);
    // Stryker disable next-line StringLiteral: likewise
    socket.off('error', onGone);
    socket.pause();
    if (verdict === 'neither') {
      // Stryker disable next-line StringLiteral: destroy() without an error emits none
      socket.on('error', () => {}); // a reset racing the close is nobody's to hear
      socket.destroy();
    } else socket.unshift(held);
    decided(verdict);
  };
  const onGone = (): void => finish('neither');
  const onData = (chunk: Buffer): void => {
    held = Buffer.concat([held, chunk]);
    const verdict = classify(held);
    if (verdict !== undefined) finish(verdict);
  };
  const timer = setTimeout(onGone, timeoutMs);
  socket.on('data', onData);
  // Stryker disable next-line StringLiteral: a peer gone early is ended by the deadline, as 'neither'
  socket.on('close', onGone);
  socket.on('error', onGone);
}
