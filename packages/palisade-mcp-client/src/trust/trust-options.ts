/**
 * The trust boundary and target policy options every transport takes, checked once and turned
 * into the objects that enforce them. Defaults: loopback names trusted, every other origin
 * stripped and denied, consent cached 24 h, no private host allowed, the system resolver.
 */
import { invalidOption } from '../errors.js';
import { DEFAULT_CONSENT_TTL_MS } from '../limits.js';
import type { Resolver, TargetPolicy } from '../net/target-policy.js';
import { systemResolver } from '../net/target-policy.js';
import { optionalFunction, positiveInteger, stringList } from '../options.js';
import { CREDENTIAL_HEADERS, processWarning, TrustBoundary, type WarningSink } from './boundary.js';
import { ConsentCache, type ConsentHandler, denyAll } from './consent.js';
import { DEFAULT_TRUSTED_ORIGINS, originMatcher } from './origins.js';

export interface TrustOptions {
  /** Origins exempt from stripping and consent. Default `['localhost', '127.0.0.1', '::1']`. */
  readonly trustedOrigins?: readonly string[];
  /** Asked about any other origin. Default: deny. */
  readonly consent?: ConsentHandler;
  /** How long `'allow'` lasts, in ms. Default 86,400,000 (24 h). */
  readonly consentTtlMs?: number;
  /** Header names stripped for undeclared origins, besides authorization, cookie, x-api-key, x-auth-token, x-csrf-token. */
  readonly credentialHeaders?: readonly string[];
  /** Exact host names whose private (RFC 1918, unique-local, shared) answers an undeclared origin may reach. */
  readonly allowPrivateHosts?: readonly string[];
  /** Resolves host names for the target policy. Default: the system resolver. */
  readonly resolver?: Resolver;
  /** Where warnings go (a strip, a block, an unverified TLS connection). Default: process.emitWarning. */
  readonly onWarning?: WarningSink;
}

export const TRUST_KEYS = [
  'trustedOrigins',
  'consent',
  'consentTtlMs',
  'credentialHeaders',
  'allowPrivateHosts',
  'resolver',
  'onWarning',
] as const;

export interface Trust {
  readonly boundary: TrustBoundary;
  readonly policy: TargetPolicy;
  readonly resolver: Resolver;
  readonly warn: WarningSink;
}

export function readTrust(options: Readonly<Record<string, unknown>>): Trust {
  const trusted = stringList(options['trustedOrigins'], 'trustedOrigins') ?? DEFAULT_TRUSTED_ORIGINS;
  const consent = optionalFunction<ConsentHandler>(options['consent'], 'consent') ?? denyAll;
  const ttl = positiveInteger(
    options['consentTtlMs'],
    'consentTtlMs',
    DEFAULT_CONSENT_TTL_MS,
    365 * 86_400_000,
  );
  const extra = stringList(options['credentialHeaders'], 'credentialHeaders') ?? [];
  for (const [index, name] of extra.entries()) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      throw invalidOption(`credentialHeaders[${index}]`, 'is not a header name');
  }
  const privateHosts = stringList(options['allowPrivateHosts'], 'allowPrivateHosts') ?? [];
  for (const [index, host] of privateHosts.entries()) {
    if (!/^[a-z0-9.-]+$/i.test(host) || host.startsWith('*')) {
      throw invalidOption(`allowPrivateHosts[${index}]`, 'must be an exact host name (no wildcard, no URL)');
    }
  }
  const resolver = optionalFunction<Resolver>(options['resolver'], 'resolver') ?? systemResolver;
  const warn = optionalFunction<WarningSink>(options['onWarning'], 'onWarning') ?? processWarning;
  const boundary = new TrustBoundary({
    matcher: originMatcher(trusted),
    consent: new ConsentCache(consent, ttl),
    credentialHeaders: [...CREDENTIAL_HEADERS, ...extra],
    warn,
  });
  return {
    boundary,
    policy: { allowPrivateHosts: new Set(privateHosts.map((host) => host.toLowerCase())) },
    resolver,
    warn,
  };
}
