/**
 * The one tracing channel around the one place a tool is dispatched. Subscribers see which tool,
 * under which revision, the outcome and the duration: never arguments, results, errors or
 * headers. Node's `tracePromise` copies the traced function's result and error onto the context
 * it publishes, so the handler is not traced directly: a wrapper of ours is, which settles with
 * nothing and keeps the host's value and error to itself.
 */
import diagnosticsChannel from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';

export const DISPATCH_CHANNEL_NAME = 'palisade:dispatch';

export type DispatchOutcome = 'ok' | 'tool-error' | 'fault';

export interface DispatchEvent {
  readonly server: string;
  readonly tool: string;
  readonly revision: string;
  outcome?: DispatchOutcome;
  durationMs?: number;
}

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
