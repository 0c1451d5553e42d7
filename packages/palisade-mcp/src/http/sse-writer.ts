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
import { MAX_SSE_QUEUED_BYTES, SSE_DRAIN_TIMEOUT_MS } from '../limits.js';
import { isHttp2, SSE_HEADERS, sseEvent } from './respond.js';

export type Overrun = 'queue' | 'stall';

export interface BoundedWriter {
  /** One SSE event for a notification; the first sends the SSE head. Dropped once cut. */
  event(text: string): void;
  /** The last SSE event (the result), or none; exempt from the byte bound, not from the deadline. */
  end(text?: string): void;
  /** After a JSON answer was written in one `end`: applies the deadline to it. */
  watchEnd(): void;
  readonly started: boolean;
  readonly cut: boolean;
}

export function boundedWriter(res: ServerResponse, giveUp: (why: Overrun) => void): BoundedWriter {
  let started = false;
  let cut = false;
  let timer: NodeJS.Timeout | undefined;
  let queuedAtArm = 0;

  const disarm = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  const stop = (why: Overrun): void => {
    if (cut) return;
    cut = true;
    disarm();
    giveUp(why);
    if (isHttp2(res)) (res as unknown as Http2ServerResponse).stream.close(http2Constants.NGHTTP2_CANCEL);
    else res.destroy();
  };
  const check = (): void => {
    timer = undefined;
    if (cut || res.destroyed) return;
    const queued = res.writableLength;
    // Some bytes were taken since the deadline was set: a slow reader, not a stalled one.
    if (queued < queuedAtArm) arm();
    else stop('stall');
  };
  function arm(): void {
    queuedAtArm = res.writableLength;
    timer = setTimeout(check, SSE_DRAIN_TIMEOUT_MS);
    timer.unref();
  }
  // Permanent listeners: a 'drain' still owed after `end` must not clear the wait for 'finish'.
  let awaiting: 'drain' | 'finish' | undefined;
  const armUntil = (event: 'drain' | 'finish'): void => {
    if (cut) return;
    if (timer !== undefined && awaiting === event) return;
    disarm();
    awaiting = event;
    arm();
  };
  res.on('drain', () => {
    if (awaiting === 'drain') disarm();
  });
  res.once('finish', disarm);
  res.once('close', disarm);

  return {
    get started() {
      return started;
    },
    get cut() {
      return cut;
    },
    event(text: string): void {
      if (cut || res.destroyed) return;
      if (!started) {
        started = true;
        res.writeHead(200, SSE_HEADERS);
      }
      const frame = sseEvent(text);
      if (res.writableLength + Buffer.byteLength(frame, 'utf8') > MAX_SSE_QUEUED_BYTES) {
        stop('queue');
        return;
      }
      if (!res.write(frame)) armUntil('drain');
    },
    end(text?: string): void {
      if (cut || res.destroyed) return;
      if (text === undefined) res.end();
      else res.end(sseEvent(text));
      if (!res.writableFinished) armUntil('finish');
    },
    watchEnd(): void {
      if (cut || res.destroyed || res.writableFinished) return;
      armUntil('finish');
    },
  };
}
