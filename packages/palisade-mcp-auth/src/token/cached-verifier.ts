/**
 * JWT verification behind the cache of verified tokens. A token verified once is not verified
 * again until its `exp` plus the leeway (and never past the key set's cache age, so a withdrawn
 * key stops being honoured no later than without the cache): a client repeating its token pays
 * one signature check. Only tokens that verified are kept, so forged ones can neither fill the
 * cache nor evict good ones. Measured in docs/auth.md: a verification 200 to 280 µs of CPU, a hit 10.
 */
import { TokenCache, tokenDigest } from '../token-cache.js';
import type { Principal } from './principal.js';
import { type JwtPolicy, type Verified, verifyJwt } from './verify-jwt.js';

export type JwtVerifier = (token: string, nowSeconds: number) => Verified | Promise<Verified>;

export function cachedVerifier(policy: JwtPolicy, entries: number, maxAgeMs: number): JwtVerifier {
  if (entries === 0) return (token, now) => verifyJwt(token, policy, now);
  const cache = new TokenCache<Principal>(entries);
  return (token, now) => {
    const digest = tokenDigest(token);
    const principal = cache.get(digest);
    if (principal !== undefined) return { ok: true, principal };
    return verifyJwt(token, policy, now).then((result) => {
      if (result.ok) {
        const exp = result.principal.expiresAt;
        const untilExp =
          exp === undefined ? Number.POSITIVE_INFINITY : (exp + policy.leewaySeconds - now) * 1000;
        cache.set(digest, result.principal, Math.min(untilExp, maxAgeMs));
      }
      return result;
    });
  };
}
