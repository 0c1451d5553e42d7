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

export { DISPATCH_CHANNEL_NAME } from './channel-names.js';

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

export async function traceDispatch<T>(
  event: DispatchEvent,
  run: () => Promise<T>,
  outcomeOf: (value: T) => DispatchOutcome,
): Promise<Settled<T>> {
  // Nobody subscribed: nothing to time and no event to fill, so no wrapper (one async frame and
  // its hop fewer per call). `hasSubscribers` is read at dispatch, as `tracePromise` would.
  if (!dispatchChannel.hasSubscribers) {
    try {
      const value = await run();
      // Read as the traced path reads it: a host getter that throws here is the handler's fault.
      outcomeOf(value);
      return { ok: true, value };
    } catch (error) {
      return { ok: false, error };
    }
  }
  let settled: Settled<T> = { ok: false, error: undefined };
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
  return settled;
}
