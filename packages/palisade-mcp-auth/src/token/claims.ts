/**
 * The claims of a token, judged the same way whether they came signed in a JWT or from an
 * introspection answer: times as numbers with the leeway, the issuer, the audience, and what an
 * RFC 9068 profile requires. Each failure is its own rule, checked in a fixed order.
 */
import { RULES, type Rule } from '../rules.js';

export interface ClaimPolicy {
  /** Exact issuer identifiers (RFC 8414 §3.3: compared as strings). */
  readonly issuers: ReadonlySet<string>;
  /** Accepted audiences: by default the resource's canonical URI alone. */
  readonly audiences: ReadonlySet<string>;
  readonly leewaySeconds: number;
  readonly requireExp: boolean;
  /** RFC 9068 §2.2: `iss`, `exp`, `aud`, `sub`, `client_id`, `iat` and `jti` are all required. */
  readonly rfc9068: boolean;
}

export type ClaimsRead = { readonly ok: true } | { readonly ok: false; readonly rule: Rule };

const RFC9068_CLAIMS = ['iss', 'exp', 'aud', 'sub', 'client_id', 'iat', 'jti'] as const;

const fail = (rule: Rule): ClaimsRead => ({ ok: false, rule });

/** A JSON number that is a time: finite (JSON has no NaN, but a parsed object may come from elsewhere). */
function isTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/**
 * `issuerRequired`: a JWT must name one of our issuers (its issuer also picks the key source);
 * an introspection answer may leave `iss` out (RFC 7662 §2.2), but one it names must be ours.
 */
export function checkClaims(
  claims: Readonly<Record<string, unknown>>,
  policy: ClaimPolicy,
  nowSeconds: number,
  issuerRequired: boolean,
): ClaimsRead {
  const { exp, nbf, iat, iss, aud } = claims;
  if (exp === undefined) {
    if (policy.requireExp || policy.rfc9068) return fail(RULES.expMissing);
  } else if (!isTime(exp)) {
    return fail(RULES.claimType);
  }
  if ((nbf !== undefined && !isTime(nbf)) || (iat !== undefined && !isTime(iat)))
    return fail(RULES.claimType);
  const leeway = policy.leewaySeconds;
  // RFC 7519 §4.1.4: the token is good *before* exp; the leeway widens that window by its seconds.
  if (exp !== undefined && nowSeconds >= (exp as number) + leeway) return fail(RULES.expired);
  if (nbf !== undefined && nowSeconds < (nbf as number) - leeway) return fail(RULES.notYetValid);
  if (iat !== undefined && (iat as number) > nowSeconds + leeway) return fail(RULES.issuedInFuture);
  if (iss !== undefined || issuerRequired) {
    if (typeof iss !== 'string' || !policy.issuers.has(iss)) return fail(RULES.issuer);
  }
  if (!audienceMatches(aud, policy.audiences)) return fail(RULES.audience);
  // Whoever presents a key-bound token must prove the key (DPoP, mTLS); as a bearer token anyone
  // holding it could use it, which is what the binding exists to prevent.
  if (claims['cnf'] !== undefined) return fail(RULES.senderConstrained);
  for (const name of ['sub', 'client_id', 'jti'] as const) {
    const value = claims[name];
    if (value !== undefined && typeof value !== 'string') return fail(RULES.claimType);
  }
  if (policy.rfc9068) {
    for (const name of RFC9068_CLAIMS) {
      if (claims[name] === undefined) return fail(RULES.claimsMissing);
    }
  }
  return { ok: true };
}

/** `aud` is a string or an array of strings (RFC 7519 §4.1.3); one of them must be ours. */
export function audienceMatches(aud: unknown, accepted: ReadonlySet<string>): boolean {
  if (typeof aud === 'string') return accepted.has(aud);
  if (!Array.isArray(aud)) return false;
  let matched = false;
  for (const entry of aud) {
    if (typeof entry !== 'string') return false;
    if (accepted.has(entry)) matched = true;
  }
  return matched;
}

/** The `typ` RFC 9068 §2.1 gives a JWT access token; `application/` may be left out (RFC 7515 §4.1.9). */
export function isAccessTokenType(typ: string | undefined): boolean {
  if (typ === undefined) return false;
  const lowered = typ.toLowerCase();
  return lowered === 'at+jwt' || lowered === 'application/at+jwt';
}
