/**
 * Finding an issuer's endpoints from its issuer identifier alone: RFC 8414 authorization server
 * metadata first, then OpenID Connect discovery, at the well-known addresses the MCP
 * authorization spec lists in that order. A document is taken only if its `issuer` is exactly
 * ours (RFC 8414 §3.3), so a metadata document served for one issuer cannot name another's keys.
 * Cached like a key set, retried no sooner than the cooldown after a failure.
 */
import { performance } from 'node:perf_hooks';
import { boundedFetch, parseJson } from '../fetch/bounded-fetch.js';
import { discoveredEndpoint } from './discovered-endpoint.js';
import type { CachePolicy } from './key-source.js';

export interface IssuerMetadata {
  readonly jwksUri: URL | undefined;
  readonly introspectionEndpoint: URL | undefined;
}

export type MetadataRead =
  | { readonly ok: true; readonly metadata: IssuerMetadata }
  | { readonly ok: false; readonly reason: string; readonly retryInMs: number };

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

  /** The metadata when it is cached and not yet due again, without fetching. */
  fresh(): IssuerMetadata | undefined {
    return performance.now() - this.#fetchedAt < this.#policy.cacheMaxAgeMs ? this.#metadata : undefined;
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
      if (this.#failure !== undefined) {
        const retryInMs = Math.max(0, this.#attemptedAt + this.#policy.cooldownMs - performance.now());
        return { ok: false, reason: this.#failure, retryInMs };
      }
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
      const jwksUri = discoveredEndpoint(document['jwks_uri'], this.#url);
      const introspection = discoveredEndpoint(document['introspection_endpoint'], this.#url);
      const refused = [jwksUri, introspection].find(
        (found) => found !== undefined && !(found instanceof URL),
      );
      if (refused !== undefined) {
        tried.push(`${url.pathname} ${(refused as { refused: string }).refused}`);
        continue;
      }
      this.#metadata = Object.freeze({
        jwksUri: jwksUri as URL | undefined,
        introspectionEndpoint: introspection as URL | undefined,
      });
      this.#fetchedAt = performance.now();
      this.#failure = undefined;
      return;
    }
    if (performance.now() - this.#fetchedAt >= this.#policy.cacheMaxAgeMs) this.#metadata = undefined;
    this.#failure = `discovery for ${this.#url.origin} failed: ${tried.join('; ')}`;
  }
}
