/**
 * `bearer(options)`: the server's `authorize` hook for OAuth 2.1 bearer tokens, the same for the
 * `node:http` handler and the fetch handler. It reads one `Authorization: Bearer` header, verifies
 * the token (a JWT here, or an opaque token by the issuer's introspection endpoint), checks the
 * scopes the request needs, and admits with the frozen principal as `ctx.auth`. Every refusal is
 * an answer: its status, its challenge, and its rule name, which the server logs and publishes.
 *
 * When a scope depends on the tool, prompt or resource a request names and its headers do not say
 * which (a 2025-11-25 client sends no `Mcp-Method`), the decision waits for the body: the returned
 * `authorizeBody` makes it, and must be passed to the handler beside `authorize` (spread the
 * result: `createHttpHandler(server, { ...bearer(options), allowedOrigins, allowedHosts })`).
 */
import type { AuthorizeBody, AuthorizeRequest, AuthorizeResult } from 'palisade-mcp/http';
import { readCredential } from './credentials.js';
import { Introspector } from './introspection/introspector.js';
import { IssuerDiscovery } from './keys/discovery.js';
import { issuerKeySources } from './keys/issuer-sources.js';
import type { BearerOptions } from './options.js';
import { checkBearerOptions } from './options.js';
import { type RefusalContext, refusal } from './refusal.js';
import { RULES } from './rules.js';
import { type Operation, operationFromBody, operationFromHeaders } from './scopes/operation.js';
import { covers, dependsOnOperation, neededScopes } from './scopes/scope-policy.js';
import { cachedVerifier } from './token/cached-verifier.js';
import { isCompactJws } from './token/compact.js';
import type { Principal } from './token/principal.js';
import type { JwtPolicy, Verified } from './token/verify-jwt.js';

/** The hooks to hand the server's HTTP handler; `authorizeBody` only when a scope needs the body. */
export interface BearerHooks {
  readonly authorize: (request: AuthorizeRequest) => AuthorizeResult | Promise<AuthorizeResult>;
  readonly authorizeBody?: AuthorizeBody;
}

export function bearer(options: BearerOptions): BearerHooks {
  const checked = checkBearerOptions(options);
  const discoveries = new Map<string, IssuerDiscovery>();
  if (
    checked.discovery ||
    (checked.introspection !== undefined && checked.introspection.endpoint === undefined)
  ) {
    for (const issuer of checked.issuers) discoveries.set(issuer, new IssuerDiscovery(issuer, checked.fetch));
  }
  const keySources = issuerKeySources(checked, discoveries);
  const jwtPolicy: JwtPolicy = Object.freeze({
    issuers: new Set(checked.issuers),
    audiences: checked.audiences,
    leewaySeconds: checked.leewaySeconds,
    requireExp: checked.requireExp,
    rfc9068: checked.rfc9068,
    algorithms: checked.algorithms,
    keySources,
  });
  const verifyJwt =
    keySources.size === 0
      ? undefined
      : cachedVerifier(jwtPolicy, checked.tokenCache, checked.fetch.cacheMaxAgeMs);
  const first = checked.issuers[0] as string;
  const introspector =
    checked.introspection === undefined
      ? undefined
      : new Introspector(checked.introspection, discoveries.get(first), checked.fetch, jwtPolicy, first);
  const context: RefusalContext = { resourceMetadataUrl: checked.resourceMetadataUrl };
  const policy = checked.scopes;
  const byBody = dependsOnOperation(policy);
  /** Requests admitted before their body was read, whose scopes the body decides. */
  const awaitingBody = new WeakMap<AuthorizeRequest, Principal>();

  /** The scopes an operation needs; when it is not known yet, those every request needs. */
  const scopesFor = (operation: Operation): readonly string[] =>
    operation.known ? neededScopes(policy, operation.method, operation.name) : policy.required;

  const verify = (token: string): Verified | Promise<Verified> => {
    const now = Math.floor(Date.now() / 1000);
    if (verifyJwt !== undefined && (introspector === undefined || isCompactJws(token)))
      return verifyJwt(token, now);
    if (introspector !== undefined) return introspector.introspect(token, now);
    return { ok: false, rule: RULES.malformed };
  };

  const judge = (request: AuthorizeRequest, operation: Operation, verified: Verified): AuthorizeResult => {
    if (!verified.ok) {
      const { rule, reason, retryInMs } = verified;
      return refusal(context, rule, rule.status === 401 ? scopesFor(operation) : [], reason, retryInMs);
    }
    const { principal } = verified;
    const needed = scopesFor(operation);
    if (!covers(policy, principal.scopes, needed)) return refusal(context, RULES.insufficientScope, needed);
    if (!operation.known && byBody) awaitingBody.set(request, principal);
    return { ok: true, auth: principal };
  };

  const authorize = (request: AuthorizeRequest): AuthorizeResult | Promise<AuthorizeResult> => {
    const operation: Operation = byBody ? operationFromHeaders(request) : { known: false };
    const credential = readCredential(request, checked.maxTokenBytes);
    if (credential.kind === 'refused') {
      const { rule } = credential;
      return refusal(context, rule, rule.status === 401 ? scopesFor(operation) : []);
    }
    const verified = verify(credential.token);
    return verified instanceof Promise
      ? verified.then((settled) => judge(request, operation, settled))
      : judge(request, operation, verified);
  };

  if (!byBody) return Object.freeze({ authorize });

  const authorizeBody: AuthorizeBody = (request, bytes) => {
    const principal = awaitingBody.get(request);
    if (principal === undefined) return { ok: true };
    awaitingBody.delete(request);
    const operation = operationFromBody(bytes);
    if (!operation.known) return refusal(context, RULES.bodyUnreadable, []);
    const needed = neededScopes(policy, operation.method, operation.name);
    return covers(policy, principal.scopes, needed)
      ? { ok: true }
      : refusal(context, RULES.insufficientScope, needed);
  };
  return Object.freeze({ authorize, authorizeBody });
}
