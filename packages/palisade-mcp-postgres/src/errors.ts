/** The adapter's one failure a caller handles: the database cannot be reached right now. */
export type PostgresErrorCode =
  /** No connection could be made or kept; requests that need the database are refused (503) until it is back. */
  | 'PALISADE_PG_UNAVAILABLE'
  /** An option given to createPostgres is wrong; the message names it. */
  | 'PALISADE_PG_INVALID_OPTION';

export class PalisadePostgresError extends Error {
  readonly code: PostgresErrorCode;

  constructor(code: PostgresErrorCode, message: string) {
    super(message);
    this.name = 'PalisadePostgresError';
    this.code = code;
  }
}

export function unavailable(): PalisadePostgresError {
  return new PalisadePostgresError(
    'PALISADE_PG_UNAVAILABLE',
    'PostgreSQL is unreachable; retrying with backoff',
  );
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
