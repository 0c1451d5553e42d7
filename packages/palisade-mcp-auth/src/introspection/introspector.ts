/**
 * Opaque tokens, judged by the issuer (RFC 7662): the token is posted to the introspection
 * endpoint with this server's client credentials, under the same bounds as a key fetch, and the
 * answer's claims are then held to the same rules as a JWT's. Answers are cached by the token's
 * SHA-256 for at most `cacheTtlMs` and never past the token's `exp`, so a flood of one token costs
 * the issuer one request; at most `MAX_CONCURRENT_INTROSPECTIONS` are in flight, and the same
 * token asked twice at once is asked once.
 */

import { boundedFetch, parseJson } from '../fetch/bounded-fetch.js';
import type { IssuerDiscovery } from '../keys/discovery.js';
import type { CachePolicy } from '../keys/key-source.js';
import { MAX_CONCURRENT_INTROSPECTIONS, MAX_TOKEN_CACHE_ENTRIES } from '../limits.js';
import { RULES } from '../rules.js';
import { type ClaimPolicy, checkClaims } from '../token/claims.js';
import { principalOf, scopesOf } from '../token/principal.js';
import type { Verified } from '../token/verify-jwt.js';
import { TokenCache, tokenDigest } from '../token-cache.js';

export type ClientAuth = 'client_secret_basic' | 'client_secret_post';

export interface IntrospectionConfig {
  /** Given, or found by discovery of the (first) issuer. */
  readonly endpoint: URL | undefined;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly clientAuth: ClientAuth;
  readonly cacheTtlMs: number;
}

/** RFC 6749 §2.3.1: client id and secret are form-encoded before they are joined for Basic. */
function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}

export class Introspector {
  readonly #config: IntrospectionConfig;
  readonly #discovery: IssuerDiscovery | undefined;
  readonly #fetchPolicy: CachePolicy;
  readonly #claims: ClaimPolicy;
  readonly #issuer: string | undefined;
  readonly #cache = new TokenCache<Verified>(MAX_TOKEN_CACHE_ENTRIES);
  readonly #inflight = new Map<string, Promise<Verified>>();

  constructor(
    config: IntrospectionConfig,
    discovery: IssuerDiscovery | undefined,
    fetchPolicy: CachePolicy,
    claims: ClaimPolicy,
    issuer: string | undefined,
  ) {
    this.#config = config;
    this.#discovery = discovery;
    this.#fetchPolicy = fetchPolicy;
    this.#claims = claims;
    this.#issuer = issuer;
  }

  introspect(token: string, nowSeconds: number): Verified | Promise<Verified> {
    const digest = tokenDigest(token);
    const cached = this.#cache.get(digest);
    if (cached !== undefined) {
      // Judged on the wall clock, as `exp` is: the cache's own TTL runs on the monotonic one.
      const exp = cached.ok ? cached.principal.expiresAt : undefined;
      if (exp === undefined || nowSeconds < exp) return cached;
      this.#cache.delete(digest);
    }
    const pending = this.#inflight.get(digest);
    if (pending !== undefined) return pending;
    // Busy for as long as one introspection takes: the next may be asked at once.
    if (this.#inflight.size >= MAX_CONCURRENT_INTROSPECTIONS)
      return { ok: false, rule: RULES.introspectionBusy, retryInMs: 0 };
    const asked = this.#ask(token, digest, nowSeconds).finally(() => {
      this.#inflight.delete(digest);
    });
    this.#inflight.set(digest, asked);
    return asked;
  }

  async #ask(token: string, digest: string, nowSeconds: number): Promise<Verified> {
    let endpoint = this.#config.endpoint;
    if (endpoint === undefined) {
      const found = await (this.#discovery as IssuerDiscovery).metadata();
      if (!found.ok) {
        const { reason, retryInMs } = found;
        return { ok: false, rule: RULES.introspectionUnavailable, reason, retryInMs };
      }
      endpoint = found.metadata.introspectionEndpoint;
      if (endpoint === undefined) {
        return {
          ok: false,
          rule: RULES.introspectionUnavailable,
          reason: 'the issuer metadata names no introspection_endpoint',
        };
      }
    }
    const { clientId, clientSecret, clientAuth } = this.#config;
    const form = new URLSearchParams({ token, token_type_hint: 'access_token' });
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    if (clientAuth === 'client_secret_post') {
      form.set('client_id', clientId);
      form.set('client_secret', clientSecret);
    } else {
      const pair = `${formEncode(clientId)}:${formEncode(clientSecret)}`;
      headers['authorization'] = `Basic ${Buffer.from(pair).toString('base64')}`;
    }
    const fetched = await boundedFetch(endpoint, this.#fetchPolicy, {
      method: 'POST',
      headers,
      body: form.toString(),
      accept: ['application/json'],
    });
    // A failed introspection is not rationed: the next request asks again at once.
    if (!fetched.ok) {
      return {
        ok: false,
        rule: RULES.introspectionUnavailable,
        reason: `introspection at ${endpoint.origin} ${fetched.reason}`,
        retryInMs: 0,
      };
    }
    const answer = parseJson(fetched.body);
    if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) {
      return {
        ok: false,
        rule: RULES.introspectionUnavailable,
        reason: `introspection at ${endpoint.origin} answered something other than a JSON object`,
      };
    }
    const verdict = this.#judge(answer as Record<string, unknown>, nowSeconds);
    const exp = (answer as Record<string, unknown>)['exp'];
    const untilExp = typeof exp === 'number' ? exp * 1000 - Date.now() : Number.POSITIVE_INFINITY;
    this.#cache.set(digest, verdict, Math.min(this.#config.cacheTtlMs, untilExp));
    return verdict;
  }

  #judge(claims: Record<string, unknown>, nowSeconds: number): Verified {
    // RFC 7662 §2.2: `active` is the one required member; anything but `true` is inactive.
    if (claims['active'] !== true) return { ok: false, rule: RULES.inactive };
    const type = claims['token_type'];
    if (type !== undefined && (typeof type !== 'string' || type.toLowerCase() !== 'bearer')) {
      return { ok: false, rule: RULES.type };
    }
    const judged = checkClaims(claims, this.#claims, nowSeconds, false);
    if (!judged.ok) return { ok: false, rule: judged.rule };
    const scopes = scopesOf(claims);
    if (scopes === undefined) return { ok: false, rule: RULES.claimType };
    const { active: _active, ...rest } = claims;
    return { ok: true, principal: principalOf(rest, scopes, 'introspection', this.#issuer) };
  }
}
