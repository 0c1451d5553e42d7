/**
 * Each accepted issuer's key source: the host's static set or its `jwksUri` (shared by every
 * issuer), else the JWKS the issuer's metadata names (found by discovery, and followed if the
 * metadata later names another).
 */
import type { CheckedBearer } from '../options.js';
import type { Algorithm } from '../token/algorithms.js';
import type { IssuerDiscovery } from './discovery.js';
import type { KeySet } from './key-set.js';
import { type KeyLookup, type KeySource, RemoteKeySource, staticKeySource } from './key-source.js';

class DiscoveredKeySource implements KeySource {
  readonly #discovery: IssuerDiscovery;
  readonly #checked: CheckedBearer;
  #remote: RemoteKeySource | undefined;

  constructor(discovery: IssuerDiscovery, checked: CheckedBearer) {
    this.#discovery = discovery;
    this.#checked = checked;
  }

  fresh(): KeySet | undefined {
    const metadata = this.#discovery.fresh();
    // Metadata due again may name another jwks_uri: only a lookup can say which keys apply then.
    if (metadata?.jwksUri === undefined || this.#remote?.url.href !== metadata.jwksUri.href) return undefined;
    return this.#remote.fresh();
  }

  async lookup(alg: Algorithm, kid: string | undefined): Promise<KeyLookup> {
    const found = await this.#discovery.metadata();
    if (!found.ok) return { kind: 'unavailable', reason: found.reason, retryInMs: found.retryInMs };
    const uri = found.metadata.jwksUri;
    if (uri === undefined)
      return {
        kind: 'unavailable',
        reason: `${this.#discovery.issuer} publishes no jwks_uri`,
        retryInMs: this.#checked.fetch.cooldownMs,
      };
    if (this.#remote?.url.href !== uri.href) {
      this.#remote = new RemoteKeySource(uri, this.#checked.fetch, this.#checked.algorithms);
    }
    return this.#remote.lookup(alg, kid);
  }
}

/** Issuer to key source; empty when tokens are only introspected. */
export function issuerKeySources(
  checked: CheckedBearer,
  discoveries: ReadonlyMap<string, IssuerDiscovery>,
): ReadonlyMap<string, KeySource> {
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
