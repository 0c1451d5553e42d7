/**
 * A token's shape and its protected header, read before any key is looked up: everything here
 * decides on bytes the caller chose, so it is bounded (the token's length was checked already)
 * and decides nothing from the header that the signature has not yet covered, except which key
 * to try.
 */
import { MAX_KID_CHARS } from '../limits.js';
import { RULES, type Rule } from '../rules.js';
import { type Algorithm, isAllowedAlgorithm } from './algorithms.js';

export interface JwsHeader {
  readonly alg: Algorithm;
  readonly kid: string | undefined;
  readonly typ: string | undefined;
}

export type HeaderRead =
  | { readonly ok: true; readonly header: JwsHeader }
  | { readonly ok: false; readonly rule: Rule };

/** A JWS in compact serialization: three base64url segments, the signature possibly empty (it is then refused). */
const COMPACT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$/;

/**
 * Header members that carry or point to a key: a token must never choose the key it is checked
 * with (RFC 8725 §3.10 on `jku`/`x5u`; the `jwk` of CVE-2018-0114 and its kin).
 */
const KEY_MEMBERS = ['jwk', 'jku', 'x5u', 'x5c'] as const;

export function isCompactJws(token: string): boolean {
  return COMPACT.test(token);
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Strict base64url: no padding, and the last character's unused bits zero, so one text per value. */
export function decodeSegment(segment: string): Uint8Array | undefined {
  if (segment.length % 4 === 1) return undefined;
  const bytes = Buffer.from(segment, 'base64url');
  return bytes.toString('base64url') === segment ? bytes : undefined;
}

/** A JSON object from a segment, or undefined: invalid base64url, UTF-8 or JSON, or not an object. */
export function decodeJsonSegment(segment: string): Record<string, unknown> | undefined {
  const bytes = decodeSegment(segment);
  if (bytes === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(bytes));
  } catch {
    return undefined;
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * The protected header of a compact JWS, judged: the algorithm on the allow-list (never `none`,
 * never HMAC), no key carried or pointed to, no `crit` (this verifier understands no extension,
 * and RFC 7515 §4.1.11 has it refuse any it is asked to understand), a `kid` and `typ` that are
 * short strings when present.
 */
export function readHeader(token: string, allowed: ReadonlySet<string>): HeaderRead {
  const header = decodeJsonSegment(token.slice(0, token.indexOf('.')));
  if (header === undefined) return { ok: false, rule: RULES.malformed };
  const { alg, kid, typ } = header;
  if (typeof alg !== 'string') return { ok: false, rule: RULES.malformed };
  if (!isAllowedAlgorithm(alg, allowed)) return { ok: false, rule: RULES.algorithm };
  for (const member of KEY_MEMBERS) {
    if (Object.hasOwn(header, member)) return { ok: false, rule: RULES.embeddedKey };
  }
  if (Object.hasOwn(header, 'crit') || Object.hasOwn(header, 'b64')) return { ok: false, rule: RULES.crit };
  if (kid !== undefined && (typeof kid !== 'string' || kid.length === 0 || kid.length > MAX_KID_CHARS)) {
    return { ok: false, rule: RULES.malformed };
  }
  if (typ !== undefined && typeof typ !== 'string') return { ok: false, rule: RULES.malformed };
  return { ok: true, header: { alg, kid, typ } };
}
