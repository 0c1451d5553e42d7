/**
 * Server-Sent Events, parsed from bytes under bounds: a line longer than MAX_SSE_LINE_BYTES, an
 * event whose data outgrows MAX_SSE_EVENT_BYTES, or more than MAX_SSE_EVENTS_PER_STREAM events
 * is refused by name, holding no more than one line and one event's data at any moment. Time
 * bounds (idle, an event that never ends) are the stream reader's (sse-stream.ts): this module
 * has no clock. Data stays bytes, so the bounded JSON reader is the one that decodes it.
 */
import { ClientError } from '../../errors.js';
import { MAX_SSE_EVENT_BYTES, MAX_SSE_EVENTS_PER_STREAM, MAX_SSE_LINE_BYTES } from '../../limits.js';

export interface SseEvent {
  /** The `event:` field; `message` when absent. */
  readonly event: string;
  readonly data: Uint8Array;
  /** The `id:` field as sent with this event, if any. */
  readonly id: string | undefined;
}

export interface SseBounds {
  readonly maxLineBytes?: number;
  readonly maxEventBytes?: number;
  readonly maxEvents?: number;
}

const LF = 0x0a;
const CR = 0x0d;
const EMPTY = new Uint8Array(0);
const decoder = new TextDecoder('utf-8', { fatal: false });

function refused(rule: string, message: string): ClientError {
  return new ClientError('PALISADE_CLIENT_ERR_SSE_REFUSED', message, { rule });
}

export class SseParser {
  readonly #maxLine: number;
  readonly #maxEvent: number;
  readonly #maxEvents: number;
  #line: Uint8Array[] = [];
  #lineBytes = 0;
  #afterCr = false;
  #data: Uint8Array[] = [];
  #dataBytes = 0;
  #hasData = false;
  #event = '';
  #id: string | undefined;
  #events = 0;
  /** The last `id:` seen on the stream (the reconnection's Last-Event-ID). */
  lastEventId: string | undefined;
  /** The last valid `retry:` (ms). */
  retryMs: number | undefined;
  /** Whether an event has begun and not yet been dispatched (for the event deadline). */
  get inEvent(): boolean {
    return this.#lineBytes > 0 || this.#hasData || this.#event !== '' || this.#id !== undefined;
  }

  constructor(bounds: SseBounds = {}) {
    this.#maxLine = bounds.maxLineBytes ?? MAX_SSE_LINE_BYTES;
    this.#maxEvent = bounds.maxEventBytes ?? MAX_SSE_EVENT_BYTES;
    this.#maxEvents = bounds.maxEvents ?? MAX_SSE_EVENTS_PER_STREAM;
  }

  /** The events this chunk completes; throws a ClientError when a bound is crossed. */
  push(chunk: Uint8Array): SseEvent[] {
    const out: SseEvent[] = [];
    let start = 0;
    if (this.#afterCr && chunk.length > 0 && chunk[0] === LF) start = 1;
    this.#afterCr = false;
    let pos = start;
    while (pos < chunk.length) {
      const byte = chunk[pos];
      if (byte !== LF && byte !== CR) {
        pos += 1;
        // Find the next line end fast; the bound is checked per chunk segment.
        const lf = chunk.indexOf(LF, pos);
        const cr = chunk.indexOf(CR, pos);
        const end = lf < 0 ? (cr < 0 ? chunk.length : cr) : cr < 0 ? lf : Math.min(lf, cr);
        pos = end;
        continue;
      }
      this.#appendLine(chunk.subarray(start, pos));
      this.#lineEnded(out);
      if (byte === CR) {
        if (pos + 1 < chunk.length) {
          if (chunk[pos + 1] === LF) pos += 1;
        } else {
          this.#afterCr = true;
        }
      }
      pos += 1;
      start = pos;
    }
    if (start < chunk.length) this.#appendLine(chunk.subarray(start));
    return out;
  }

  #appendLine(part: Uint8Array): void {
    if (part.length === 0) return;
    this.#lineBytes += part.length;
    if (this.#lineBytes > this.#maxLine) {
      this.#line = [];
      throw refused('line-too-long', `an SSE line exceeded ${this.#maxLine} bytes`);
    }
    this.#line.push(part);
  }

  #takeLine(): Uint8Array {
    const parts = this.#line;
    const total = this.#lineBytes;
    this.#line = [];
    this.#lineBytes = 0;
    if (parts.length === 0) return EMPTY;
    if (parts.length === 1) return parts[0] as Uint8Array;
    const joined = new Uint8Array(total);
    let at = 0;
    for (const part of parts) {
      joined.set(part, at);
      at += part.length;
    }
    return joined;
  }

  #lineEnded(out: SseEvent[]): void {
    const line = this.#takeLine();
    if (line.length === 0) {
      this.#dispatch(out);
      return;
    }
    if (line[0] === 0x3a) return; // a comment (keep-alive)
    const colon = line.indexOf(0x3a);
    const name = decoder.decode(colon < 0 ? line : line.subarray(0, colon));
    let value = colon < 0 ? EMPTY : line.subarray(colon + 1);
    if (value.length > 0 && value[0] === 0x20) value = value.subarray(1);
    switch (name) {
      case 'data': {
        const added = value.length + (this.#hasData ? 1 : 0);
        this.#dataBytes += added;
        if (this.#dataBytes > this.#maxEvent) {
          this.#data = [];
          throw refused('event-too-large', `an SSE event exceeded ${this.#maxEvent} bytes of data`);
        }
        if (this.#hasData) this.#data.push(new Uint8Array([LF]));
        this.#data.push(value);
        this.#hasData = true;
        break;
      }
      case 'event':
        this.#event = decoder.decode(value);
        break;
      case 'id': {
        const id = decoder.decode(value);
        if (!id.includes('\0')) {
          this.#id = id;
          this.lastEventId = id;
        }
        break;
      }
      case 'retry': {
        const text = decoder.decode(value);
        if (/^[0-9]{1,9}$/.test(text)) this.retryMs = Number(text);
        break;
      }
      default:
        break;
    }
  }

  #dispatch(out: SseEvent[]): void {
    const hasData = this.#hasData;
    const parts = this.#data;
    const total = this.#dataBytes;
    const event = this.#event === '' ? 'message' : this.#event;
    const id = this.#id;
    this.#data = [];
    this.#dataBytes = 0;
    this.#hasData = false;
    this.#event = '';
    this.#id = undefined;
    // An event whose data is empty is not dispatched (the priming event a 2025 server opens with).
    if (!hasData || total === 0) return;
    this.#events += 1;
    if (this.#events > this.#maxEvents) {
      throw refused('too-many-events', `an SSE stream carried more than ${this.#maxEvents} events`);
    }
    let data: Uint8Array;
    if (parts.length === 1) data = parts[0] as Uint8Array;
    else {
      data = new Uint8Array(total);
      let at = 0;
      for (const part of parts) {
        data.set(part, at);
        at += part.length;
      }
    }
    out.push({ event, data, id });
  }
}
