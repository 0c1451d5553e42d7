/**
 * Reads one request body under a byte cap and one whole-body deadline. The deadline is an
 * absolute point on the monotonic clock (`performance.now()`), so however the client splits or
 * dribbles its bytes it gets one budget in total, not one per chunk; the clock is read again each
 * time bytes arrive and at the end, so a body completed late is never served.
 *
 * A client gone before the read starts never fires 'close' or 'end' here: the caller checks
 * `clientGone` first, or the request would hold memory and a deadline watch until the deadline,
 * then log a refusal for nobody. (An HTTP/2 RST_STREAM before END_STREAM ends no body: Node
 * reports an abort.)
 */
import { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import { BodyBytes, type BodyRead } from '../body-bytes.js';

/** The client is gone: its connection or stream closed before the request was answered. */
export function clientGone(req: IncomingMessage): boolean {
  // A stream read to its end is destroyed too (autoDestroy): that is a consumed body, not a gone client.
  return req.aborted || (req.destroyed && !req.readableEnded);
}

/**
 * A read in flight under a deadline, and how it ends when the deadline lapses. Linked into the
 * list of reads in flight by its own members: joining and leaving it costs no hashing.
 */
class PendingRead {
  prev: PendingRead | undefined = undefined;
  next: PendingRead | undefined = undefined;

  constructor(
    readonly deadline: number,
    readonly lapse: () => void,
  ) {}
}

/**
 * Every read in flight shares one timer, armed for the earliest deadline among them: a timer per
 * request (insert on arm, unenroll on clear) was a measurable share of the work. When it fires,
 * each read whose deadline has passed on the monotonic clock lapses (never one still within its
 * budget), and the timer is armed again for the earliest deadline left. A read that ends removes
 * only itself; the timer is unref'd, so it never holds the process open by itself (a read in
 * flight has its client's connection open, which does).
 */
let head: PendingRead | undefined;
let sweepTimer: NodeJS.Timeout | undefined;
let armedFor = Number.POSITIVE_INFINITY;

function arm(deadline: number): void {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a stale timer only sweeps once more
  if (sweepTimer !== undefined) clearTimeout(sweepTimer);
  armedFor = deadline;
  // Stryker disable next-line MethodExpression: early sweeps lapse nothing and re-arm; only wake-ups are added
  sweepTimer = setTimeout(sweep, Math.max(1, Math.ceil(deadline - performance.now())));
  sweepTimer.unref();
}

function sweep(): void {
  sweepTimer = undefined;
  armedFor = Number.POSITIVE_INFINITY;
  const now = performance.now();
  let next = Number.POSITIVE_INFINITY;
  for (let read = head; read !== undefined; ) {
    const following: PendingRead | undefined = read.next;
    if (read.deadline <= now) read.lapse();
    else if (read.deadline < next) next = read.deadline;
    read = following;
  }
  if (next !== Number.POSITIVE_INFINITY) arm(next);
}

function watch(read: PendingRead): void {
  read.next = head;
  if (head !== undefined) head.prev = read;
  head = read;
  if (read.deadline < armedFor) arm(read.deadline);
}

// Stryker disable next-line BlockStatement: finished reads left linked lapse later as no-ops (done)
function unwatch(read: PendingRead): void {
  if (read.prev !== undefined) read.prev.next = read.next;
  else if (head === read) head = read.next;
  if (read.next !== undefined) read.next.prev = read.prev;
  read.prev = undefined;
  read.next = undefined;
}

const TIMEOUT: BodyRead = Object.freeze({ ok: false, reason: 'timeout' });
const TOO_LARGE: BodyRead = Object.freeze({ ok: false, reason: 'too-large' });

/**
 * An HTTP/1 body whose every declared byte Node's parser already holds (it came in the packet
 * behind the head, as it does for nearly every MCP request), taken at once: no listeners, no
 * promise, no tick. The same rules hold as on the streamed path: the clock is read as the bytes
 * are taken, and the cap is applied to what was buffered. Anything else (HTTP/2, no declared
 * length, a stream already flowing or decoding to text, a body still arriving) is undefined here
 * and read by listening.
 */
function takeBuffered(
  req: IncomingMessage,
  cap: number,
  deadline: number,
  declared: number | undefined,
): BodyRead | undefined {
  // Stryker disable next-line LogicalOperator: the handler reads a request nobody has read, paused or decoded
  if (!(req instanceof IncomingMessage) || req.readableFlowing !== null || req.readableEncoding !== null)
    return undefined;
  // Only once the parser has completed the message: taken earlier, its last parse step runs after
  // the answer, and Node 20.19 (not 20.20, 22 or later) resets the socket's timeout on every parse
  // step, which cleared the keep-alive timeout the answer had just set: the idle connection was
  // then never closed (test/http/keep-alive-idle.test.ts).
  if (!req.complete) return undefined;
  // The handler has refused any Transfer-Encoding and a missing or non-decimal Content-Length by
  // now; an undeclared length (HTTP/2) matches no buffered length.
  const length = req.readableLength;
  if (length !== declared) return undefined;
  if (performance.now() > deadline) return TIMEOUT;
  if (length > cap) return TOO_LARGE;
  // Not flowing, so `read()` hands over everything buffered, as one Buffer (none when empty).
  const bytes: unknown = req.read();
  // The parser's end-of-message still has to reach the stream: flowing with no 'data' listener,
  // it ends (and is destroyed) as a stream read to its end does, with nothing left to read. On a
  // stream that has already ended, resume() does nothing.
  req.resume();
  return { ok: true, bytes: Buffer.isBuffer(bytes) ? bytes : Buffer.alloc(0) };
}

/**
 * The body, or why there is none. A body already buffered whole is answered at once (not a
 * promise); otherwise the bytes are awaited under the deadline. `declared` is the Content-Length
 * the handler has already read as decimal and held to the cap, when the request announced one.
 */
export function readBody(
  req: IncomingMessage,
  cap: number,
  deadline: number,
  declared: number | undefined,
): BodyRead | Promise<BodyRead> {
  return takeBuffered(req, cap, deadline, declared) ?? listenForBody(req, cap, deadline, declared);
}

function listenForBody(
  req: IncomingMessage,
  cap: number,
  deadline: number,
  declared: number | undefined,
): Promise<BodyRead> {
  return new Promise((resolve) => {
    // Node's HTTP/1 and HTTP/2 readers hand over a new buffer per chunk, so the first is kept, not copied.
    const gathered = new BodyBytes(declared, true);
    let done = false;
    const finish = (result: BodyRead): void => {
      if (done) return;
      // Stryker disable next-line BooleanLiteral: no listener or watch is left to call finish again
      done = true;
      if (watched !== undefined) unwatch(watched);
      // Stryker disable next-line StringLiteral: a listener left behind calls finish, which returns at done
      req.off('data', onData);
      // Stryker disable next-line StringLiteral: likewise
      req.off('end', onEnd);
      // Stryker disable next-line StringLiteral: likewise
      req.off('error', onAbort);
      // Stryker disable next-line StringLiteral: likewise
      req.off('close', onAbort);
      resolve(result);
    };
    // A body Node's HTTP/1 parser already holds whole (it arrived while an async `authorize`
    // ran, say) needs no deadline watch: nothing is left to wait for, and the clock is still read
    // when its bytes are taken. (HTTP/2's `complete` means ended or closed, not arrived: a stream
    // is always watched.)
    const watched: PendingRead | undefined =
      req.complete && req instanceof IncomingMessage
        ? undefined
        : new PendingRead(deadline, () => finish({ ok: false, reason: 'timeout' }));
    if (watched !== undefined) watch(watched);
    function onData(chunk: Buffer): void {
      if (performance.now() > deadline) {
        finish({ ok: false, reason: 'timeout' });
        return;
      }
      // Node's parser stops at Content-Length, which was checked against the cap; this holds anyway
      // (HTTP/2 may declare no length).
      if (gathered.length + chunk.length > cap) {
        finish({ ok: false, reason: 'too-large' });
        return;
      }
      gathered.append(chunk);
    }
    function onEnd(): void {
      if (performance.now() > deadline) {
        finish({ ok: false, reason: 'timeout' });
        return;
      }
      finish({ ok: true, bytes: gathered.bytes() });
    }
    // A client that goes away mid-body is no fault of the host's: it simply gets no answer.
    function onAbort(): void {
      finish({ ok: false, reason: 'aborted' });
    }
    req.on('data', onData);
    req.on('end', onEnd);
    // Stryker disable next-line StringLiteral: with no 'error' listener Node emits none on abort; 'close' ends the read
    req.on('error', onAbort);
    req.on('close', onAbort);
  });
}
