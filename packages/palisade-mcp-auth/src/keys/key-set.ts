/**
 * A set of verification keys and the one rule for picking a token's key: the only key that fits
 * the token's algorithm (and its `kid`, when it names one). When several fit (no `kid`, or a set
 * publishing two keys under one `kid`) the token is refused rather than tried against each, which
 * would let one request cost many verifications; jose's own key sets refuse the same way unless
 * their caller iterates. A host's own set may not hold such a pair at all (readJwks, strict).
 */
import { MAX_JWKS_KEYS } from '../limits.js';
import type { Algorithm } from '../token/algorithms.js';
import { ALGORITHM_NAMES, keyFits } from '../token/algorithms.js';
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
      if (count > 1) return { kind: 'ambiguous' };
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
  if (strict) {
    const twins = sharedKid(keys, allowed);
    if (twins !== undefined) return { ok: false, reason: twins };
  }
  return { ok: true, set: keySet(keys), skipped };
}

/**
 * Two keys under one `kid` that could verify the same algorithm, named; RFC 7517 §4.5 allows a
 * shared `kid` only across key types, and a token under it could not say which key it means.
 */
function sharedKid(keys: readonly VerificationKey[], allowed: ReadonlySet<string>): string | undefined {
  for (const [i, a] of keys.entries()) {
    if (a.kid === undefined) continue;
    for (let j = i + 1; j < keys.length; j++) {
      const b = keys[j] as VerificationKey;
      if (b.kid !== a.kid) continue;
      const both = ALGORITHM_NAMES.some(
        (alg) =>
          allowed.has(alg) &&
          keyFits(alg, a.kty, a.crv) &&
          keyFits(alg, b.kty, b.crv) &&
          (a.alg === undefined || a.alg === alg) &&
          (b.alg === undefined || b.alg === alg),
      );
      if (both) return `keys ${i} and ${j} share the kid "${a.kid}" and could verify the same algorithm`;
    }
  }
  return undefined;
}
