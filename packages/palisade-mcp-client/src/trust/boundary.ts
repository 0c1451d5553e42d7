/**
 * The outbound trust boundary, on every request the client makes (the JSON-RPC POSTs, the GET
 * stream, the DELETE, every OAuth discovery, registration and token request) and on the URI of a
 * `resources/read` sent over stdio. A declared origin passes untouched. Any other origin first
 * loses its credential headers (a token issued for one origin never reaches another), then needs
 * the host's consent. Each strip and each block is reported once per origin with the exact
 * option that would allow it, so the failure is loud rather than a silent 401.
 */
import { ClientError } from '../errors.js';
import type { ConsentCache, ConsentRequest } from './consent.js';
import { type OriginMatcher, originOf } from './origins.js';

/** Headers that carry credentials, compared case-insensitively; a host may name more. */
export const CREDENTIAL_HEADERS: readonly string[] = Object.freeze([
  'authorization',
  'cookie',
  'x-api-key',
  'x-auth-token',
  'x-csrf-token',
]);

export interface ClientWarning {
  /** `PALISADE_CLIENT_W_*`: what happened. */
  readonly code: string;
  readonly message: string;
}

export type WarningSink = (warning: ClientWarning) => void;

/** The default sink: a process warning, which Node prints on stderr unless the host listens. */
export const processWarning: WarningSink = (warning) => {
  process.emitWarning(warning.message, { code: warning.code });
};

export interface BoundaryOptions {
  readonly matcher: OriginMatcher;
  readonly consent: ConsentCache;
  readonly credentialHeaders: readonly string[];
  readonly warn: WarningSink;
}

export interface Cleared {
  readonly trusted: boolean;
  readonly headers: Record<string, string>;
}

export class TrustBoundary {
  readonly #options: BoundaryOptions;
  readonly #credentials: ReadonlySet<string>;
  readonly #warned = new Set<string>();

  constructor(options: BoundaryOptions) {
    this.#options = options;
    this.#credentials = new Set(options.credentialHeaders.map((name) => name.toLowerCase()));
  }

  /** Whether `url` is on a declared origin. */
  trusts(url: URL): boolean {
    return this.#options.matcher.trusts(url);
  }

  /** The headers `url` may receive; rejects when consent is not given. */
  async clear(
    url: URL,
    headers: Readonly<Record<string, string>>,
    purpose: ConsentRequest['purpose'],
  ): Promise<Cleared> {
    if (this.#options.matcher.trusts(url)) return { trusted: true, headers: { ...headers } };
    const origin = originOf(url);
    const kept: Record<string, string> = {};
    const removed: string[] = [];
    for (const [name, value] of Object.entries(headers)) {
      if (this.#credentials.has(name.toLowerCase())) removed.push(name.toLowerCase());
      else kept[name] = value;
    }
    if (removed.length > 0) {
      this.#once(`strip ${origin}`, {
        code: 'PALISADE_CLIENT_W_CREDENTIALS_REMOVED',
        message: `removed credential headers (${removed.join(', ')}) from a request to ${origin}, an origin not in trustedOrigins; to send them, add ${JSON.stringify(origin)} to the client's trustedOrigins option`,
      });
    }
    try {
      await this.#options.consent.require(origin, purpose);
    } catch (error) {
      if (error instanceof ClientError) {
        this.#once(`block ${origin}`, {
          code: 'PALISADE_CLIENT_W_CONSENT_BLOCKED',
          message: `blocked a request to ${origin}: ${error.message}; to reach it, add ${JSON.stringify(origin)} to the client's trustedOrigins option, or answer it from the consent option`,
        });
      }
      throw error;
    }
    return { trusted: false, headers: kept };
  }

  #once(key: string, warning: ClientWarning): void {
    if (this.#warned.has(key)) return;
    if (this.#warned.size < 10_000) this.#warned.add(key);
    this.#options.warn(warning);
  }
}
