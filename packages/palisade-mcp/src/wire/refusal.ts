/**
 * What the wire layer answers instead of a message: a JSON-RPC error code and a message that
 * names the rule. A refusal never carries the client's bytes beyond a bounded key name, a stack
 * or an inspected value: messages are built from constants and from numbers we chose.
 */
import type { INVALID_REQUEST, PARSE_ERROR } from './codes.js';

export interface WireRefusal<Rule extends WireRule = WireRule> {
  readonly code: typeof PARSE_ERROR | typeof INVALID_REQUEST;
  readonly message: string;
  /** Stable machine-readable name of the rule, for logs and diagnostics channels. */
  readonly rule: Rule;
}

/** What the bounded JSON reader (json-reader.ts) refuses a document for, on every transport. */
export type JsonRule =
  | 'empty'
  | 'not-json'
  | 'invalid-utf8'
  | 'lone-surrogate'
  | 'too-large'
  | 'too-deep'
  | 'repeated-key'
  | 'not-object'
  | 'batch';

/** What the stdio framer (stdio-framer.ts) refuses a line or a frame for. */
export type FramingRule = 'line-too-large' | 'frame-too-large' | 'bad-frame-header' | 'truncated-frame';

export type WireRule = JsonRule | FramingRule;

/** What the JSON reader answers: the value, or the refusal naming one of its rules. */
export type ReadResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly refusal: WireRefusal<JsonRule> };
