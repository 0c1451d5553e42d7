/**
 * The text of one header value as Palisade reads it: surrounding optional whitespace (RFC 9110
 * OWS: space and tab) dropped, as an HTTP parser drops it, and then nothing but 0x20–0x7E.
 *
 * CR, LF and NUL are refused because the spec says so (SEP-2243, "Server Validation"): they split
 * or end header lines in some readers. Tab and the other controls, DEL and every character past
 * 0x7E are refused too, though RFC 9110 tolerates some of them: a conforming client sends those
 * base64-encoded, so a raw one is either a broken client or a reader-disagreement probe. Node
 * hands bytes past 0x7F over as Latin-1 characters, so they land in this refusal as well.
 */

const SPACE = 0x20;
const TAB = 0x09;
const TILDE = 0x7e;

function isOws(code: number): boolean {
  return code === SPACE || code === TAB;
}

/**
 * `value` without surrounding OWS (space and tab), and nothing else: `String.prototype.trim`
 * also drops the no-break space (U+00A0, byte 0xA0 as Node reads it) and other Unicode spaces,
 * which no HTTP field grammar treats as whitespace.
 */
export function trimOws(value: string): string {
  // Index scans, not `/[ \t]+$/`: that regex retries from every position of a long inner run of
  // spaces, which is quadratic in a 16 KiB value.
  let start = 0;
  let end = value.length;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: past the end charCodeAt is NaN, which is no OWS
  while (start < end && isOws(value.charCodeAt(start))) start++;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: for an all-OWS value end passes start, and slice(start, end) is '' either way
  while (end > start && isOws(value.charCodeAt(end - 1))) end--;
  return value.slice(start, end);
}

/** The value without surrounding OWS, or `undefined` when what is left holds a refused character. */
export function headerText(value: string): string | undefined {
  const text = trimOws(value);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < SPACE || code > TILDE) return undefined;
  }
  return text;
}
