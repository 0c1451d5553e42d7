/**
 * The one tracing channel around the places the host's code is dispatched: a tool's handler
 * (`tools/call`), a resource's or a template's reader (`resources/read`) and a prompt's getter
 * (`prompts/get`). Subscribers see which of them, under which revision, the outcome and the
 * duration: never arguments, results, errors, headers, or a read's concrete URI (a template's
 * URI carries the caller's variables, so a templated read names its template). Node's
 * `tracePromise` copies the traced function's result and error onto the context it publishes, so
 * the host's function is not traced directly: a wrapper of ours is, which settles with nothing
 * and keeps the host's value and error to itself.
 */
import diagnosticsChannel from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';
import { DISPATCH_CHANNEL_NAME } from './channel-names.js';

export type DispatchOutcome = 'ok' | 'tool-error' | 'fault';

/**
 * W3C trace context the request carried in `params._meta` (MCP SEP-414), checked by the core
 * (protocol/trace-context.ts): `traceparent` is a well-formed version-00 value, `tracestate`
 * and `baggage` are within their bounds. Still the client's word: it says which trace the caller
 * claims to be part of, nothing more. `baggage` is present only when the host opted in with
 * `traceContext: { baggage: true }`.
 */
export interface TraceContext {
  readonly traceparent: string;
  readonly tracestate?: string;
  readonly baggage?: string;
}

/** What every dispatch event carries, whatever was dispatched. */
export interface DispatchEventBase {
  readonly server: string;
  readonly revision: string;
  /** The request's trace context, when it carried a well-formed `traceparent`; else undefined. */
  readonly traceContext: TraceContext | undefined;
  /** `tool-error` is a tool result with `isError: true`; a reader or getter is `ok` or `fault`. */
  outcome?: DispatchOutcome;
  durationMs?: number;
}

/**
 * Exactly one of `tool` (a tool's name), `resource` (a listed resource's URI), `resourceTemplate`
 * (the URI template a read matched) or `prompt` (a prompt's name) names what was dispatched.
 */
export type DispatchEvent = DispatchEventBase &
  (
    | { readonly tool: string }
    | { readonly resource: string }
    | { readonly resourceTemplate: string }
    | { readonly prompt: string }
  );

export const dispatchChannel = diagnosticsChannel.tracingChannel<DispatchEvent, DispatchEvent>(
  DISPATCH_CHANNEL_NAME,
);

type Settled<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: unknown };

/**
 * Whether a dispatch is to be traced: someone subscribed to the channel. Read at each dispatch, as
 * `tracePromise` reads it. When nobody has, the dispatch site awaits the host's function itself
 * and builds no event, wrapper or async frame for nobody: those were about 1.1 KB of allocation
 * per tools/call (sampling heap profiler, 2026-11-30).
 */
export function dispatchTraced(): boolean {
  return dispatchChannel.hasSubscribers;
}

/**
 * Runs `run` on the tracing channel: its result and its error reach the caller untouched, while
 * the channel's subscribers see the event, its outcome and its duration. A value `outcomeOf`
 * cannot read (a host getter that throws) is the host function's fault, as if it had thrown.
 */
export async function traceDispatch<T>(
  event: DispatchEvent,
  run: () => T | PromiseLike<T>,
  outcomeOf: (value: T) => DispatchOutcome,
): Promise<T> {
  let settled = { ok: false, error: undefined } as Settled<T>;
  const timed = async (): Promise<void> => {
    const started = performance.now();
    try {
      const value = await run();
      settled = { ok: true, value };
      event.outcome = outcomeOf(value);
    } catch (error) {
      settled = { ok: false, error };
      event.outcome = 'fault';
    }
    event.durationMs = performance.now() - started;
  };
  await dispatchChannel.tracePromise(timed, event);
  if (!settled.ok) throw settled.error;
  return settled.value;
}
