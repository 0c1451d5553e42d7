/**
 * Reads one request body under a byte cap and one whole-body deadline. The deadline is an
 * absolute point on the monotonic clock (`performance.now()`), so however the client splits or
 * dribbles its bytes it gets one budget in total, not one per chunk; the clock is read again each
 * time bytes arrive and at the end, so a body completed late is never served.
 *
 * A client gone before the read starts never fires 'close' or 'end' here: the caller checks
 * `clientGone` first, or the request would hold memory and a timer until the deadline, then log a
 * refusal for nobody. (An HTTP/2 RST_STREAM before END_STREAM ends no body: Node reports an abort.)
 */
import { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';

export type BodyRead =
  | { readonly ok: true; readonly bytes: Buffer }
  | { readonly ok: false; readonly reason: 'timeout' | 'too-large' | 'aborted' };

/** The client is gone: its connection or stream closed before the request was answered. */
export function clientGone(req: IncomingMessage): boolean {
  // A stream read to its end is destroyed too (autoDestroy): that is a consumed body, not a gone client.
  return req.aborted || (req.destroyed && !req.readableEnded);
}

export function readBody(req: IncomingMessage, cap: number, deadline: number): Promise<BodyRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let done = false;
    const finish = (result: BodyRead): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAbort);
      req.off('close', onAbort);
      resolve(result);
    };
    // A body Node's HTTP/1 parser already holds whole (it arrived while an async `authorize`
    // ran, say) needs no timer: nothing is left to wait for, and the clock is still read when its
    // bytes are taken. (HTTP/2's `complete` means ended or closed, not arrived: a stream always
    // gets the timer.)
    const timer =
      req.complete && req instanceof IncomingMessage
        ? undefined
        : setTimeout(
            () => finish({ ok: false, reason: 'timeout' }),
            Math.max(0, deadline - performance.now()),
          );
    function onData(chunk: Buffer): void {
      if (performance.now() > deadline) {
        finish({ ok: false, reason: 'timeout' });
        return;
      }
      total += chunk.length;
      // Node's parser stops at Content-Length, which was checked against the cap; this holds anyway.
      if (total > cap) {
        finish({ ok: false, reason: 'too-large' });
        return;
      }
      chunks.push(chunk);
    }
    function onEnd(): void {
      if (performance.now() > deadline) {
        finish({ ok: false, reason: 'timeout' });
        return;
      }
      finish({ ok: true, bytes: Buffer.concat(chunks, total) });
    }
    // A client that goes away mid-body is no fault of the host's: it simply gets no answer.
    function onAbort(): void {
      finish({ ok: false, reason: 'aborted' });
    }
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAbort);
    req.on('close', onAbort);
  });
}
