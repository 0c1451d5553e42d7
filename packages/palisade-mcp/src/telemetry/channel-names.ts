/**
 * The names of every `node:diagnostics_channel` channel Palisade publishes on, in one place. They
 * are a stable interface (docs/telemetry.md): a name is never changed or reused, and an event's
 * fields are only ever added to.
 */
import type { JsonRpcErrorCode } from '../wire/codes.js';
import type { HttpRefusalRule, StdioRefusalRule } from './refusal-rules.js';

/** The tracing channel around the host's tools, resource readers and prompt getters. */
export const DISPATCH_CHANNEL_NAME = 'palisade:dispatch';

/** One event per refusal the HTTP transport answers itself: `{ rule, status, code }`. */
export const HTTP_REFUSAL_CHANNEL = 'palisade:http-refusal';

/** One event per refusal the stdio transport answers itself: `{ rule, code }`. */
export const STDIO_REFUSAL_CHANNEL = 'palisade:stdio-refusal';

/** What `palisade:http-refusal` publishes. */
export interface HttpRefusalEvent {
  /** The rule's stable name (`too-large`, `origin-not-allowed`, `authorize`, or the host's own). */
  readonly rule: HttpRefusalRule;
  /** The HTTP status answered (200 for a stream cut after its status went out). */
  readonly status: number;
  /** The JSON-RPC error code answered (0 when none was sent). */
  readonly code: JsonRpcErrorCode | 0;
}

/** What `palisade:stdio-refusal` publishes. */
export interface StdioRefusalEvent {
  /** The rule's stable name (`line-too-large`, `not-json`, `id-in-flight`, ...). */
  readonly rule: StdioRefusalRule;
  /** The JSON-RPC error code answered. */
  readonly code: JsonRpcErrorCode;
}
