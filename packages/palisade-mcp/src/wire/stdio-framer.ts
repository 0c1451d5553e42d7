/**
 * Splits a stdio byte stream into messages. MCP's stdio transport is newline-delimited JSON-RPC;
 * legacy (LSP-style) clients send `Content-Length: N\r\n\r\n<N bytes>` frames instead, and both
 * are read. Push-based and transport-agnostic: bytes in, frames out, no I/O and no decoding.
 *
 * Memory stays bounded by `maxMessageBytes` whatever arrives: a line or body is held as views of
 * the pushed chunks and concatenated once when complete (never per chunk, which is quadratic),
 * and anything over the bound is counted and discarded, never held.
 *
 * Decisions:
 * - A line is the bytes before `\n`; one trailing `\r` counts toward the bound, then is trimmed.
 *   A line over the bound is refused as soon as its first byte past the bound arrives, and the
 *   rest of it is discarded through its `\n`.
 * - Lines of only spaces, tabs and `\r` between messages are skipped without a frame. A
 *   `Content-Length: 0` frame, by contrast, is a message of zero bytes: the client framed it.
 * - A line starting `Content-Length:` (any case, no space before the colon) opens a legacy header
 *   block, which ends at an empty line (`\r\n` or `\n`). Other headers are ignored. Each header
 *   line is bounded like a line; a block has at most MAX_LEGACY_HEADER_LINES lines.
 * - The length is canonical decimal with optional spaces or tabs around it; a duplicate, even an
 *   equal one, is malformed. One refusal per block, at the first fault found.
 * - Resync after a refused block: a declared length over the bound, or a header line over the
 *   bound once a valid length was read, drains that many body bytes. A malformed, duplicated or
 *   unread length leaves the body's extent unknown, so after the empty line everything is
 *   discarded through the next `\n` and line framing resumes. A line in the block that is not a
 *   header, or a line past MAX_LEGACY_HEADER_LINES, means there is no block to finish: that line
 *   is discarded and line framing resumes with the next one.
 * - `end()`: an unterminated last line is framed as if `\n` followed (a client may close stdin
 *   after its last message); input ending inside a legacy frame is refused as truncated; nothing
 *   is added for input already refused.
 *
 * Message bytes may be views into the pushed chunks: a caller must not reuse a chunk's memory
 * after pushing it (Node's streams never do).
 */

import { PalisadeError } from '../errors.js';
import { MAX_LEGACY_HEADER_LINES, MAX_MESSAGE_BYTES } from '../limits.js';
import { isContentLengthOpener, OPENER_BYTES, parseHeaderLine } from './legacy-header.js';
import type { WireRefusal } from './refusal.js';
import { type StdioRefusals, stdioRefusals } from './stdio-refusals.js';

export type Framing = 'line' | 'content-length';

export type Frame =
  | { readonly kind: 'message'; readonly bytes: Uint8Array; readonly framing: Framing }
  | { readonly kind: 'refusal'; readonly refusal: WireRefusal; readonly framing: Framing };

export interface StdioFramerOptions {
  /** Bound on a line, a header line and a body. Defaults to MAX_MESSAGE_BYTES; lower it in tests only. */
  readonly maxMessageBytes?: number;
}

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;

/**
 * - `line`: collecting a line that starts a message (a JSON line or a block's first header).
 * - `header`: collecting a later line of a legacy header block.
 * - `skip`: discarding through the next `\n`.
 * - `body` / `drain`: collecting / discarding `remaining` body bytes.
 */
type Mode = 'line' | 'header' | 'skip' | 'body' | 'drain';

interface LegacyBlock {
  lines: number;
  /** `none` until a Content-Length line is read; `invalid` once one is malformed or repeated. */
  length: number | 'none' | 'invalid';
  refused: boolean;
}

export class StdioFramer {
  readonly #max: number;
  readonly #refusals: StdioRefusals;
  #mode: Mode = 'line';
  /** The pending line or body, as views of the chunks it arrived in. */
  #parts: Uint8Array[] = [];
  #pending = 0;
  #remaining = 0;
  /** Where `skip` goes at its `\n`: back to lines, or to the rest of a refused block. */
  #skipThen: 'line' | 'header' = 'line';
  #block: LegacyBlock | undefined;
  #ended = false;

  constructor(options: StdioFramerOptions = {}) {
    const max = options.maxMessageBytes ?? MAX_MESSAGE_BYTES;
    if (!Number.isSafeInteger(max) || max < 1) {
      throw new PalisadeError(
        'PALISADE_ERR_INVALID_OPTION',
        'option "maxMessageBytes" must be a positive integer',
      );
    }
    this.#max = max;
    this.#refusals = stdioRefusals(max);
  }

  /** Bytes held for the pending line or body: at most `maxMessageBytes`. */
  get bufferedBytes(): number {
    return this.#pending;
  }

  /** Frames completed by this chunk, in stream order. */
  push(chunk: Uint8Array): Frame[] {
    if (this.#ended) throw new PalisadeError('PALISADE_ERR_TRANSPORT', 'StdioFramer.push() after end()');
    const out: Frame[] = [];
    let pos = 0;
    while (pos < chunk.length) {
      switch (this.#mode) {
        case 'line':
        case 'header':
          pos = this.#readLine(chunk, pos, out);
          break;
        case 'skip':
          pos = this.#skip(chunk, pos, out);
          break;
        case 'body':
          pos = this.#readBody(chunk, pos, out);
          break;
        case 'drain':
          pos = this.#drain(chunk, pos);
          break;
      }
    }
    return out;
  }

  /** Input closed: frames for what was pending (see the decisions above). Idempotent. */
  end(): Frame[] {
    if (this.#ended) return [];
    this.#ended = true;
    const out: Frame[] = [];
    if (this.#mode === 'line' && this.#pending > 0) {
      this.#lineEnded(trimCr(this.#take(undefined)), out, true);
    } else if (this.#mode === 'body' || (this.#mode === 'header' && !this.#block!.refused)) {
      out.push(this.#refusal(this.#refusals.truncatedFrame, 'content-length'));
    }
    this.#parts = [];
    this.#pending = 0;
    return out;
  }

  #readLine(chunk: Uint8Array, pos: number, out: Frame[]): number {
    const newline = chunk.indexOf(LF, pos);
    const end = newline === -1 ? chunk.length : newline;
    const segment = chunk.subarray(pos, end);
    if (this.#pending + segment.length > this.#max) {
      this.#overflow(segment, out);
      return end;
    }
    if (newline === -1) {
      this.#hold(segment);
      return end;
    }
    const line = trimCr(this.#take(segment));
    if (this.#mode === 'line') this.#lineEnded(line, out, false);
    else this.#headerLineEnded(line, out);
    return newline + 1;
  }

  /** The line passed the bound: refuse it now and discard the rest of it unread. */
  #overflow(segment: Uint8Array, out: Frame[]): void {
    const inBlock = this.#mode === 'header';
    // Whether the line opens a block is judged on its first bytes within the bound (all present
    // now), so the answer never depends on how the input was chunked.
    const opens =
      !inBlock && isContentLengthOpener(this.#head(segment, Math.min(OPENER_BYTES, this.#max + 1)));
    this.#parts = [];
    this.#pending = 0;
    this.#mode = 'skip';
    if (!inBlock && !opens) {
      out.push(this.#refusal(this.#refusals.lineTooLarge, 'line'));
      this.#skipThen = 'line';
      return;
    }
    this.#block ??= { lines: 0, length: 'none', refused: false };
    this.#refuseBlock(this.#refusals.lineTooLarge, out);
    this.#skipThen = 'header';
  }

  #skip(chunk: Uint8Array, pos: number, out: Frame[]): number {
    const newline = chunk.indexOf(LF, pos);
    if (newline === -1) return chunk.length;
    if (this.#skipThen === 'header') this.#headerLineEnded(undefined, out);
    else this.#mode = 'line';
    return newline + 1;
  }

  #lineEnded(line: Uint8Array, out: Frame[], atEnd: boolean): void {
    if (isBlank(line)) return;
    if (!isContentLengthOpener(line)) {
      out.push({ kind: 'message', bytes: line, framing: 'line' });
    } else if (atEnd) {
      out.push(this.#refusal(this.#refusals.truncatedFrame, 'content-length'));
    } else {
      this.#block = { lines: 0, length: 'none', refused: false };
      this.#headerLineEnded(line, out);
    }
  }

  /** One header line done; `undefined` is a line that passed the bound, already refused. */
  #headerLineEnded(line: Uint8Array | undefined, out: Frame[]): void {
    const block = this.#block!;
    if (line?.length === 0) {
      this.#blockEnded(block, out);
      return;
    }
    this.#mode = 'header';
    if (++block.lines > MAX_LEGACY_HEADER_LINES) {
      this.#refuseBlock(this.#refusals.tooManyHeaderLines, out);
      this.#abandonBlock();
      return;
    }
    if (line === undefined) return;
    const header = parseHeaderLine(line);
    if (header.kind === 'not-header') {
      this.#refuseBlock(this.#refusals.malformedHeaderLine, out);
      this.#abandonBlock();
      return;
    }
    if (header.kind === 'other') return;
    if (block.length !== 'none' || header.length === undefined) {
      block.length = 'invalid';
      this.#refuseBlock(this.#refusals.malformedContentLength, out);
    } else {
      block.length = header.length;
      if (header.length > this.#max) this.#refuseBlock(this.#refusals.frameTooLarge, out);
    }
  }

  #blockEnded(block: LegacyBlock, out: Frame[]): void {
    this.#block = undefined;
    if (typeof block.length !== 'number') {
      // Only a refused block gets here (an unrefused one has read a valid length). Its body has
      // no known extent: discard through the next newline, where a line can start again.
      this.#mode = 'skip';
      this.#skipThen = 'line';
    } else if (block.length === 0) {
      if (!block.refused) out.push({ kind: 'message', bytes: new Uint8Array(0), framing: 'content-length' });
      this.#mode = 'line';
    } else {
      this.#remaining = block.length;
      this.#mode = block.refused ? 'drain' : 'body';
    }
  }

  /** No block left to finish: the current line is dropped and lines are framed again. */
  #abandonBlock(): void {
    this.#block = undefined;
    this.#mode = 'line';
  }

  #refuseBlock(refusal: WireRefusal, out: Frame[]): void {
    const block = this.#block!;
    if (block.refused) return;
    block.refused = true;
    out.push(this.#refusal(refusal, 'content-length'));
  }

  #readBody(chunk: Uint8Array, pos: number, out: Frame[]): number {
    const end = pos + Math.min(this.#remaining, chunk.length - pos);
    const piece = chunk.subarray(pos, end);
    this.#remaining -= piece.length;
    if (this.#remaining > 0) {
      this.#hold(piece);
    } else {
      out.push({ kind: 'message', bytes: this.#take(piece), framing: 'content-length' });
      this.#mode = 'line';
    }
    return end;
  }

  /** Counts a refused body away: nothing of it is held or framed. */
  #drain(chunk: Uint8Array, pos: number): number {
    const taken = Math.min(this.#remaining, chunk.length - pos);
    this.#remaining -= taken;
    if (this.#remaining === 0) this.#mode = 'line';
    return pos + taken;
  }

  #hold(piece: Uint8Array): void {
    if (piece.length === 0) return;
    this.#parts.push(piece);
    this.#pending += piece.length;
  }

  /** The pending bytes plus `last`, in one buffer: the only copy a line or body costs. */
  #take(last: Uint8Array | undefined): Uint8Array {
    const parts = this.#parts;
    if (last !== undefined) this.#hold(last);
    const total = this.#pending;
    this.#parts = [];
    this.#pending = 0;
    if (parts.length === 1) return parts[0]!;
    const bytes = new Uint8Array(total);
    let offset = 0;
    for (const part of parts) {
      bytes.set(part, offset);
      offset += part.length;
    }
    return bytes;
  }

  /** The first `count` bytes of the pending line followed by `segment` (fewer if there are fewer). */
  #head(segment: Uint8Array, count: number): Uint8Array {
    const head = new Uint8Array(count);
    let filled = 0;
    for (const part of [...this.#parts, segment]) {
      if (filled === count) break;
      const piece = part.subarray(0, count - filled);
      head.set(piece, filled);
      filled += piece.length;
    }
    return head.subarray(0, filled);
  }

  #refusal(refusal: WireRefusal, framing: Framing): Frame {
    return { kind: 'refusal', refusal, framing };
  }
}

function trimCr(line: Uint8Array): Uint8Array {
  return line.length > 0 && line[line.length - 1] === CR ? line.subarray(0, line.length - 1) : line;
}

function isBlank(line: Uint8Array): boolean {
  for (const byte of line) {
    if (byte !== SPACE && byte !== TAB && byte !== CR) return false;
  }
  return true;
}
