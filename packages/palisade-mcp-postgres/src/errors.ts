import { UnavailableError } from 'palisade-mcp';

/** The `Retry-After` of the 503 a request that needed the database gets, seconds: about the longest reconnect backoff. */
export const UNAVAILABLE_RETRY_AFTER_S = 2;

/** The adapter's own construction error; an unreachable database is the server package's UnavailableError. */
export type PostgresErrorCode =
  /** An option given to createPostgres is wrong; the message names it. */
  'PALISADE_PG_INVALID_OPTION';

export class PalisadePostgresError extends Error {
  readonly code: PostgresErrorCode;

  constructor(code: PostgresErrorCode, message: string) {
    super(message);
    this.name = 'PalisadePostgresError';
    this.code = code;
  }
}

/**
 * No connection could be made or kept: the server package answers the request that needed the
 * database 503 `postgres-unavailable` with Retry-After (JSON-RPC "Service unavailable" on stdio),
 * and serves every request that did not.
 */
export function unavailable(): UnavailableError {
  return new UnavailableError({
    rule: 'postgres-unavailable',
    retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_S,
    message: 'PostgreSQL is unreachable; retrying with backoff',
  });
}

export function invalidOption(path: string, rule: string): PalisadePostgresError {
  return new PalisadePostgresError('PALISADE_PG_INVALID_OPTION', `option "${path}" ${rule}`);
}

/**
 * Whether a failure means the connection, not the query: refused or dropped sockets, the server
 * shutting down or not yet accepting (SQLSTATE classes 08 and 57P), a pool that timed out waiting
 * for a connection. Anything else is a bug or a constraint, and is thrown as it is.
 */
export function isConnectionFailure(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (code.startsWith('08') || code.startsWith('57P')) return true;
    if (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND'].includes(code))
      return true;
  }
  return (
    typeof message === 'string' &&
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended/i.test(
      message,
    )
  );
}
