/**
 * The `=?base64?…?=` sentinel of MCP 2026-07-28 (SEP-2243, "Value Encoding"): how a client sends
 * a header value that is not plain visible ASCII. Only the lowercase markers, both present and
 * not overlapping, make a sentinel; anything else is a literal (`=?BASE64?…?=` included).
 *
 * Inside, the payload must be the one canonical spelling of its bytes (RFC 4648 §3.5): the §4
 * alphabet, padded to a multiple of four, unused trailing bits zero. `Buffer.from(x, 'base64')`
 * skips junk and accepts the URL-safe alphabet, missing padding and set trailing bits, so two
 * different header values would decode to the same text, and a reader that decodes differently
 * would see another value; Buffer only decodes what the grammar below has already admitted. The
 * bytes must then be well-formed UTF-8, read without replacement and with a leading BOM kept as
 * text, for the same reason.
 */
import { Buffer } from 'node:buffer';
import { decodeUtf8 } from '../../wire/utf8-text.js';

const PREFIX = '=?base64?';
const SUFFIX = '?=';

/**
 * Whole quanta of four characters, then at most one padded quantum whose last data character
 * has its unused bits zero: of 4 unused bits in `xx==` (A, Q, g, w: multiples of 16 in the
 * alphabet), of 2 in `xxx=` (multiples of 4). Fixed-width groups, so a refusal is linear.
 */
const CANONICAL_BASE64 =
  /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/][AQgw]==|[A-Za-z0-9+/]{2}[AEIMQUYcgkosw048]=)?$/;

/**
 * What a header value means once the sentinel is read: the value itself when it is a literal,
 * the decoded text when it is a well-formed sentinel, `undefined` when it is a malformed one.
 */
export function decodeSentinel(value: string): string | undefined {
  if (value.length < PREFIX.length + SUFFIX.length || !value.startsWith(PREFIX) || !value.endsWith(SUFFIX)) {
    return value;
  }
  const payload = value.slice(PREFIX.length, value.length - SUFFIX.length);
  if (!CANONICAL_BASE64.test(payload)) return undefined;
  return decodeUtf8(Buffer.from(payload, 'base64'));
}
