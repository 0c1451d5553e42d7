/**
 * Reads a fetch `Request`'s body stream under the byte cap and the whole-body deadline, while the
 * bytes arrive: nothing is buffered past the cap, and a body dripped slower than the deadline is
 * refused when it lapses, not when it ends. On either refusal the stream is cancelled, telling the
 * runtime no more of it will be read (what the runtime then does with the connection is its own).
 *
 * The deadline is the absolute point on the monotonic clock the handler set when the request came
 * in, one budget for the whole body however it is split, as node/read-body.ts keeps it for `node:http`.
 * A timer per read here, not node/read-body.ts's shared one: a fetch runtime may run no Node timers
 * list, and `setTimeout` is all the Web platform guarantees.
 */
import { performance } from 'node:perf_hooks';
import { BodyBytes, type BodyRead } from '../body-bytes.js';

export async function readStreamBody(
  body: ReadableStream<Uint8Array> | null,
  cap: number,
  deadline: number,
  /** The announced Content-Length, already held to the cap, when there is one (body-bytes.ts). */
  declared?: number,
): Promise<BodyRead> {
  // A POST with no body at all reads as zero bytes; the JSON reader then names what is missing.
  if (body === null) return { ok: true, bytes: Buffer.alloc(0) };
  const reader = body.getReader();
  let lapsed = false;
  const stop = (reason: 'timeout' | 'too-large'): BodyRead => {
    reader.cancel().catch(() => {});
    return { ok: false, reason };
  };
  // Cancelling settles the read in flight (done), so a stalled client cannot hold us past the deadline.
  const timer = setTimeout(
    () => {
      lapsed = true;
      reader.cancel().catch(() => {});
    },
    Math.max(1, Math.ceil(deadline - performance.now())),
  );
  const gathered = new BodyBytes(declared);
  try {
    for (;;) {
      let step: Awaited<ReturnType<typeof reader.read>>;
      try {
        step = await reader.read();
      } catch {
        // The client went away mid-body: no fault of the host's.
        // Stryker disable next-line ObjectLiteral,StringLiteral: a lapse never rejects a read; 'aborted' is unread
        return lapsed ? { ok: false, reason: 'timeout' } : { ok: false, reason: 'aborted' };
      }
      if (lapsed || performance.now() > deadline) return stop('timeout');
      if (step.done) return { ok: true, bytes: gathered.bytes() };
      if (gathered.length + step.value.byteLength > cap) return stop('too-large');
      gathered.append(step.value);
    }
  } finally {
    clearTimeout(timer);
  }
}
