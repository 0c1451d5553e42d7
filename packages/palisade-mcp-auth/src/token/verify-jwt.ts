/**
 * One JWT access token, verified: shape and header (no key named by the token, no unknown
 * extension, an allowed algorithm), the claims (checked before any key is looked up, so an
 * expired or foreign token costs no fetch and no signature check), the key from the issuer's
 * source, and the signature by `jose` against that key and that algorithm only.
 */
import { compactVerify } from 'jose';
import type { KeySource } from '../keys/key-source.js';
import { RULES, type Rule } from '../rules.js';
import type { Algorithm } from './algorithms.js';
import { type ClaimPolicy, checkClaims, isAccessTokenType } from './claims.js';
import { decodeJsonSegment, readHeader } from './compact.js';
import { type Principal, principalOf, scopesOf } from './principal.js';

export interface JwtPolicy extends ClaimPolicy {
  readonly algorithms: ReadonlySet<string>;
  /** The key source of each accepted issuer. */
  readonly keySources: ReadonlyMap<string, KeySource>;
}

/** Which key admitted a JWT, for the cache of verified tokens to ask again whether it still may. */
export interface KeyUse {
  readonly source: KeySource;
  readonly alg: Algorithm;
  readonly kid: string | undefined;
  readonly fingerprint: string;
}

export type Verified =
  | { readonly ok: true; readonly principal: Principal; readonly via?: KeyUse }
  | {
      readonly ok: false;
      readonly rule: Rule;
      readonly reason?: string;
      /** For a 503: how long until the source that failed is asked again (`Retry-After`). */
      readonly retryInMs?: number;
    };

const refuse = (rule: Rule, reason?: string): Verified =>
  reason === undefined ? { ok: false, rule } : { ok: false, rule, reason };

export async function verifyJwt(token: string, policy: JwtPolicy, nowSeconds: number): Promise<Verified> {
  const read = readHeader(token, policy.algorithms);
  if (!read.ok) return refuse(read.rule);
  const { header } = read;
  if (policy.rfc9068 && !isAccessTokenType(header.typ)) return refuse(RULES.type);
  const first = token.indexOf('.');
  const second = token.indexOf('.', first + 1);
  const claims = decodeJsonSegment(token.slice(first + 1, second));
  if (claims === undefined) return refuse(RULES.malformed);
  if (second === token.length - 1) return refuse(RULES.signature);
  const judged = checkClaims(claims, policy, nowSeconds, true);
  if (!judged.ok) return refuse(judged.rule);
  const scopes = scopesOf(claims);
  if (scopes === undefined) return refuse(RULES.claimType);
  // checkClaims held `iss` to the accepted issuers, each of which has a source.
  const source = policy.keySources.get(claims['iss'] as string) as KeySource;
  const lookup = await source.lookup(header.alg, header.kid);
  switch (lookup.kind) {
    case 'unknown':
      return refuse(RULES.keyUnknown);
    case 'ambiguous':
      return refuse(
        RULES.keyAmbiguous,
        header.kid === undefined
          ? 'the token names no kid and several keys fit its algorithm'
          : 'the key set holds several keys under the token’s kid that fit its algorithm',
      );
    case 'unavailable':
      return {
        ok: false,
        rule: RULES.keySourceUnavailable,
        reason: lookup.reason,
        retryInMs: lookup.retryInMs,
      };
  }
  try {
    await compactVerify(token, lookup.key.jwk, { algorithms: [header.alg] });
  } catch {
    // jose's message is not ours to pass on; which check failed is the rule's to say.
    return refuse(RULES.signature);
  }
  return {
    ok: true,
    principal: principalOf(claims, scopes, 'jwt', undefined),
    via: { source, alg: header.alg, kid: header.kid, fingerprint: lookup.key.fingerprint },
  };
}
