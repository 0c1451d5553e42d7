/**
 * JWT verification behind the cache of verified tokens: a client repeating its token pays one
 * signature check. A hit is held to what a fresh verification would decide at that moment, on the
 * same clocks: the wall clock against `exp` plus the leeway (a monotonic TTL alone would outlive
 * `exp` when the wall clock steps forward), and the key source's current set, which must still
 * publish the key that verified the token under the token's `kid` and algorithm. So a refetch
 * that withdraws a key withdraws every token it verified at once, and a set past its age is
 * fetched again before any of its tokens is served. Only tokens that verified are kept, so forged
 * ones can neither fill the cache nor evict good ones. Measured in docs/auth.md: a verification
 * 200 to 280 µs of CPU, a hit 10.
 */
import type { KeySet } from '../keys/key-set.js';
import { TokenCache, tokenDigest } from '../token-cache.js';
import type { Principal } from './principal.js';
import { type JwtPolicy, type KeyUse, type Verified, verifyJwt } from './verify-jwt.js';

export type JwtVerifier = (token: string, nowSeconds: number) => Verified | Promise<Verified>;

interface Entry {
  readonly principal: Principal;
  readonly via: KeyUse;
  /** The set the key was last found in; a new set is searched once, then remembered. */
  set: KeySet | undefined;
}

/** Whether the key that verified the entry's token is still what `set` would pick for it. */
function stillPublished(entry: Entry, set: KeySet): boolean {
  if (set === entry.set) return true;
  const pick = set.pick(entry.via.alg, entry.via.kid);
  if (pick.kind !== 'key' || pick.key.fingerprint !== entry.via.fingerprint) return false;
  entry.set = set;
  return true;
}

export function cachedVerifier(policy: JwtPolicy, entries: number, maxAgeMs: number): JwtVerifier {
  if (entries === 0) return (token, now) => verifyJwt(token, policy, now);
  const cache = new TokenCache<Entry>(entries);
  const leeway = policy.leewaySeconds;
  return (token, now) => {
    const digest = tokenDigest(token);
    const entry = cache.get(digest);
    if (entry !== undefined) {
      const exp = entry.principal.expiresAt;
      const set = entry.via.source.fresh();
      if ((exp === undefined || now < exp + leeway) && set !== undefined && stillPublished(entry, set)) {
        return { ok: true, principal: entry.principal };
      }
      cache.delete(digest);
    }
    return verifyJwt(token, policy, now).then((result) => {
      if (result.ok && result.via !== undefined) {
        const exp = result.principal.expiresAt;
        const untilExp = exp === undefined ? Number.POSITIVE_INFINITY : (exp + leeway) * 1000 - Date.now();
        cache.set(
          digest,
          { principal: result.principal, via: result.via, set: undefined },
          Math.min(untilExp, maxAgeMs),
        );
      }
      return result;
    });
  };
}
