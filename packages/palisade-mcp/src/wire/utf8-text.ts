/**
 * Bytes to text for the JSON reader: strict UTF-8 or nothing. Node's `isAscii`/`isUtf8` are
 * SIMD validators that run at memory speed; they reject overlong forms, encoded surrogates
 * (ED A0 80), truncated sequences and anything above U+10FFFF, which a replacing decoder would
 * silently turn into U+FFFD and so let two different byte strings read as the same message.
 */
import { Buffer, isAscii, isUtf8 } from 'node:buffer';

// `ignoreBOM: true` keeps a leading U+FEFF in the text instead of dropping it, so a BOM reaches
// the parser and is refused as not JSON. RFC 8259 forbids senders to add one; accepting it here
// would let this reader and a BOM-blind one disagree about the same bytes.
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * From this size on, ASCII input is decoded as Latin-1 (identical for ASCII): Node 20's Latin-1
 * decoder is a copy, several times faster per byte than its UTF-8 decoder on large input, but
 * it costs a Buffer view up front, which loses on small messages. Measured crossover: ~4 KiB.
 */
const LATIN1_FAST_PATH_MIN_BYTES = 4_096;

/** The text the bytes encode, or `undefined` when they are not well-formed UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  if (bytes.length >= LATIN1_FAST_PATH_MIN_BYTES && isAscii(bytes)) {
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  }
  if (!isUtf8(bytes)) return undefined;
  return utf8.decode(bytes);
}
