/**
 * Writing a response to a client that may not read it. `res.write` never blocks: it queues, so a
 * client that stops reading would make the server hold every event a handler emits. Two bounds
 * (limits.ts): the bytes queued unsent when a notification is to be written (MAX_SSE_QUEUED_BYTES),
 * and the time queued bytes may wait with none taken by the client (SSE_DRAIN_TIMEOUT_MS).
 *
 * Crossing either calls `giveUp` once and cuts the response; nothing more is written:
 * - HTTP/1.1: `res.destroy()` destroys the socket. The connection carries only this response, and
 *   the chunked body ends without its terminator, so the client cannot take it for complete.
 * - HTTP/2: `res.destroy()` would reset the stream with NO_ERROR, which RFC 9113 §8.1 reserves for
 *   after a complete response; the stream is reset with CANCEL instead. The session's other streams
 *   go on.
 */
import type { ServerResponse } from 'node:http';
import { type Http2ServerResponse, constants as http2Constants } from 'node:http2';
import {
  MAX_SSE_QUEUED_BYTES,
  MAX_SSE_QUEUED_EVENTS,
  SSE_DRAIN_TIMEOUT_MS,
  SSE_KEEPALIVE_INTERVAL_MS,
} from '../limits.js';
import { endWith, isHttp2, SSE_HEADERS, sseEvent } from './respond.js';

export type Overrun = 'queue' | 'events' | 'stall';

export interface BoundedWriter {
  /** One SSE event for a notification (with its id on a session's stream); the first sends the SSE head. Dropped once cut. */
  event(text: string, id?: string): void;
  /** A frame written as given (a session stream's priming event, its `retry`), under the same bounds as an event. */
  frame(raw: string): void;
  /** Sends the SSE head now, before any event (a session's GET stream). */
  begin(): void;
  /** The last SSE event (the result), or none; exempt from the byte bound, not from the deadline. */
  end(text?: string, id?: string): void;
  /** After a JSON answer was written in one `end`: applies the deadline to it. */
  watchEnd(): void;
  readonly started: boolean;
  readonly cut: boolean;
}

export function boundedWriter(res: ServerResponse, giveUp: (why: Overrun) => void): BoundedWriter {
  return new Writer(res, giveUp);
}

// A class rather than closures: an object literal with getters is built slowly per request (V8
// cannot share its shape), and a JSON answer, the common case, needs none of the listeners below.
class Writer implements BoundedWriter {
  started = false;
  cut = false;
  readonly #res: ServerResponse;
  readonly #giveUp: (why: Overrun) => void;
  #timer: NodeJS.Timeout | undefined;
  #queuedAtArm = 0;
  /** A 'drain' since the deadline was set: bytes were taken. */
  // Stryker disable next-line BooleanLiteral: #arm sets it before #check can read it
  #drained = false;
  #awaiting: 'drain' | 'finish' | undefined;
  #listening = false;
  /** Events written while earlier bytes still waited unsent; back to 0 whenever nothing waits. */
  #queuedEvents = 0;
  #keepAlive: NodeJS.Timeout | undefined;

  constructor(res: ServerResponse, giveUp: (why: Overrun) => void) {
    this.#res = res;
    this.#giveUp = giveUp;
  }

  #disarm(): void {
    // Stryker disable next-line ConditionalExpression: clearTimeout(undefined) does nothing
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #stop(why: Overrun): void {
    // Stryker disable next-line ConditionalExpression: a cut disarms the timer and every writer call checks `cut` first
    if (this.cut) return;
    // Stryker disable next-line BooleanLiteral: after a cut answer() calls the writer no more; timers stopped
    this.cut = true;
    this.#disarm();
    this.#quiet();
    this.#giveUp(why);
    const res = this.#res;
    if (isHttp2(res)) (res as unknown as Http2ServerResponse).stream.close(http2Constants.NGHTTP2_CANCEL);
    else res.destroy();
  }

  #check(): void {
    this.#timer = undefined;
    // Stryker disable next-line LogicalOperator,ConditionalExpression: the timer is disarmed at a cut, at finish and at close
    if (this.cut || this.#res.destroyed) return;
    // Some bytes were taken since the deadline was set: a slow reader, not a stalled one.
    if (this.#drained || this.#res.writableLength < this.#queuedAtArm) this.#arm();
    else this.#stop('stall');
  }

  #arm(): void {
    this.#queuedAtArm = this.#res.writableLength;
    this.#drained = false;
    this.#timer = setTimeout(() => this.#check(), SSE_DRAIN_TIMEOUT_MS);
    this.#timer.unref();
  }

  #armUntil(event: 'drain' | 'finish'): void {
    // Stryker disable next-line ConditionalExpression: each caller returned already on a cut
    if (this.cut) return;
    if (this.#timer !== undefined && this.#awaiting === event) return;
    this.#listen();
    this.#disarm();
    this.#awaiting = event;
    this.#arm();
  }

  /** Once, before the first wait. Permanent: a 'drain' still owed after `end` must not clear the wait for 'finish'. */
  #listen(): void {
    if (this.#listening) return;
    this.#listening = true;
    const res = this.#res;
    // Stryker disable next-line ArrowFunction: a timer left armed finds the response destroyed (#check)
    const disarm = (): void => this.#disarm();
    res.on('drain', () => {
      if (this.#awaiting === 'drain') this.#disarm();
      // A large JSON answer drains slice by slice (respond.ts): a drain is bytes taken.
      else this.#drained = true;
    });
    // Stryker disable next-line StringLiteral: a timer left armed finds the response destroyed (#check)
    res.once('finish', disarm);
    // Stryker disable next-line StringLiteral: a timer left armed finds the response destroyed (#check)
    res.once('close', disarm);
  }

  /** Stops the keep-alive comments: the stream ended or was cut. */
  #quiet(): void {
    // Stryker disable next-line ConditionalExpression: clearInterval(undefined) does nothing
    if (this.#keepAlive !== undefined) clearInterval(this.#keepAlive);
    this.#keepAlive = undefined;
  }

  #start(): void {
    this.started = true;
    const res = this.#res;
    res.writeHead(200, SSE_HEADERS);
    this.#keepAlive = setInterval(() => this.#comment(), SSE_KEEPALIVE_INTERVAL_MS);
    this.#keepAlive.unref();
    // Stryker disable next-line StringLiteral,ArrowFunction: end() and #stop clear the interval too
    res.once('close', () => this.#quiet());
  }

  /** A comment line: ignored by every SSE parser, it keeps proxies from closing a quiet stream. */
  #comment(): void {
    const res = this.#res;
    // Stryker disable next-line LogicalOperator,BlockStatement,ConditionalExpression: end(), #stop and close clear the interval first
    if (this.cut || res.destroyed || res.writableEnded) {
      this.#quiet();
      return;
    }
    if (!res.write(': keep-alive\n\n')) this.#armUntil('drain');
  }

  event(text: string, id?: string): void {
    this.frame(sseEvent(text, id));
  }

  begin(): void {
    const res = this.#res;
    // Stryker disable next-line ConditionalExpression,LogicalOperator: each caller begins a writer it just made; on a destroyed response the head goes nowhere and frame() and end() return at once
    if (this.cut || res.destroyed || this.started) return;
    this.#start();
    // Node holds a head back until the first body byte; a GET stream may have none for a while.
    (res as { flushHeaders?: () => void }).flushHeaders?.();
  }

  frame(frame: string): void {
    const res = this.#res;
    // Stryker disable next-line LogicalOperator,ConditionalExpression: answer() emits nothing once the stream is cut or closed
    if (this.cut || res.destroyed) return;
    if (!this.started) this.#start();
    // Stryker disable next-line StringLiteral: Buffer.byteLength reads '' as UTF-8
    if (res.writableLength + Buffer.byteLength(frame, 'utf8') > MAX_SSE_QUEUED_BYTES) {
      this.#stop('queue');
      return;
    }
    if (res.writableLength === 0) this.#queuedEvents = 0;
    else if (++this.#queuedEvents > MAX_SSE_QUEUED_EVENTS) {
      this.#stop('events');
      return;
    }
    if (!res.write(frame)) this.#armUntil('drain');
  }

  end(text?: string, id?: string): void {
    const res = this.#res;
    this.#quiet();
    // Stryker disable next-line LogicalOperator,ConditionalExpression: answer() calls end() no more once the stream is cut or closed
    if (this.cut || res.destroyed) return;
    if (text === undefined) res.end();
    // A large result goes out in slices, each drain counted as progress (respond.ts).
    else endWith(res, sseEvent(text, id));
    // Stryker disable next-line StringLiteral: a wait is told apart only from 'drain'
    if (!res.writableFinished) this.#armUntil('finish');
  }

  watchEnd(): void {
    const res = this.#res;
    // Stryker disable next-line LogicalOperator,ConditionalExpression: a wait armed on an ended response is cleared by close or #check
    if (this.cut || res.destroyed || res.writableFinished) return;
    // Stryker disable next-line StringLiteral: a wait is told apart only from 'drain'
    this.#armUntil('finish');
  }
}
