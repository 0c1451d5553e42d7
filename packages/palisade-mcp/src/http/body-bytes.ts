/**
 * A request body's bytes, gathered into one buffer as they arrive. Keeping each chunk as it came
 * would let the byte cap bound the payload but not the memory: a chunk is an object of its own,
 * about a hundred bytes before its first byte, so a body sent a byte at a time (HTTP/2 DATA frames
 * of one byte, or one-byte chunks of a chunked body a fetch runtime hands over) would hold 100 to
 * 200 bytes of heap per byte read, about 100 MiB for one 1 MiB body. Here each
 * chunk is copied into one buffer that at least doubles when it fills, so a body of n bytes holds
 * at most 2n, however it is split, and an empty chunk holds nothing. The buffer grows only as bytes
 * arrive: a declared length allocates nothing before its bytes come.
 */
/** How a body read ends, whichever runtime's reader ran it: its bytes, or why there are none. */
export type BodyRead =
  | { readonly ok: true; readonly bytes: Buffer }
  | { readonly ok: false; readonly reason: 'timeout' | 'too-large' | 'aborted' };

export class BodyBytes {
  #buffer: Buffer = EMPTY;
  #length = 0;
  readonly #declared: number;
  readonly #keepFirst: boolean;

  /**
   * `declared` is the length the request announced (already held to the cap), when it announced
   * one: growth stops there, so a body that arrives as announced ends in a buffer of exactly its
   * size rather than up to twice it (a 1 MiB body in 64 KiB chunks would hold 2 MiB). Bytes
   * past it, from a parser that does not hold a body to its length, still grow the buffer by
   * doubling.
   */
  constructor(declared?: number, keepFirst = false) {
    this.#declared = declared ?? 0;
    this.#keepFirst = keepFirst;
  }

  /** Bytes gathered so far. */
  get length(): number {
    return this.#length;
  }

  append(chunk: Uint8Array): void {
    // With `keepFirst`, for a source known to hand over a new buffer per chunk (Node's HTTP
    // parsers: `node/read-body.ts`), the first chunk is kept as it came when it owns its whole buffer:
    // most bodies arrive whole and are then never copied. A view into a larger buffer is copied,
    // so no chunk holds more memory than its bytes. A fetch runtime's stream is not known to: an
    // adapter may reuse its buffer for the next read, and what `authorizeBody` was shown would
    // then not be what is decoded.
    if (
      this.#keepFirst &&
      this.#length === 0 &&
      Buffer.isBuffer(chunk) &&
      chunk.byteLength === chunk.buffer.byteLength
    ) {
      this.#buffer = chunk;
      this.#length = chunk.byteLength;
      return;
    }
    const needed = this.#length + chunk.byteLength;
    // A kept first chunk is exactly full, so any byte more grows (copies) it before a write.
    if (needed > this.#buffer.byteLength) {
      const doubled = 2 * this.#buffer.byteLength;
      const grown = Buffer.allocUnsafe(
        Math.max(needed, needed <= this.#declared ? Math.min(doubled, this.#declared) : doubled),
      );
      this.#buffer.copy(grown, 0, 0, this.#length);
      this.#buffer = grown;
    }
    this.#buffer.set(chunk, this.#length);
    this.#length = needed;
  }

  /** The body as received: only the bytes written, never the buffer's unwritten tail. */
  bytes(): Buffer {
    const buffer = this.#buffer;
    // Stryker disable next-line ConditionalExpression: a view of the whole buffer holds the same bytes
    return buffer.byteLength === this.#length ? buffer : buffer.subarray(0, this.#length);
  }
}

const EMPTY = Buffer.alloc(0);
