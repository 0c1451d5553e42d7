/**
 * What the wire layer answers instead of a message: a JSON-RPC error code and a message that
 * names the rule. A refusal never carries the client's bytes beyond a bounded key name, a stack
 * or an inspected value: messages are built from constants and from numbers we chose.
 */
export interface WireRefusal {
  readonly code: -32700 | -32600;
  readonly message: string;
  /** Stable machine-readable name of the rule, for logs and diagnostics channels. */
  readonly rule: WireRule;
}

export type WireRule =
  | 'empty'
  | 'not-json'
  | 'invalid-utf8'
  | 'lone-surrogate'
  | 'too-large'
  | 'too-deep'
  | 'repeated-key'
  | 'not-object'
  | 'batch'
  // stdio framing (wire/stdio-framer.ts)
  | 'line-too-large'
  | 'frame-too-large'
  | 'bad-frame-header'
  | 'truncated-frame';

export type ReadResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly refusal: WireRefusal };
