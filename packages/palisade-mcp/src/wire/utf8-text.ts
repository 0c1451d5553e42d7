/**
 * Bytes to text for the JSON reader: strict UTF-8 or nothing. Strict means overlong forms,
 * encoded surrogates (ED A0 80), truncated sequences and anything above U+10FFFF are refused;
 * a replacing decoder would turn them into U+FFFD and so let two different byte strings read as
 * the same message.
 */
import { Buffer, isAscii } from 'node:buffer';

// `fatal: true` validates while decoding, in one pass (simdutf in Node 20), and throws on the
// first ill-formed sequence. `ignoreBOM: true` keeps a leading U+FEFF in the text instead of
// dropping it, so a BOM reaches the parser and is refused as not JSON: RFC 8259 forbids senders
// to add one, and accepting it would let this reader and a BOM-blind one disagree.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * From this size on, ASCII input is decoded as Latin-1 (identical for ASCII): Node 20's Latin-1
 * decoder is a copy, several times faster per byte than its UTF-8 decoder on large input, but
 * it costs an extra pass and a Buffer view up front, which loses on small messages. Measured
 * crossover: about 4 KiB.
 */
const LATIN1_FAST_PATH_MIN_BYTES = 4_096;

/** The text the bytes encode, or `undefined` when they are not well-formed UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  // Stryker disable next-line BlockStatement: UTF-8 decodes ASCII to the same text; only speed differs
  if (bytes.length >= LATIN1_FAST_PATH_MIN_BYTES && isAscii(bytes)) {
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  }
  try {
    return strictUtf8.decode(bytes);
  } catch /* Stryker disable next-line BlockStatement: an empty catch returns undefined too */ {
    // The decoder's error names the offending bytes; it is dropped, not forwarded.
    return undefined;
  }
}
