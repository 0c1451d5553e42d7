/**
 * The one failure a shared store or bus throws for a request the server could not serve *now*:
 * the state it lives in (a database, a broker) is unreachable and the store is reconnecting. It
 * is not a host fault: the request is answered `503` with `Retry-After` and the store's own rule
 * name on HTTP (a JSON-RPC error, "Service unavailable", on stdio), and only the requests that
 * touched that state are; a tool that needs none of it is served meanwhile. The message is for
 * the host's log; the client sees neither it nor the cause. `instanceof` works across two copies
 * of the package through a `Symbol.for` brand, as for PalisadeError.
 */
import { PalisadeError } from './errors.js';

const BRAND = Symbol.for('palisade-mcp.unavailable');

/** A rule name as the transport's own are spelled: lower-case letters, digits and `-`, from a letter. */
const RULE = /^[a-z][a-z0-9-]{0,63}$/;

/** The longest `Retry-After` a store may ask for, seconds. */
export const MAX_RETRY_AFTER_S = 3_600;

export interface UnavailableInit {
  /** The refusal's stable name in the log and on the refusal channel (`postgres-unavailable`). */
  readonly rule: string;
  /** The `Retry-After` of the 503, whole seconds from 1 to MAX_RETRY_AFTER_S. */
  readonly retryAfterSeconds: number;
  /** For the host's log only. */
  readonly message: string;
}

export class UnavailableError extends Error {
  readonly code = 'PALISADE_ERR_UNAVAILABLE' as const;
  readonly rule: string;
  readonly retryAfterSeconds: number;

  constructor(init: UnavailableInit) {
    super(init.message);
    // Checked here, once: the HTTP layer writes both into a response as they are.
    if (typeof init.rule !== 'string' || !RULE.test(init.rule))
      throw new PalisadeError(
        'PALISADE_ERR_INVALID_ARGUMENT',
        'UnavailableError needs a rule of lower-case letters, digits and -, starting with a letter, at most 64 characters',
      );
    const after = init.retryAfterSeconds;
    if (!Number.isInteger(after) || after < 1 || after > MAX_RETRY_AFTER_S)
      throw new PalisadeError(
        'PALISADE_ERR_INVALID_ARGUMENT',
        `UnavailableError needs retryAfterSeconds as an integer from 1 to ${MAX_RETRY_AFTER_S}`,
      );
    this.name = 'UnavailableError';
    this.rule = init.rule;
    this.retryAfterSeconds = after;
  }

  get [BRAND](): true {
    return true;
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
}
