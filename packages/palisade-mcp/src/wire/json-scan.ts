/**
 * One pass over decoded JSON text that runs before `JSON.parse` may build anything. It decides
 * the rules `JSON.parse` cannot be trusted with or does not know: nesting depth (so the worst
 * body, half a million `[`, is refused after reading 65 characters, with no value built), and
 * surrogate escapes that do not pair. It also counts keys, so the reader can detect a repeated
 * key afterwards by comparing counts instead of hashing every key here; and in small objects,
 * the common case, it compares the keys itself, which spares the reader that walk.
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
      /**
       * True when every object was small enough, and every key free of escapes, for the scan to
       * compare its keys itself; `repeatedKey` is then exact. False leaves it to the reader.
       */
      readonly keysCompared: boolean;
      /** Two equal keys in one object, found by the scan's own comparison. */
      readonly repeatedKey: boolean;
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
/**
 * Objects with up to this many keys have them compared pairwise during the scan (at most 28
 * comparisons each); one larger object, or one escaped key, hands the document to the reader's
 * count comparison instead. Tuned by the bench: a small request is where a walk costs most.
 */
const SMALL_OBJECT_KEYS = 8;
// Where the keys of the objects on the current path start and end in the text, and for each
// depth the first entry that belongs to the object open there (NOT_AN_OBJECT for an array).
// Each of at most MAX_JSON_DEPTH open objects records at most SMALL_OBJECT_KEYS keys, so the
// tables never fill. Shared between calls: the scan is synchronous, and every entry it reads was
// written earlier in the same call (a depth's entry is written when its container opens).
const keyStart = new Int32Array(MAX_JSON_DEPTH * SMALL_OBJECT_KEYS);
const keyEnd = new Int32Array(MAX_JSON_DEPTH * SMALL_OBJECT_KEYS);
const firstKeyAtDepth = new Int32Array(MAX_JSON_DEPTH + 1);
const NOT_AN_OBJECT = -1;
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
  // Stryker disable next-line BooleanLiteral: the reader's key count refuses the same; only speed differs
  let keysCompared = true;
  let repeatedKey = false;
  // Entries of keyStart/keyEnd in use by the objects open on the current path.
  let recorded = 0;
  firstKeyAtDepth[0] = NOT_AN_OBJECT;
  // The first backslash at or after the scan position. It is looked up once and again only when
  // a string steps past it, so text without escapes pays a single `indexOf` for all its strings.
  // `length` stands for "none left", which keeps every test below a single comparison.
  let backslash = nextBackslash(text, i);
  // Characters read in a row that were neither a bracket nor a quote (numbers, literals, commas).
  let plain = 0;

  for (; i < length; i++) {
    const code = text.charCodeAt(i);
    const folded = code | CASE_BIT;
    if (folded !== FOLDED_OPEN && folded !== FOLDED_CLOSE && code !== QUOTE) {
      // A long run, like a big array of numbers, is crossed by the regular-expression engine's
      // native loop, far faster per character than this one; short runs are not worth the call.
      // Stryker disable next-line ConditionalExpression,EqualityOperator: the regex stops where the loop does
      // Stryker disable next-line UpdateOperator,BlockStatement: likewise; only speed differs
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
      // Stryker disable next-line ConditionalExpression,EqualityOperator: the reader refuses the same
      firstKeyAtDepth[depth] = code === OPEN_BRACE ? recorded : NOT_AN_OBJECT;
      continue;
    }
    if (folded === FOLDED_CLOSE) {
      // Closing an object forgets its keys. Mismatched brackets are not JSON; the parser will
      // say so, and the scan only has to stay in bounds until then.
      const first = firstKeyAtDepth[depth] ?? NOT_AN_OBJECT;
      if (first >= 0) recorded = first;
      depth--;
      if (depth < 0) return NOT_JSON;
      continue;
    }

    // A string. A backslash that no string consumed lies outside every string, which JSON
    // never allows; it would also desynchronise the escape handling below.
    if (backslash < i) return NOT_JSON;
    const open = i;
    // Native `indexOf` even for short strings: measured, a JS loop over the contents is slower
    // already at eight characters.
    let end = text.indexOf('"', i + 1);
    if (end === -1) return NOT_JSON;
    // Stryker disable next-line BooleanLiteral: the reader's key count refuses the same; only speed differs
    let escaped = false;
    // Step over every escape that starts before the candidate closing quote: the quote may be
    // escaped itself (then look further), and `\u` escapes are where surrogates are checked.
    while (backslash < end) {
      escaped = true;
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
      if (after > end) {
        end = text.indexOf('"', after);
        if (end === -1) return NOT_JSON;
      }
      backslash = text.charCodeAt(after) === BACKSLASH ? after : nextBackslash(text, after);
    }

    // A string followed by optional whitespace and a colon is a key.
    let next = end + 1;
    let after = text.charCodeAt(next);
    if (after !== COLON) {
      while (isJsonWhitespace(after)) after = text.charCodeAt(++next);
    }
    if (after !== COLON) {
      // Resume on the character after the string and its whitespace: it may be a bracket.
      i = next - 1;
      continue;
    }
    keys++;
    i = next;
    if (!keysCompared) continue;
    // Stryker disable next-line LogicalOperator: the reader's key count refuses the same; only speed differs
    const first = firstKeyAtDepth[depth] ?? NOT_AN_OBJECT;
    if (
      escaped ||
      // Stryker disable next-line ConditionalExpression: a key outside every object is not JSON anyway
      // Stryker disable next-line EqualityOperator: more keys left to the reader's count, same refusals
      first < 0 ||
      // Stryker disable next-line ArithmeticOperator: the reader's key count refuses the same
      recorded - first >= SMALL_OBJECT_KEYS
    ) {
      // Escaped keys compare equal only after unescaping, and large objects would cost a
      // quadratic number of comparisons: both are left to the reader's count. (A key outside
      // any object is not JSON, and is left to the parser.)
      keysCompared = false;
      continue;
    }
    // Without escapes, two keys are equal exactly when their text is.
    if (!repeatedKey) repeatedKey = isRecorded(text, first, recorded, open + 1, end);
    keyStart[recorded] = open + 1;
    keyEnd[recorded] = end;
    recorded++;
  }
  // Stryker disable next-line StringLiteral: the reader tests only for 'empty', 'too-deep' and 'not-json'
  return { kind: 'scanned', keys, loneSurrogate, keysCompared, repeatedKey };
}

/** Index of the first backslash at or after `from`, or the text's length if there is none. */
function nextBackslash(text: string, from: number): number {
  const at = text.indexOf('\\', from);
  return at === -1 ? text.length : at;
}

/** Whether text[from, to) equals one of the keys recorded in entries [first, last). */
function isRecorded(text: string, first: number, last: number, from: number, to: number): boolean {
  const length = to - from;
  for (let k = first; k < last; k++) {
    const start = keyStart[k] ?? 0;
    if ((keyEnd[k] ?? 0) - start !== length) continue;
    let same = true;
    for (let c = 0; c < length; c++) {
      if (text.charCodeAt(start + c) !== text.charCodeAt(from + c)) {
        same = false;
        break;
      }
    }
    if (same) return true;
  }
  return false;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= LOW_SURROGATE_FIRST && unit <= LOW_SURROGATE_LAST;
}
