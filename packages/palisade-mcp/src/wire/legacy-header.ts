/**
 * The grammar of a legacy `Content-Length` header block (the LSP base protocol) that some stdio
 * clients still send, over bytes. Strict on the one header we use and blind to the others: a
 * length is canonical decimal or it is refused, so no two readers of the same bytes can disagree
 * on where the body ends.
 */

const COLON = 0x3a;
const SPACE = 0x20;
const TAB = 0x09;
const ZERO = 0x30;
const NINE = 0x39;
const UPPER_A = 0x41;
const UPPER_Z = 0x5a;
/** ASCII upper case to lower case is this bit. */
const CASE_BIT = 0x20;

/** `content-length:` in lower case; a line starting with it (any case) opens a legacy block. */
const OPENER = new TextEncoder().encode('content-length:');

/** Bytes needed to tell whether a line opens a legacy block. */
export const OPENER_BYTES = OPENER.length;

/** RFC 9110 `tchar`: what a header name is made of. Anything else before the colon is not a header. */
const TOKEN_CHARS = new Uint8Array(128);
for (const byte of new TextEncoder().encode(
  "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
)) {
  TOKEN_CHARS[byte] = 1;
}

export type HeaderLine =
  | { readonly kind: 'content-length'; readonly length: number | undefined }
  | { readonly kind: 'other' }
  | { readonly kind: 'not-header' };

const OTHER: HeaderLine = { kind: 'other' };
const NOT_HEADER: HeaderLine = { kind: 'not-header' };

function lower(byte: number): number {
  return byte >= UPPER_A && byte <= UPPER_Z ? byte | CASE_BIT : byte;
}

/** Whether `line` starts with `Content-Length:`, any case, no space before the colon. */
export function isContentLengthOpener(line: Uint8Array): boolean {
  if (line.length < OPENER.length) return false;
  for (let i = 0; i < OPENER.length; i++) {
    if (lower(line[i]!) !== OPENER[i]) return false;
  }
  return true;
}

/** Classifies one header line (its `\r` already trimmed, not empty). */
export function parseHeaderLine(line: Uint8Array): HeaderLine {
  const colon = line.indexOf(COLON);
  if (colon <= 0) return NOT_HEADER;
  for (let i = 0; i < colon; i++) {
    if (TOKEN_CHARS[line[i]!] !== 1) return NOT_HEADER;
  }
  // The opener ends in the colon, so this also places the first colon right after the name.
  if (isContentLengthOpener(line)) {
    return { kind: 'content-length', length: parseContentLength(line.subarray(colon + 1)) };
  }
  return OTHER;
}

/**
 * A Content-Length value: optional spaces or tabs around (HTTP's OWS), then canonical decimal
 * digits. A sign, hex, a fraction, an exponent, a leading zero (octal to some readers) or a value
 * past Number.MAX_SAFE_INTEGER is `undefined`: malformed.
 */
export function parseContentLength(value: Uint8Array): number | undefined {
  let start = 0;
  let end = value.length;
  while (start < end && (value[start] === SPACE || value[start] === TAB)) start++;
  while (end > start && (value[end - 1] === SPACE || value[end - 1] === TAB)) end--;
  if (start === end) return undefined;
  if (end - start > 1 && value[start] === ZERO) return undefined;
  let length = 0;
  for (let i = start; i < end; i++) {
    const byte = value[i]!;
    if (byte < ZERO || byte > NINE) return undefined;
    // Exact below 2^53; past it rounding can only land at or past 2^53 (or at Infinity for
    // hundreds of digits), so the comparison below still refuses it.
    length = length * 10 + (byte - ZERO);
  }
  return length <= Number.MAX_SAFE_INTEGER ? length : undefined;
}
