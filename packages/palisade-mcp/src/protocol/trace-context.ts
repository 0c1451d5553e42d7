/**
 * Trace context in a request's `params._meta`: the W3C keys `traceparent`, `tracestate` and
 * `baggage` that MCP carries unprefixed (SEP-414). They are client input like any other, so each is
 * bounded before anything reads it, and what the host sees is only what passed.
 *
 * - A value that is not a string, or past a bound (limits.ts: MAX_TRACESTATE_*, MAX_BAGGAGE_*), is
 *   refused -32602 naming the key; the message is built from constants, never from the value.
 * - A `traceparent` that is not a well-formed version-00 value is ignored, as W3C Trace Context
 *   asks of a receiver (it starts a new trace rather than failing the request), and with it
 *   `tracestate`, which means nothing without it. Baggage rides along only beside a valid
 *   `traceparent`: `ctx.traceContext` is one value or none.
 * - A `tracestate` or `baggage` holding anything but visible ASCII, space or tab cannot be a W3C
 *   value (both formats are ASCII; baggage percent-encodes the rest) and is dropped, not refused.
 * - `baggage` is bounded whether or not the host reads it, so the wire rule does not depend on a
 *   server option; it reaches the host only when the host asked (`traceContext.baggage`), in
 *   `ctx.traceContext` and in `ctx.meta` alike (metaForHost).
 */
import type { JsonObject } from '../catalog/types.js';
import {
  MAX_BAGGAGE_BYTES,
  MAX_BAGGAGE_MEMBERS,
  MAX_TRACESTATE_BYTES,
  MAX_TRACESTATE_MEMBERS,
} from '../limits.js';
import type { TraceContext } from '../telemetry/dispatch-channel.js';
import { ownCopy } from './own-copy.js';

export type TraceContextRead =
  | { readonly ok: true; readonly value: TraceContext | undefined }
  | { readonly ok: false; readonly rule: string };

/** version `00`, a 16-byte trace id, an 8-byte parent id and the flags, lowercase hex (W3C §3.2). */
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/;
const ZERO_TRACE_ID = '0'.repeat(32);
const ZERO_PARENT_ID = '0'.repeat(16);
/** Both list formats are ASCII: visible characters, with spaces and tabs around members. */
const LIST_TEXT = /^[\t\x20-\x7e]*$/;

interface ListBound {
  readonly key: 'tracestate' | 'baggage';
  readonly maxBytes: number;
  readonly maxMembers: number;
}

const TRACESTATE: ListBound = {
  key: 'tracestate',
  maxBytes: MAX_TRACESTATE_BYTES,
  maxMembers: MAX_TRACESTATE_MEMBERS,
};
const BAGGAGE: ListBound = { key: 'baggage', maxBytes: MAX_BAGGAGE_BYTES, maxMembers: MAX_BAGGAGE_MEMBERS };

function isTraceparent(value: string): boolean {
  const match = TRACEPARENT.exec(value);
  return match !== null && match[1] !== ZERO_TRACE_ID && match[2] !== ZERO_PARENT_ID;
}

/** Members of a comma-separated W3C list; empty ones (which `tracestate` tolerates) do not count. */
function memberCount(value: string): number {
  let count = 0;
  for (const member of value.split(',')) if (member.trim() !== '') count += 1;
  return count;
}

/** undefined when absent; a rule when refused; else the value, or '' when it is not W3C text. */
function boundedList(meta: Readonly<JsonObject>, bound: ListBound): string | undefined | { rule: string } {
  if (!Object.hasOwn(meta, bound.key)) return undefined;
  const value = meta[bound.key];
  if (typeof value !== 'string') return { rule: `params._meta.${bound.key} must be a string` };
  // UTF-8 is never shorter than UTF-16 code units, so a long string is refused before it is measured.
  if (value.length > bound.maxBytes || Buffer.byteLength(value, 'utf8') > bound.maxBytes)
    return { rule: `params._meta.${bound.key} exceeds ${bound.maxBytes} bytes` };
  if (memberCount(value) > bound.maxMembers)
    return { rule: `params._meta.${bound.key} exceeds ${bound.maxMembers} list members` };
  return LIST_TEXT.test(value) ? value.trim() : '';
}

/**
 * Reads and bounds the trace context of one request's `_meta`. `withBaggage` is the host's
 * `traceContext.baggage` option: without it baggage is checked and then dropped.
 */
export function readTraceContext(meta: Readonly<JsonObject>, withBaggage: boolean): TraceContextRead {
  const traceparent = Object.hasOwn(meta, 'traceparent') ? meta['traceparent'] : undefined;
  if (traceparent !== undefined && typeof traceparent !== 'string')
    return { ok: false, rule: 'params._meta.traceparent must be a string' };
  const tracestate = boundedList(meta, TRACESTATE);
  if (typeof tracestate === 'object') return { ok: false, rule: tracestate.rule };
  const baggage = boundedList(meta, BAGGAGE);
  if (typeof baggage === 'object') return { ok: false, rule: baggage.rule };
  if (traceparent === undefined || !isTraceparent(traceparent)) return { ok: true, value: undefined };
  const value: { traceparent: string; tracestate?: string; baggage?: string } = { traceparent };
  if (tracestate !== undefined && tracestate !== '') value.tracestate = tracestate;
  if (withBaggage && baggage !== undefined && baggage !== '') value.baggage = baggage;
  return { ok: true, value: Object.freeze(value) };
}

/**
 * The `_meta` a handler sees as `ctx.meta`: the client's, less `baggage` unless the host opted in.
 * Baggage is the caller's arbitrary key-value data; the opt-in would mean nothing if the raw
 * value rode in beside it. Copied only when there is a key to drop (most requests have none).
 */
export function metaForHost(meta: Readonly<JsonObject>, withBaggage: boolean): Readonly<JsonObject> {
  if (withBaggage || !Object.hasOwn(meta, BAGGAGE.key)) return meta;
  const copy = ownCopy(meta);
  delete copy[BAGGAGE.key];
  return copy;
}
