/**
 * A set of verification keys and the one rule for picking a token's key: by `kid` when the token
 * names one, else the only key that fits its algorithm. A token that names no key while several
 * fit is refused rather than tried against each, which would let one request cost many
 * verifications.
 */
import { MAX_JWKS_KEYS } from '../limits.js';
import type { Algorithm } from '../token/algorithms.js';
import { keyFits } from '../token/algorithms.js';
import { readJwk, type VerificationKey } from './jwk.js';

export type KeyPick =
  | { readonly kind: 'key'; readonly key: VerificationKey }
  | { readonly kind: 'unknown' }
  | { readonly kind: 'ambiguous' };

export interface KeySet {
  readonly keys: readonly VerificationKey[];
  pick(alg: Algorithm, kid: string | undefined): KeyPick;
}

export function keySet(keys: readonly VerificationKey[]): KeySet {
  const frozen = Object.freeze([...keys]);
  return Object.freeze({
    keys: frozen,
    pick(alg: Algorithm, kid: string | undefined): KeyPick {
      let found: VerificationKey | undefined;
      let count = 0;
      for (const key of frozen) {
        if (kid !== undefined && key.kid !== kid) continue;
        if (!keyFits(alg, key.kty, key.crv) || (key.alg !== undefined && key.alg !== alg)) continue;
        found ??= key;
        count += 1;
      }
      if (found === undefined) return { kind: 'unknown' };
      // Two keys under one kid are the provider's to resolve; the first is used, as jose does.
      if (kid === undefined && count > 1) return { kind: 'ambiguous' };
      return { kind: 'key', key: found };
    },
  });
}

export type JwksRead =
  | { readonly ok: true; readonly set: KeySet; readonly skipped: readonly string[] }
  | { readonly ok: false; readonly reason: string };

/**
 * A JWKS document (`{ keys: [...] }`): bounded in keys, each key read; `strict` (a host's own
 * set) refuses any key it cannot use, a fetched set skips those and keeps the rest. A fetched set
 * holding private key material, or leaving no usable key, is refused whole.
 */
export function readJwks(value: unknown, allowed: ReadonlySet<string>, strict: boolean): JwksRead {
  if (typeof value !== 'object' || value === null || !Array.isArray((value as { keys?: unknown }).keys)) {
    return { ok: false, reason: 'is not a JWKS ({ "keys": [...] })' };
  }
  const listed = (value as { keys: unknown[] }).keys;
  if (listed.length > MAX_JWKS_KEYS) {
    return { ok: false, reason: `holds ${listed.length} keys, more than ${MAX_JWKS_KEYS}` };
  }
  const keys: VerificationKey[] = [];
  const skipped: string[] = [];
  for (const [index, entry] of listed.entries()) {
    const read = readJwk(entry, allowed);
    if (read.ok) keys.push(read.key);
    else if (strict || read.secret) return { ok: false, reason: `key ${index} ${read.reason}` };
    else skipped.push(`key ${index} ${read.reason}`);
  }
  if (keys.length === 0) return { ok: false, reason: 'holds no key usable for verification here' };
  return { ok: true, set: keySet(keys), skipped };
}
