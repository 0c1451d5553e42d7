/**
 * The named 503: while the database is unreachable, every request is refused before it is read,
 * `503` with `Retry-After` and the rule `postgres-unavailable` on the refusal channel and in the
 * log, instead of reaching a store that would fail it deeper down (or a listen stream that would
 * silently miss changes). Once the probe finds the database again, requests pass to the host's
 * own `authorize`. Built on the transport's `authorize` seam, so nothing in the core knows.
 */
import type { Authorize, AuthorizeRequest, AuthorizeResult } from 'palisade-mcp/http';
import type { Database } from './database.js';

/** The `Retry-After` of the 503, seconds: about the longest reconnect backoff. */
export const UNAVAILABLE_RETRY_AFTER_S = 2;

export function admitWhileReachable(db: Database, next?: Authorize): Authorize {
  return (request: AuthorizeRequest): AuthorizeResult | Promise<AuthorizeResult> => {
    if (!db.reachable)
      return {
        ok: false,
        status: 503,
        headers: { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_S) },
        rule: 'postgres-unavailable',
        reason: 'PostgreSQL is unreachable; the adapter is reconnecting',
      };
    return next === undefined ? { ok: true } : next(request);
  };
}
