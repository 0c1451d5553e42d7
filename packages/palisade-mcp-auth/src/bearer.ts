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
import { challenge } from './challenge.js';
import { readCredential } from './credentials.js';
import { Introspector } from './introspection/introspector.js';
import { IssuerDiscovery } from './keys/discovery.js';
import { type KeySource, RemoteKeySource, staticKeySource } from './keys/key-source.js';
import type { BearerOptions, CheckedBearer } from './options.js';
import { checkBearerOptions } from './options.js';
import { RULES, type Rule } from './rules.js';
import { type Operation, operationFromBody, operationFromHeaders } from './scopes/operation.js';
import { covers, dependsOnOperation, neededScopes } from './scopes/scope-policy.js';
import { isCompactJws } from './token/compact.js';
import type { Principal } from './token/principal.js';
import { type JwtPolicy, type Verified, verifyJwt } from './token/verify-jwt.js';
import { TokenCache, tokenDigest } from './token-cache.js';

/** The hooks to hand the server's HTTP handler; `authorizeBody` only when a scope needs the body. */
export interface BearerHooks {
  readonly authorize: (request: AuthorizeRequest) => AuthorizeResult | Promise<AuthorizeResult>;
  readonly authorizeBody?: AuthorizeBody;
}

class DiscoveredKeySource implements KeySource {
  readonly #discovery: IssuerDiscovery;
  readonly #checked: CheckedBearer;
  #remote: RemoteKeySource | undefined;

  constructor(discovery: IssuerDiscovery, checked: CheckedBearer) {
    this.#discovery = discovery;
    this.#checked = checked;
  }

  async lookup(...args: Parameters<KeySource['lookup']>): ReturnType<RemoteKeySource['lookup']> {
    const found = await this.#discovery.metadata();
    if (!found.ok) return { kind: 'unavailable', reason: found.reason };
    const uri = found.metadata.jwksUri;
    if (uri === undefined)
      return { kind: 'unavailable', reason: `${this.#discovery.issuer} publishes no jwks_uri` };
    if (this.#remote?.url.href !== uri.href) {
      this.#remote = new RemoteKeySource(uri, this.#checked.fetch, this.#checked.algorithms);
    }
    return this.#remote.lookup(...args);
  }
}

function keySources(
  checked: CheckedBearer,
  discoveries: ReadonlyMap<string, IssuerDiscovery>,
): Map<string, KeySource> {
  const sources = new Map<string, KeySource>();
  const shared =
    checked.staticKeys !== undefined
      ? staticKeySource(checked.staticKeys)
      : checked.jwksUri !== undefined
        ? new RemoteKeySource(checked.jwksUri, checked.fetch, checked.algorithms)
        : undefined;
  for (const issuer of checked.issuers) {
    const discovery = checked.discovery ? discoveries.get(issuer) : undefined;
    const source =
      shared ?? (discovery === undefined ? undefined : new DiscoveredKeySource(discovery, checked));
    if (source !== undefined) sources.set(issuer, source);
  }
  return sources;
}

export function bearer(options: BearerOptions): BearerHooks {
  const checked = checkBearerOptions(options);
  const discoveries = new Map<string, IssuerDiscovery>();
  const needsDiscovery =
    checked.discovery ||
    (checked.introspection !== undefined && checked.introspection.endpoint === undefined);
  if (needsDiscovery) {
    for (const issuer of checked.issuers) discoveries.set(issuer, new IssuerDiscovery(issuer, checked.fetch));
  }
  const sources = keySources(checked, discoveries);
  const jwtPolicy: JwtPolicy = Object.freeze({
    issuers: new Set(checked.issuers),
    audiences: checked.audiences,
    leewaySeconds: checked.leewaySeconds,
    requireExp: checked.requireExp,
    rfc9068: checked.rfc9068,
    algorithms: checked.algorithms,
    keySources: sources,
  });
  const introspector =
    checked.introspection === undefined
      ? undefined
      : new Introspector(
          checked.introspection,
          discoveries.get(checked.issuers[0] as string),
          checked.fetch,
          jwtPolicy,
          checked.issuers[0],
        );
  const verifiesJwt = sources.size > 0;
  const retryAfter = String(Math.max(1, Math.ceil(checked.fetch.cooldownMs / 1000)));
  const policy = checked.scopes;
  const byBody = dependsOnOperation(policy);
  /** Requests admitted before their body was read, whose scopes the body decides. */
  const awaitingBody = new WeakMap<AuthorizeRequest, Principal>();

  const refuse = (rule: Rule, scopes: readonly string[], reason?: string): AuthorizeResult => {
    const because = reason === undefined ? {} : { reason };
    if (rule.status === 503) {
      return { ok: false, status: 503, rule: rule.rule, headers: { 'retry-after': retryAfter }, ...because };
    }
    // A 403 that is not about scope (a body we could not read) has nothing to challenge for.
    if (rule.status === 403 && rule.error === undefined)
      return { ok: false, status: 403, rule: rule.rule, ...because };
    const header = challenge(rule, checked.resourceMetadataUrl, scopes);
    return {
      ok: false,
      status: rule.status,
      rule: rule.rule,
      headers: { 'www-authenticate': header },
      ...because,
    };
  };

  const verified = checked.tokenCache === 0 ? undefined : new TokenCache<Principal>(checked.tokenCache);

  /**
   * A JWT verified here once is not verified again until it expires (or the key set it was
   * checked against has aged out, whichever is first), so a client repeating its token pays one
   * signature check; only tokens that verified are kept, so forged ones cannot fill the cache.
   */
  const verifyJwtCached = (token: string, now: number): Verified | Promise<Verified> => {
    if (verified === undefined) return verifyJwt(token, jwtPolicy, now);
    const digest = tokenDigest(token);
    const principal = verified.get(digest);
    if (principal !== undefined) return { ok: true, principal };
    return verifyJwt(token, jwtPolicy, now).then((result) => {
      if (result.ok) {
        const exp = result.principal.expiresAt;
        const untilExp =
          exp === undefined ? Number.POSITIVE_INFINITY : (exp + checked.leewaySeconds - now) * 1000;
        verified.set(digest, result.principal, Math.min(untilExp, checked.fetch.cacheMaxAgeMs));
      }
      return result;
    });
  };

  const verify = (token: string): Verified | Promise<Verified> => {
    const now = Math.floor(Date.now() / 1000);
    if (verifiesJwt && (introspector === undefined || isCompactJws(token)))
      return verifyJwtCached(token, now);
    if (introspector !== undefined) return introspector.introspect(token, now);
    return { ok: false, rule: RULES.malformed };
  };

  const judge = (request: AuthorizeRequest, operation: Operation, verified: Verified): AuthorizeResult => {
    if (!verified.ok) {
      const scopes = operation.known
        ? neededScopes(policy, operation.method, operation.name)
        : policy.required;
      return refuse(verified.rule, verified.rule.status === 401 ? scopes : [], verified.reason);
    }
    const { principal } = verified;
    if (operation.known || !byBody) {
      const needed = operation.known
        ? neededScopes(policy, operation.method, operation.name)
        : policy.required;
      if (!covers(policy, principal.scopes, needed)) return refuse(RULES.insufficientScope, needed);
    } else {
      if (!covers(policy, principal.scopes, policy.required))
        return refuse(RULES.insufficientScope, policy.required);
      awaitingBody.set(request, principal);
    }
    return { ok: true, auth: principal };
  };

  const authorize = (request: AuthorizeRequest): AuthorizeResult | Promise<AuthorizeResult> => {
    const operation: Operation = byBody ? operationFromHeaders(request) : { known: false };
    const credential = readCredential(request, checked.maxTokenBytes);
    if (credential.kind === 'refused') {
      const scopes = operation.known
        ? neededScopes(policy, operation.method, operation.name)
        : policy.required;
      return refuse(credential.rule, credential.rule.status === 401 ? scopes : []);
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
    if (!operation.known) return refuse(RULES.bodyUnreadable, []);
    const needed = neededScopes(policy, operation.method, operation.name);
    return covers(policy, principal.scopes, needed) ? { ok: true } : refuse(RULES.insufficientScope, needed);
  };
  return Object.freeze({ authorize, authorizeBody });
}
