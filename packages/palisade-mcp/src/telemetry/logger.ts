/**
 * The `logger` option of the transports: any object with pino's method shape, `warn(obj, msg)`
 * and `error(obj, msg)`, and `debug(obj, msg)` when it has one (a pino logger as it is, or a
 * console-like shim). Palisade writes two
 * kinds of record, each with a stable `event` field, and never a client byte: refusals name their
 * rule, faults their description and the error's `name` and `code`. A fault's message and stack
 * are left out on purpose: host errors often quote the input that caused them (a parser's
 * message, a validator's), and a log is read by more people than the host's code is. A host that
 * wants the stack passes `onFault` and gets the error itself.
 */
import { invalidOption } from '../errors.js';

/** What Palisade calls on a `logger`: pino's `(object, message)` form. */
export interface PalisadeLogger {
  warn(record: object, message: string): void;
  error(record: object, message: string): void;
  /** Routine refusals (a client's GET probe for a stream); without it they are not logged. */
  debug?(record: object, message: string): void;
}

export type TransportName = 'http' | 'stdio';

/** A refusal's record: `event: 'palisade.refusal'`. */
export interface RefusalRecord {
  readonly event: 'palisade.refusal';
  readonly transport: TransportName;
  readonly rule: string;
  /** HTTP only: the status answered. */
  readonly status?: number;
  /** stdio only: the JSON-RPC error code answered. */
  readonly code?: number;
  /** HTTP `authorize` refusals: the host's own `reason`, as the host wrote it. */
  readonly reason?: string;
}

/** A host fault's record: `event: 'palisade.fault'`. */
export interface FaultRecord {
  readonly event: 'palisade.fault';
  readonly transport: TransportName;
  /** Palisade's description of what broke (`tool "x" handler threw`). */
  readonly description: string;
  /** The thrown error's `name` and string or number `code`, when it has them. */
  readonly error?: { readonly name?: string; readonly code?: string | number };
}

export function checkLogger(value: unknown, path: string): PalisadeLogger | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null)
    throw invalidOption(path, 'must be an object with warn and error methods (a pino logger works)');
  const candidate = value as Record<string, unknown>;
  for (const method of ['warn', 'error'] as const) {
    if (typeof candidate[method] !== 'function')
      throw invalidOption(`${path}.${method}`, 'must be a function taking (object, message)');
  }
  if (candidate['debug'] !== undefined && typeof candidate['debug'] !== 'function')
    throw invalidOption(`${path}.debug`, 'must be a function taking (object, message) when present');
  return value as PalisadeLogger;
}

function errorFacts(cause: unknown): FaultRecord['error'] {
  if (typeof cause !== 'object' || cause === null) return undefined;
  const facts: { name?: string; code?: string | number } = {};
  try {
    // `name` usually sits on the prototype (Error.prototype.name); `code` on the error itself.
    const { name, code } = cause as { name?: unknown; code?: unknown };
    if (typeof name === 'string') facts.name = name;
    if (typeof code === 'string' || typeof code === 'number') facts.code = code;
  } catch {
    // A host error whose getter throws still gets its fault logged, without these facts.
  }
  return facts.name === undefined && facts.code === undefined ? undefined : facts;
}

/** `onFault` written over a logger. */
export function faultToLogger(
  logger: PalisadeLogger,
  transport: TransportName,
): (description: string, cause: unknown) => void {
  return (description, cause) => {
    const error = errorFacts(cause);
    const record: FaultRecord =
      error === undefined
        ? { event: 'palisade.fault', transport, description }
        : { event: 'palisade.fault', transport, description, error };
    quietly(() => logger.error(record, 'palisade: host fault'));
  };
}

export function refusalToLogger(
  logger: PalisadeLogger,
  level: 'warn' | 'debug',
  record: RefusalRecord,
): void {
  quietly(() =>
    level === 'warn'
      ? logger.warn(record, 'palisade: request refused')
      : logger.debug?.(record, 'palisade: request refused'),
  );
}

/**
 * A logger that throws must not turn a refusal into a crash or a fault into an unhandled
 * rejection: the log line is lost, the answer to the client is not.
 */
function quietly(write: () => void): void {
  try {
    write();
  } catch {
    // Nowhere left to report it: the logger was the place.
  }
}
