/**
 * Consent for an origin the application did not declare. The host's handler answers `'deny'`,
 * `'allow'` (for `consentTtlMs`), or an expiry in one of four explicit forms: a `Date`,
 * `{ ttl: seconds }` from now, `{ unix: seconds }` since the epoch, or `{ monotonic: seconds }`
 * on `performance.now() / 1000`. Every other path fails closed: a denial, a throw, a rejected
 * promise, an answer of another shape, a bare number (epoch seconds or a duration? it cannot be
 * told, so it is not guessed), an expiry already past or more than 365 days out. Grants are
 * cached per origin until they expire; refusals are not cached, so the handler is asked again.
 */
import { ClientError } from '../errors.js';
import { DEFAULT_CONSENT_TTL_MS, MAX_CONSENT_SECONDS } from '../limits.js';

export type ConsentExpiry =
  | Date
  | { readonly ttl: number }
  | { readonly unix: number }
  | { readonly monotonic: number };
export type ConsentAnswer = 'allow' | 'deny' | ConsentExpiry;

export interface ConsentRequest {
  /** The canonical origin asked about (`https://mcp.example.com`, `file://`). */
  readonly origin: string;
  /** What the request is for: the MCP exchange, an OAuth step, or a resource URI sent over stdio. */
  readonly purpose: 'mcp' | 'oauth' | 'resource-uri';
  /** The cache lifetime `'allow'` gets, in seconds. */
  readonly ttlSeconds: number;
}

export type ConsentHandler = (request: ConsentRequest) => ConsentAnswer | Promise<ConsentAnswer>;

/** The default: every origin the application did not declare is denied. */
export const denyAll: ConsentHandler = () => 'deny';

const MAX_CACHED_ORIGINS = 10_000;

function consentError(origin: string, why: string): ClientError {
  return new ClientError(
    'PALISADE_CLIENT_ERR_CONSENT_ERROR',
    `consent for ${origin} could not be read: ${why}; the request was blocked`,
    { rule: 'consent-unreadable' },
  );
}

/** Seconds from now until `answer` expires, or the reason it is refused. */
export function remainingSeconds(answer: unknown, ttlSeconds: number): number | string {
  if (answer === 'allow') return ttlSeconds;
  if (typeof answer === 'number')
    return 'a bare number is not an expiry: return { ttl }, { unix }, { monotonic } or a Date';
  let seconds: number;
  if (answer instanceof Date) {
    seconds = (answer.getTime() - Date.now()) / 1000;
  } else if (typeof answer === 'object' && answer !== null && !Array.isArray(answer)) {
    const keys = Object.keys(answer);
    if (keys.length !== 1) return 'an expiry object has exactly one of ttl, unix, monotonic';
    const key = keys[0] as string;
    const value = (answer as Record<string, unknown>)[key];
    if (typeof value !== 'number' || !Number.isFinite(value))
      return `${key} must be a finite number of seconds`;
    if (key === 'ttl') seconds = value;
    else if (key === 'unix') seconds = value - Date.now() / 1000;
    else if (key === 'monotonic') seconds = value - performance.now() / 1000;
    else return 'an expiry object has exactly one of ttl, unix, monotonic';
  } else {
    return 'the answer is neither allow, deny nor an expiry';
  }
  if (Number.isNaN(seconds)) return 'the expiry is not a time';
  if (seconds <= 0) return 'the expiry is already in the past';
  if (seconds > MAX_CONSENT_SECONDS) return 'the expiry is more than 365 days away';
  return seconds;
}

export class ConsentCache {
  readonly #handler: ConsentHandler;
  readonly #ttlSeconds: number;
  /** origin → expiry on performance.now() (ms). */
  readonly #granted = new Map<string, number>();
  readonly #asking = new Map<string, Promise<void>>();

  constructor(handler: ConsentHandler = denyAll, ttlMs: number = DEFAULT_CONSENT_TTL_MS) {
    this.#handler = handler;
    this.#ttlSeconds = ttlMs / 1000;
  }

  /** Resolves when `origin` may be reached now; rejects with a named ClientError otherwise. */
  require(origin: string, purpose: ConsentRequest['purpose']): Promise<void> {
    const until = this.#granted.get(origin);
    if (until !== undefined) {
      if (until > performance.now()) return Promise.resolve();
      this.#granted.delete(origin);
    }
    const pending = this.#asking.get(origin);
    if (pending !== undefined) return pending;
    const asking = this.#ask(origin, purpose).finally(() => this.#asking.delete(origin));
    this.#asking.set(origin, asking);
    return asking;
  }

  async #ask(origin: string, purpose: ConsentRequest['purpose']): Promise<void> {
    let answer: unknown;
    try {
      answer = await this.#handler(Object.freeze({ origin, purpose, ttlSeconds: this.#ttlSeconds }));
    } catch (cause) {
      throw new ClientError(
        'PALISADE_CLIENT_ERR_CONSENT_ERROR',
        `the consent handler threw for ${origin}; the request was blocked`,
        { rule: 'consent-threw', cause },
      );
    }
    if (answer === 'deny') {
      throw new ClientError('PALISADE_CLIENT_ERR_CONSENT_DENIED', `consent for ${origin} was denied`, {
        rule: 'consent-denied',
      });
    }
    let seconds: number | string;
    try {
      seconds = remainingSeconds(answer, this.#ttlSeconds);
    } catch {
      // A getter, a Proxy or a Date subclass that throws while being read: unreadable, so refused.
      seconds = 'reading the answer threw';
    }
    if (typeof seconds === 'string') throw consentError(origin, seconds);
    if (this.#granted.size >= MAX_CACHED_ORIGINS)
      this.#granted.delete(this.#granted.keys().next().value as string);
    this.#granted.set(origin, performance.now() + seconds * 1000);
  }
}
