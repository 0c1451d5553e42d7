/**
 * The two string orders of the byte format, and the string checks both rely on.
 *
 * Node ids and edge endpoints sort by UTF-8 bytes (equal to code-point order); object keys sort
 * by UTF-16 code units (RFC 8785 §3.2.3). JavaScript's `<` and default `sort()` compare UTF-16
 * code units, so the two orders disagree exactly when one string has a character above U+FFFF
 * (a surrogate pair, 0xD800–0xDBFF first) where the other has one in U+E000–U+FFFF: by code
 * point the astral character is larger, by code unit it is smaller.
 */
import { ConnectomeError } from './errors.js';

/** Code-point order, which is UTF-8 byte order. Strings must be well formed (no lone surrogate). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // At the first differing unit, a surrogate (a code point above U+FFFF) outranks any BMP
    // unit at or above U+E000; everywhere else unit order already is code-point order.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

/** UTF-16 code-unit order: RFC 8785's order for object keys. */
export function compareCodeUnits(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

// With the `u` flag a well-paired surrogate reads as one astral code point, so `\p{Cs}` can
// only match a surrogate standing alone.
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Refuses a string holding a lone surrogate. `TextEncoder` and `Buffer.from` would write it as
 * U+FFFD, so two distinct strings could give one byte string and one hash.
 */
export function requireWellFormed(value: string, where: string): void {
  if (LONE_SURROGATE.test(value)) {
    throw new ConnectomeError(
      'PALISADE_ERR_CONNECTOME_LONE_SURROGATE',
      `${where} holds a lone surrogate and has no UTF-8 form; it is refused rather than written as U+FFFD`,
    );
  }
}

/** NFC, the only normalisation the byte format applies (never NFKC). */
export function nfc(value: string): string {
  return value.normalize('NFC');
}
