/**
 * How an MCP header value is written and read (MCP 2026-07-28, SEP-2243, "Value Encoding"): plain
 * visible ASCII as it is, anything else in the `=?base64?…?=` sentinel. `encodeHeaderValue` is the
 * client's side, `decodeHeaderValue` the server's. Only the lowercase markers, both present and
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
import { decodeUtf8 } from './utf8-text.js';

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
export function decodeHeaderValue(value: string): string | undefined {
  if (!readsAsSentinel(value)) return value;
  const payload = value.slice(PREFIX.length, value.length - SUFFIX.length);
  if (!CANONICAL_BASE64.test(payload)) return undefined;
  return decodeUtf8(Buffer.from(payload, 'base64'));
}

/** A lone surrogate: a UTF-16 half with no partner, which has no UTF-8 form. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Nothing but 0x20–0x7E, and neither first nor last a space. */
const PLAIN = /^(?! )[\x20-\x7e]*(?<! )$/;

/**
 * How a client writes `text` into an MCP header (SEP-2243, "Value Encoding"): as it is when it is
 * plain visible ASCII that does not start or end with a space and does not itself read as a
 * sentinel, else `=?base64?…?=` over its UTF-8 bytes, in the canonical spelling `decodeHeaderValue`
 * admits. `undefined` for a text holding a lone surrogate, which has no UTF-8 form: no header can
 * carry it, and the body's JSON reader refuses it too.
 */
export function encodeHeaderValue(text: string): string | undefined {
  if (PLAIN.test(text) && !readsAsSentinel(text)) return text;
  if (LONE_SURROGATE.test(text)) return undefined;
  return `${PREFIX}${Buffer.from(text, 'utf8').toString('base64')}${SUFFIX}`;
}

/** Both lowercase markers, not overlapping: what `decodeHeaderValue` decodes and `encodeHeaderValue` never writes plain. */
function readsAsSentinel(value: string): boolean {
  return value.length >= PREFIX.length + SUFFIX.length && value.startsWith(PREFIX) && value.endsWith(SUFFIX);
}
