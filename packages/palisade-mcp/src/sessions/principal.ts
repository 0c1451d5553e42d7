/**
 * Who a session belongs to. The host's `authorize` admits each request with an `auth` value; the
 * session keeps a SHA-256 digest of that principal's text (by default the canonical JSON of
 * `auth`, or what `sessions.principal(auth)` answers), never the value itself, and compares it on
 * every request. A request admitted as anyone else finds no session.
 */
import { createHash } from 'node:crypto';
import { MAX_CACHED_PRINCIPAL_CHARS, MAX_CACHED_PRINCIPALS } from '../limits.js';
import { canonicalJson } from '../protocol/canonical-json.js';

/** The principal text of `auth`: `sessions.principal` when given, else its canonical JSON. */
export type PrincipalOf = (auth: unknown) => string;

/** Canonical JSON of `auth` (`null` for none); a value JSON cannot carry has no principal text. */
export function defaultPrincipal(auth: unknown): string {
  const text = canonicalJson(auth ?? null);
  if (text === undefined) throw new TypeError('ctx.auth has no canonical JSON: pass sessions.principal');
  return text;
}

export function principalDigest(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * Digests of the principal texts seen lately, keyed by the text itself: a client's requests carry
 * the same principal, so its digest is computed once, not on every request (MAX_CACHED_PRINCIPALS
 * says why and how it is bounded). Keyed by text, not by the `auth` object, which `authorize`
 * usually builds afresh for every request.
 */
export class PrincipalDigests {
  readonly #digests = new Map<string, string>();

  /** Texts remembered now. */
  get size(): number {
    return this.#digests.size;
  }

  digest(text: string): string {
    const known = this.#digests.get(text);
    if (known !== undefined) return known;
    const digest = principalDigest(text);
    if (text.length <= MAX_CACHED_PRINCIPAL_CHARS) {
      if (this.#digests.size >= MAX_CACHED_PRINCIPALS) this.#digests.clear();
      this.#digests.set(text, digest);
    }
    return digest;
  }
}
