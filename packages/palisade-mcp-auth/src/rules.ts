/**
 * Every refusal `bearer()` answers, worded once. The rule is the refusal's stable name: it is
 * what the server logs and publishes on its refusal channel (`palisade:http-refusal`), and what
 * a host matches on. The description is fixed text, the only words a client is sent: never a
 * byte of the token, never a library's exception message.
 */

/** The RFC 6750 §3.1 error code a challenge carries; `undefined` sends a challenge without one. */
export type ChallengeError = 'invalid_request' | 'invalid_token' | 'insufficient_scope';

export interface Rule {
  readonly rule: string;
  readonly status: 400 | 401 | 403 | 503;
  readonly error: ChallengeError | undefined;
  readonly description: string | undefined;
}

function rule(
  name: string,
  status: Rule['status'],
  error: ChallengeError | undefined,
  description: string | undefined,
): Rule {
  return Object.freeze({ rule: name, status, error, description });
}

const invalidToken = (name: string, description: string): Rule =>
  rule(name, 401, 'invalid_token', description);
const invalidRequest = (name: string, description: string): Rule =>
  rule(name, 400, 'invalid_request', description);

export const RULES = Object.freeze({
  // RFC 6750 §3.1: a request with no credentials gets a challenge without an error code.
  missing: rule('bearer-missing', 401, undefined, undefined),
  otherScheme: rule('bearer-other-scheme', 401, undefined, undefined),
  headerRepeated: invalidRequest('bearer-header-repeated', 'Send exactly one Authorization header'),
  headerMalformed: invalidRequest(
    'bearer-header-malformed',
    'The Authorization header is not a Bearer token',
  ),
  // RFC 6750 §2: one method per request; MCP allows only the header (2025-11-25 §Token Requirements).
  tokenInQuery: invalidRequest(
    'bearer-token-in-query',
    'Send the access token in the Authorization header only',
  ),
  tooLarge: invalidToken('bearer-token-too-large', 'The access token is too large'),
  malformed: invalidToken('bearer-malformed', 'The access token is malformed'),
  algorithm: invalidToken(
    'bearer-alg-refused',
    'The access token is signed with an algorithm not accepted here',
  ),
  embeddedKey: invalidToken('bearer-embedded-key', 'The access token carries or points to its own key'),
  crit: invalidToken('bearer-crit-unknown', 'The access token requires an extension not supported here'),
  type: invalidToken('bearer-typ', 'The token is not a JWT access token'),
  keyUnknown: invalidToken('bearer-key-unknown', 'The access token is signed with an unknown key'),
  keyAmbiguous: invalidToken('bearer-key-ambiguous', 'The access token names no key and several could apply'),
  signature: invalidToken('bearer-signature', 'The access token signature does not verify'),
  expMissing: invalidToken('bearer-exp-missing', 'The access token has no expiry'),
  claimType: invalidToken('bearer-claim-type', 'The access token has a claim of the wrong type'),
  expired: invalidToken('bearer-expired', 'The access token expired'),
  notYetValid: invalidToken('bearer-not-yet-valid', 'The access token is not valid yet'),
  issuedInFuture: invalidToken('bearer-issued-in-future', 'The access token was issued in the future'),
  issuer: invalidToken('bearer-issuer', 'The access token was issued by another server'),
  audience: invalidToken('bearer-audience', 'The access token was not issued for this resource'),
  claimsMissing: invalidToken('bearer-claims-missing', 'The access token lacks a claim its profile requires'),
  inactive: invalidToken('bearer-inactive', 'The access token is not active'),
  // RFC 9449 §7.1 / RFC 8705 §3: a token bound to a key (`cnf`) proves nothing as a bearer token.
  senderConstrained: invalidToken(
    'bearer-sender-constrained',
    'The access token is bound to a key and is not a bearer token',
  ),
  insufficientScope: rule(
    'bearer-insufficient-scope',
    403,
    'insufficient_scope',
    'The access token lacks a scope this request needs',
  ),
  // Read after the token was admitted, to find the method a scope depends on; the server's own
  // reader would refuse the same body.
  bodyUnreadable: rule('bearer-body-unreadable', 403, undefined, undefined),
  // The verifier could not decide: failing closed, and never blaming a token that may be good.
  keySourceUnavailable: rule('bearer-key-source-unavailable', 503, undefined, undefined),
  introspectionUnavailable: rule('bearer-introspection-unavailable', 503, undefined, undefined),
  introspectionBusy: rule('bearer-introspection-busy', 503, undefined, undefined),
}) satisfies Readonly<Record<string, Rule>>;

export type RuleName = (typeof RULES)[keyof typeof RULES]['rule'];
