/**
 * Where a token's key comes from: a fixed set the host gave, or a JWKS fetched from a URL (given,
 * or found by issuer discovery). A fetched set is cached for `cacheMaxAgeMs`; a `kid` it does not
 * hold triggers at most one refetch per `cooldownMs`, and every request that needs a fetch while
 * one is in flight waits for that one. A source that cannot be fetched fails closed: the lookup
 * says so (a 503 to the client), it is not retried within the cooldown, and no key is invented.
 */
import { performance } from 'node:perf_hooks';
import { boundedFetch, type FetchPolicy, parseJson } from '../fetch/bounded-fetch.js';
import type { Algorithm } from '../token/algorithms.js';
import type { VerificationKey } from './jwk.js';
import { type KeySet, readJwks } from './key-set.js';

export type KeyLookup =
  | { readonly kind: 'key'; readonly key: VerificationKey }
  | { readonly kind: 'unknown' }
  | { readonly kind: 'ambiguous' }
  /** The source could not be read; `reason` is for the host's log, `retryInMs` until it is asked again. */
  | { readonly kind: 'unavailable'; readonly reason: string; readonly retryInMs: number };

export interface KeySource {
  lookup(alg: Algorithm, kid: string | undefined): KeyLookup | Promise<KeyLookup>;
  /**
   * The set a lookup would pick from right now without fetching, or undefined when it would
   * fetch first (none yet, or aged out). The cache of verified tokens asks it on every hit, so a
   * token is served from the cache only while the key that verified it is still published.
   */
  fresh(): KeySet | undefined;
}

export interface CachePolicy extends FetchPolicy {
  readonly cooldownMs: number;
  readonly cacheMaxAgeMs: number;
}

/** The JWKS media types RFC 7517 §8.5 registers, and the one most providers actually send. */
const JWKS_TYPES = ['application/json', 'application/jwk-set+json'];

export function staticKeySource(set: KeySet): KeySource {
  return { lookup: (alg, kid) => set.pick(alg, kid), fresh: () => set };
}

export class RemoteKeySource implements KeySource {
  readonly url: URL;
  readonly #policy: CachePolicy;
  readonly #allowed: ReadonlySet<string>;
  #set: KeySet | undefined;
  #fetchedAt = Number.NEGATIVE_INFINITY;
  #attemptedAt = Number.NEGATIVE_INFINITY;
  #failure: string | undefined;
  #inflight: Promise<void> | undefined;

  constructor(url: URL, policy: CachePolicy, allowed: ReadonlySet<string>) {
    this.url = url;
    this.#policy = policy;
    this.#allowed = allowed;
  }

  fresh(): KeySet | undefined {
    return performance.now() - this.#fetchedAt < this.#policy.cacheMaxAgeMs ? this.#set : undefined;
  }

  async lookup(alg: Algorithm, kid: string | undefined): Promise<KeyLookup> {
    if (this.#set === undefined || performance.now() - this.#fetchedAt >= this.#policy.cacheMaxAgeMs) {
      await this.#refresh();
      if (this.#failure !== undefined) return this.#unavailable(this.#failure);
    }
    const pick = (this.#set as KeySet).pick(alg, kid);
    if (pick.kind !== 'unknown') return pick;
    // A kid we do not hold may be a key the provider just rotated in: look once more (or wait
    // for the look already under way), then no more until the cooldown passes, however many
    // unknown kids arrive in between.
    const looking = this.#inflight !== undefined;
    if (!looking && performance.now() - this.#attemptedAt < this.#policy.cooldownMs) return pick;
    await this.#refresh();
    if (this.#failure !== undefined) return this.#unavailable(this.#failure);
    return (this.#set as KeySet).pick(alg, kid);
  }

  #unavailable(reason: string): KeyLookup {
    const retryInMs = Math.max(0, this.#attemptedAt + this.#policy.cooldownMs - performance.now());
    return { kind: 'unavailable', reason, retryInMs };
  }

  #refresh(): Promise<void> {
    if (this.#inflight !== undefined) return this.#inflight;
    const now = performance.now();
    if (this.#failure !== undefined && now - this.#attemptedAt < this.#policy.cooldownMs) {
      return Promise.resolve();
    }
    this.#attemptedAt = now;
    this.#inflight = this.#download().finally(() => {
      this.#inflight = undefined;
    });
    return this.#inflight;
  }

  async #download(): Promise<void> {
    const fetched = await boundedFetch(this.url, this.#policy, { accept: JWKS_TYPES });
    if (!fetched.ok) {
      this.#fail(`the JWKS at ${this.url.origin} ${fetched.reason}`);
      return;
    }
    const read = readJwks(parseJson(fetched.body), this.#allowed, false);
    if (!read.ok) {
      this.#fail(`the JWKS at ${this.url.origin} ${read.reason}`);
      return;
    }
    this.#set = read.set;
    this.#fetchedAt = performance.now();
    this.#failure = undefined;
  }

  #fail(reason: string): void {
    // A set fetched earlier is not used past its age: a key the provider withdrew stays withdrawn.
    if (performance.now() - this.#fetchedAt >= this.#policy.cacheMaxAgeMs) this.#set = undefined;
    this.#failure = reason;
  }
}
