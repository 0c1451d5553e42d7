/**
 * One JSON Web Key read for verification. Only public signature keys of the types the allowed
 * algorithms need pass; anything else is a reason, which a static set turns into a construction
 * error and a fetched set skips (a provider's JWKS may also hold encryption keys). A key holding
 * private material is never skipped quietly: it is reported as such, since a set that publishes
 * one has leaked it.
 */
import { createPublicKey } from 'node:crypto';
import { MAX_KID_CHARS, MAX_RSA_BITS, MIN_RSA_BITS } from '../limits.js';
import { ALGORITHMS, type Algorithm } from '../token/algorithms.js';

/** A key as verification uses it: the public members only, frozen (jose caches its import by this object). */
export interface VerificationKey {
  readonly kid: string | undefined;
  readonly kty: 'RSA' | 'EC' | 'OKP';
  readonly crv: string | undefined;
  /** The one algorithm the key is for, when it says so. */
  readonly alg: Algorithm | undefined;
  readonly jwk: Readonly<Record<string, string>>;
  /** The key material alone (type, curve, public members): the same key in two fetched sets has one. */
  readonly fingerprint: string;
}

export type JwkRead =
  | { readonly ok: true; readonly key: VerificationKey }
  | { readonly ok: false; readonly reason: string; readonly secret: boolean };

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k', 'priv'] as const;
const PUBLIC_MEMBERS = { RSA: ['n', 'e'], EC: ['crv', 'x', 'y'], OKP: ['crv', 'x'] } as const;
const CURVES: Readonly<Record<string, readonly string[]>> = {
  EC: ['P-256', 'P-384', 'P-521'],
  OKP: ['Ed25519'],
};

/**
 * FIPS 186-5 §5.4: odd, 2^16 < e < 2^256. Neither Node nor jose checks it, and it matters: under
 * e = 1 a "signature" is the padded digest itself, so anyone can sign; a huge e makes each
 * verification cost as much as a private-key operation.
 */
function isSoundExponent(e: bigint | undefined): boolean {
  return e !== undefined && e % 2n === 1n && e > 2n ** 16n && e < 2n ** 256n;
}

function refused(reason: string, secret = false): JwkRead {
  return { ok: false, reason, secret };
}

export function readJwk(value: unknown, allowed: ReadonlySet<string>): JwkRead {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return refused('is not an object');
  const jwk = value as Record<string, unknown>;
  for (const member of PRIVATE_MEMBERS) {
    if (Object.hasOwn(jwk, member)) return refused(`holds private key material ("${member}")`, true);
  }
  const { kty, kid, use, key_ops: keyOps, alg } = jwk;
  if (kty !== 'RSA' && kty !== 'EC' && kty !== 'OKP') return refused('is not an RSA, EC or OKP public key');
  if (use !== undefined && use !== 'sig') return refused('is not for signatures ("use")');
  if (keyOps !== undefined && (!Array.isArray(keyOps) || !keyOps.includes('verify'))) {
    return refused('is not for verification ("key_ops")');
  }
  if (kid !== undefined && (typeof kid !== 'string' || kid.length === 0 || kid.length > MAX_KID_CHARS)) {
    return refused(`has a "kid" that is not a string of 1 to ${MAX_KID_CHARS} characters`);
  }
  if (
    alg !== undefined &&
    (typeof alg !== 'string' || !allowed.has(alg) || !Object.hasOwn(ALGORITHMS, alg))
  ) {
    return refused('names an algorithm not accepted here ("alg")');
  }
  const crv = typeof jwk['crv'] === 'string' ? jwk['crv'] : undefined;
  const curves = CURVES[kty];
  if (curves !== undefined && (crv === undefined || !curves.includes(crv))) {
    return refused(
      `has a curve not supported here ("crv": ${kty === 'EC' ? 'P-256, P-384, P-521' : 'Ed25519'})`,
    );
  }
  const publicJwk: Record<string, string> = { kty };
  for (const member of PUBLIC_MEMBERS[kty]) {
    const part = jwk[member];
    if (typeof part !== 'string' || part.length === 0) return refused(`lacks "${member}"`);
    publicJwk[member] = part;
  }
  if (alg !== undefined) {
    const needs = ALGORITHMS[alg as Algorithm];
    if (needs.kty !== kty || (needs.crv !== undefined && needs.crv !== crv)) {
      return refused('names an algorithm its type cannot verify ("alg")');
    }
  }
  let details: ReturnType<typeof createPublicKey>['asymmetricKeyDetails'];
  try {
    // Node checks an EC point is on its curve here; jose would not until the first verification.
    details = createPublicKey({ key: publicJwk, format: 'jwk' }).asymmetricKeyDetails;
  } catch {
    return refused('is not a valid public key');
  }
  if (kty === 'RSA') {
    const bits = details?.modulusLength;
    if (bits === undefined || bits < MIN_RSA_BITS)
      return refused(`has an RSA modulus under ${MIN_RSA_BITS} bits`);
    if (bits > MAX_RSA_BITS) return refused(`has an RSA modulus over ${MAX_RSA_BITS} bits`);
    if (!isSoundExponent(details?.publicExponent)) {
      return refused('has an RSA public exponent that is not odd, above 2^16 and below 2^256 (FIPS 186-5)');
    }
  }
  return {
    ok: true,
    key: Object.freeze({
      kid: kid as string | undefined,
      kty,
      crv,
      alg: alg as Algorithm | undefined,
      jwk: Object.freeze(publicJwk),
      fingerprint: Object.values(publicJwk).join('.'),
    }),
  };
}
