/**
 * Finding an issuer's endpoints from its issuer identifier alone: RFC 8414 authorization server
 * metadata first, then OpenID Connect discovery, at the well-known addresses the MCP
 * authorization spec lists in that order. A document is taken only if its `issuer` is exactly
 * ours (RFC 8414 §3.3), so a metadata document served for one issuer cannot name another's keys.
 * Cached like a key set, retried no sooner than the cooldown after a failure.
 */
import { performance } from 'node:perf_hooks';
import { boundedFetch, parseJson } from '../fetch/bounded-fetch.js';
import { isLoopbackHost } from '../resource.js';
import type { CachePolicy } from './key-source.js';

export interface IssuerMetadata {
  readonly jwksUri: URL | undefined;
  readonly introspectionEndpoint: URL | undefined;
}

export type MetadataRead =
  | { readonly ok: true; readonly metadata: IssuerMetadata }
  | { readonly ok: false; readonly reason: string };

/** The addresses to try, in the MCP spec's order (2025-11-25 §Authorization Server Metadata Discovery). */
export function discoveryUrls(issuer: URL): URL[] {
  const path = issuer.pathname === '/' ? '' : issuer.pathname.replace(/\/$/, '');
  const at = (suffix: string): URL => new URL(`${issuer.origin}${suffix}`);
  return path === ''
    ? [at('/.well-known/oauth-authorization-server'), at('/.well-known/openid-configuration')]
    : [
        at(`/.well-known/oauth-authorization-server${path}`),
        at(`/.well-known/openid-configuration${path}`),
        at(`${path}/.well-known/openid-configuration`),
      ];
}

/** An endpoint a metadata document names: https, or http on loopback when the issuer is loopback too. */
function endpoint(value: unknown, issuer: URL): URL | undefined | 'invalid' {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') return 'invalid';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'invalid';
  }
  if (url.username !== '' || url.password !== '') return 'invalid';
  if (url.protocol === 'https:') return url;
  return url.protocol === 'http:' && isLoopbackHost(url.hostname) && isLoopbackHost(issuer.hostname)
    ? url
    : 'invalid';
}

export class IssuerDiscovery {
  readonly issuer: string;
  readonly #url: URL;
  readonly #policy: CachePolicy;
  #metadata: IssuerMetadata | undefined;
  #fetchedAt = Number.NEGATIVE_INFINITY;
  #attemptedAt = Number.NEGATIVE_INFINITY;
  #failure: string | undefined;
  #inflight: Promise<void> | undefined;

  constructor(issuer: string, policy: CachePolicy) {
    this.issuer = issuer;
    this.#url = new URL(issuer);
    this.#policy = policy;
  }

  async metadata(): Promise<MetadataRead> {
    if (this.#metadata === undefined || performance.now() - this.#fetchedAt >= this.#policy.cacheMaxAgeMs) {
      if (this.#inflight === undefined) {
        const now = performance.now();
        if (this.#failure === undefined || now - this.#attemptedAt >= this.#policy.cooldownMs) {
          this.#attemptedAt = now;
          this.#inflight = this.#discover().finally(() => {
            this.#inflight = undefined;
          });
        }
      }
      if (this.#inflight !== undefined) await this.#inflight;
      if (this.#failure !== undefined) return { ok: false, reason: this.#failure };
    }
    return { ok: true, metadata: this.#metadata as IssuerMetadata };
  }

  async #discover(): Promise<void> {
    const tried: string[] = [];
    for (const url of discoveryUrls(this.#url)) {
      const fetched = await boundedFetch(url, this.#policy, { accept: ['application/json'] });
      if (!fetched.ok) {
        tried.push(`${url.pathname} ${fetched.reason}`);
        // Only an answer that is not a document sends us to the next address; an address that
        // does not answer in time would make each next try wait as long again.
        if (fetched.answered) continue;
        break;
      }
      const document = parseJson(fetched.body) as Record<string, unknown> | undefined;
      if (typeof document !== 'object' || document === null || Array.isArray(document)) {
        tried.push(`${url.pathname} is not a JSON object`);
        continue;
      }
      if (document['issuer'] !== this.issuer) {
        tried.push(`${url.pathname} names another issuer`);
        continue;
      }
      const jwksUri = endpoint(document['jwks_uri'], this.#url);
      const introspection = endpoint(document['introspection_endpoint'], this.#url);
      if (jwksUri === 'invalid' || introspection === 'invalid') {
        tried.push(`${url.pathname} names an endpoint that is not https`);
        continue;
      }
      this.#metadata = Object.freeze({ jwksUri, introspectionEndpoint: introspection });
      this.#fetchedAt = performance.now();
      this.#failure = undefined;
      return;
    }
    if (performance.now() - this.#fetchedAt >= this.#policy.cacheMaxAgeMs) this.#metadata = undefined;
    this.#failure = `discovery for ${this.#url.origin} failed: ${tried.join('; ')}`;
  }
}
