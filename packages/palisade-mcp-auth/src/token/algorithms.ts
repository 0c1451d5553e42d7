/**
 * The signing algorithms a token may use: asymmetric only. With an HMAC algorithm the verifier's
 * key is the signer's secret, and a verifier handed an RSA public key as an "HMAC secret" accepts
 * a token anyone can sign with that public key (key confusion); `none` is no signature at all.
 * Neither is accepted even when a host's `algorithms` option names it: that is a construction error.
 */

/** Every algorithm `bearer()` verifies, by the key type and curve it needs. */
export const ALGORITHMS = Object.freeze({
  RS256: { kty: 'RSA', crv: undefined },
  RS384: { kty: 'RSA', crv: undefined },
  RS512: { kty: 'RSA', crv: undefined },
  PS256: { kty: 'RSA', crv: undefined },
  PS384: { kty: 'RSA', crv: undefined },
  PS512: { kty: 'RSA', crv: undefined },
  ES256: { kty: 'EC', crv: 'P-256' },
  ES384: { kty: 'EC', crv: 'P-384' },
  ES512: { kty: 'EC', crv: 'P-521' },
  // RFC 8037's name and RFC 9864's fully-specified one for the same Ed25519 signature.
  EdDSA: { kty: 'OKP', crv: 'Ed25519' },
  Ed25519: { kty: 'OKP', crv: 'Ed25519' },
} as const);

export type Algorithm = keyof typeof ALGORITHMS;

export const ALGORITHM_NAMES: readonly Algorithm[] = Object.freeze(Object.keys(ALGORITHMS) as Algorithm[]);

/** Names that are never accepted, named in the construction error so the refusal explains itself. */
export function isRefusedByDesign(name: string): boolean {
  return name === 'none' || /^HS\d+$/i.test(name);
}

export function isAllowedAlgorithm(name: string, allowed: ReadonlySet<string>): name is Algorithm {
  return allowed.has(name) && Object.hasOwn(ALGORITHMS, name);
}

/** Whether a key of this type and curve can check a signature of `alg`. */
export function keyFits(alg: Algorithm, kty: string, crv: string | undefined): boolean {
  const needs = ALGORITHMS[alg];
  return needs.kty === kty && (needs.crv === undefined || needs.crv === crv);
}
