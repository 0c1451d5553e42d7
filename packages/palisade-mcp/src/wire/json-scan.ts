/**
 * One pass over decoded JSON text that runs before `JSON.parse` may build anything. It decides
 * the rules `JSON.parse` cannot be trusted with or does not know: nesting depth (so the worst
 * body, half a million `[`, is refused after reading 65 characters, with no value built), and
 * surrogate escapes that do not pair. It also counts keys, so the reader can detect a repeated
 * key afterwards by comparing counts instead of hashing every key here.
 *
 * The scan does not validate syntax; `JSON.parse` does that next. What it reports is exact for
 * text that is valid JSON: string contents are skipped with native `indexOf`, and every
 * bracket and colon left over is structural. On invalid text it may still report 'too-deep'
 * (the depth rule is decided before syntax), or 'not-json' where it sees proof of it.
 */
import { MAX_JSON_DEPTH } from '../limits.js';
import {
  BACKSLASH,
  CLOSE_BRACE,
  COLON,
  DIGIT_NINE,
  DIGIT_ZERO,
  HIGH_SURROGATE_FIRST,
  HIGH_SURROGATE_LAST,
  isJsonWhitespace,
  LOW_SURROGATE_FIRST,
  LOW_SURROGATE_LAST,
  LOWER_A,
  LOWER_F,
  LOWER_U,
  OPEN_BRACE,
  QUOTE,
} from './json-chars.js';

export type JsonScan =
  | { readonly kind: 'empty' }
  | { readonly kind: 'too-deep' }
  | { readonly kind: 'not-json' }
  | {
      readonly kind: 'scanned';
      /** Strings followed by `:`; in valid JSON, exactly the keys written in the text. */
      readonly keys: number;
      /** A `\uD800`-`\uDFFF` escape that is not half of an escaped high-low pair. */
      readonly loneSurrogate: boolean;
    };

const EMPTY: JsonScan = { kind: 'empty' };
const TOO_DEEP: JsonScan = { kind: 'too-deep' };
const NOT_JSON: JsonScan = { kind: 'not-json' };

// `[` is 0x5B and `{` is 0x7B, `]` 0x5D and `}` 0x7D: setting bit 0x20 folds each pair onto one
// value, and no other character folds onto either, so one comparison tests both brackets.
const CASE_BIT = 0x20;
const FOLDED_OPEN = OPEN_BRACE;
const FOLDED_CLOSE = CLOSE_BRACE;
/** Plain characters read one by one before the rest of the run is left to STRUCTURAL. */
const PLAIN_RUN_BEFORE_SEARCH = 16;
/** The characters the scan stops at. `test` with the g flag only moves lastIndex: no allocation. */
const STRUCTURAL = /["[\]{}]/g;
/** `\uXXXX` is six characters. */
const UNICODE_ESCAPE_LENGTH = 6;
/** Any other escape (`\n`, `\"`, `\\`, ...) is two. */
const SHORT_ESCAPE_LENGTH = 2;

const DECIMAL_DIGITS = 10;

function hexDigit(code: number): number {
  if (code >= DIGIT_ZERO && code <= DIGIT_NINE) return code - DIGIT_ZERO;
  const lower = code | CASE_BIT;
  if (lower >= LOWER_A && lower <= LOWER_F) return lower - LOWER_A + DECIMAL_DIGITS;
  return -1;
}

/** The code unit of the four hex digits at `at`, or -1 if any is not a hex digit (or absent). */
function hexUnit(text: string, at: number): number {
  const a = hexDigit(text.charCodeAt(at));
  const b = hexDigit(text.charCodeAt(at + 1));
  const c = hexDigit(text.charCodeAt(at + 2));
  const d = hexDigit(text.charCodeAt(at + 3));
  if ((a | b | c | d) < 0) return -1;
  return (a << 12) | (b << 8) | (c << 4) | d;
}

export function scanJson(text: string): JsonScan {
  const length = text.length;
  let i = 0;
  while (i < length && isJsonWhitespace(text.charCodeAt(i))) i++;
  if (i === length) return EMPTY;

  let depth = 0;
  let keys = 0;
  let loneSurrogate = false;
  // The first backslash at or after the scan position. It is looked up once and again only when
  // a string steps past it, so text without escapes pays a single `indexOf` for all its strings.
  let backslash = text.indexOf('\\', i);

  // Characters read in a row that were neither a bracket nor a quote (numbers, literals, commas).
  let plain = 0;

  for (; i < length; i++) {
    const code = text.charCodeAt(i);
    const folded = code | CASE_BIT;
    if (folded !== FOLDED_OPEN && folded !== FOLDED_CLOSE && code !== QUOTE) {
      // A long run, like a big array of numbers, is crossed by the regular-expression engine's
      // native loop, far faster per character than this one; short runs are not worth the call.
      if (++plain > PLAIN_RUN_BEFORE_SEARCH) {
        STRUCTURAL.lastIndex = i;
        i = STRUCTURAL.test(text) ? STRUCTURAL.lastIndex - 2 : length;
        plain = 0;
      }
      continue;
    }
    plain = 0;
    if (folded === FOLDED_OPEN) {
      depth++;
      if (depth > MAX_JSON_DEPTH) return TOO_DEEP;
    } else if (folded === FOLDED_CLOSE) {
      depth--;
      if (depth < 0) return NOT_JSON;
    } else {
      // A backslash that no string consumed lies outside every string, which JSON never allows;
      // it would also desynchronise the escape handling below.
      if (backslash !== -1 && backslash < i) return NOT_JSON;
      // Native `indexOf` even for short strings: measured, a JS loop over the contents is
      // slower already at eight characters.
      let end = text.indexOf('"', i + 1);
      // Step over every escape that starts before the candidate closing quote: the quote may be
      // escaped itself (then look further), and `\u` escapes are where surrogates are checked.
      while (end !== -1 && backslash !== -1 && backslash < end) {
        let after: number;
        if (text.charCodeAt(backslash + 1) === LOWER_U) {
          const unit = hexUnit(text, backslash + 2);
          if (unit < 0) return NOT_JSON;
          after = backslash + UNICODE_ESCAPE_LENGTH;
          if (unit >= HIGH_SURROGATE_FIRST && unit <= LOW_SURROGATE_LAST) {
            const pairsWithNext =
              unit <= HIGH_SURROGATE_LAST &&
              text.charCodeAt(after) === BACKSLASH &&
              text.charCodeAt(after + 1) === LOWER_U &&
              isLowSurrogate(hexUnit(text, after + 2));
            if (pairsWithNext) after += UNICODE_ESCAPE_LENGTH;
            else loneSurrogate = true;
          }
        } else {
          after = backslash + SHORT_ESCAPE_LENGTH;
        }
        if (after > end) end = text.indexOf('"', after);
        backslash = text.charCodeAt(after) === BACKSLASH ? after : text.indexOf('\\', after);
      }
      if (end === -1) return NOT_JSON;
      // A string followed by optional whitespace and a colon is a key.
      let next = end + 1;
      let after = text.charCodeAt(next);
      while (isJsonWhitespace(after)) after = text.charCodeAt(++next);
      if (after === COLON) {
        keys++;
        i = next;
      } else {
        // Resume on the character after the string and its whitespace: it may be a bracket.
        i = next - 1;
      }
    }
  }
  return { kind: 'scanned', keys, loneSurrogate };
}

function isLowSurrogate(unit: number): boolean {
  return unit >= LOW_SURROGATE_FIRST && unit <= LOW_SURROGATE_LAST;
}
