/**
 * Where the transports' reports go: a refusal to the host's `onLog`, else its `logger`, else one
 * line on stderr; a host fault to `onFault`, else the `logger`, else stderr with its stack. These
 * adapters turn the transports' events into the stable records of logger.ts; the transports only
 * pick which one runs, once, when their options are checked.
 */
import { type PalisadeLogger, refusalToLogger } from './logger.js';

/**
 * One transport refusal, for the host's log. `reason` is `authorize`'s own text, or for a `421`
 * the refused Host, quoted, escaped and cut to MAX_LOGGED_HOST_CHARS: no other client byte.
 */
export interface HttpLogEvent {
  readonly kind: 'refusal';
  readonly rule: string;
  readonly status: number;
  readonly reason?: string;
}

/** The default `onFault`: one line on stderr naming the fault, then the error's stack (stderr is the host's own). */
export function defaultFault(description: string, cause: unknown): void {
  const detail = cause instanceof Error && typeof cause.stack === 'string' ? `\n${cause.stack}` : '';
  process.stderr.write(`palisade: host fault: ${description}${detail}\n`);
}

/**
 * Refusals that are routine protocol negotiation rather than a caller doing something wrong: a
 * client's GET probe for a stream (http/refusals.ts, `streamProbe`). Logged at `debug` (a logger
 * without `debug` drops them) and not written to stderr by default, so the log an operator reads
 * holds only refusals worth reading. `onLog` and the refusal channel still get them.
 */
export const ROUTINE_RULES: ReadonlySet<string> = new Set(['get-stream-not-offered']);

/** `onLog` over a logger: the event's fields, under the stable record shape; routine ones at debug. */
function logToLogger(logger: PalisadeLogger): (event: HttpLogEvent) => void {
  return (event) =>
    refusalToLogger(
      logger,
      ROUTINE_RULES.has(event.rule) ? 'debug' : 'warn',
      event.reason === undefined
        ? { event: 'palisade.refusal', transport: 'http', rule: event.rule, status: event.status }
        : {
            event: 'palisade.refusal',
            transport: 'http',
            rule: event.rule,
            status: event.status,
            reason: event.reason,
          },
    );
}

/** Where refusals are logged: the host's `onLog`, else its `logger`, else stderr. Checked by the caller. */
export function refusalLog(
  onLog: ((event: HttpLogEvent) => void) | undefined,
  logger: PalisadeLogger | undefined,
): (event: HttpLogEvent) => void {
  return onLog ?? (logger === undefined ? defaultLog : logToLogger(logger));
}

export function defaultLog(event: HttpLogEvent): void {
  if (ROUTINE_RULES.has(event.rule)) return;
  const reason = event.reason === undefined ? '' : ` (${event.reason})`;
  process.stderr.write(`palisade: http refusal ${event.rule} ${event.status}${reason}\n`);
}
