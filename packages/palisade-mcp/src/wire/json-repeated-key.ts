/**
 * Repeated keys. `JSON.parse` keeps the last of two equal keys without a word, so a message
 * could say one thing to a proxy that keeps the first and another to us. The pre-scan compares
 * the keys of small objects itself; for the rest, countParsedKeys counts the own properties of
 * the parsed tree, and the reader compares that with the number of keys the scan saw in the text
 * (only a repeat makes them differ). findRepeatedKey runs only once a repeat is known, to name it.
 */
import { MAX_REFUSAL_KEY_CHARS } from '../limits.js';
import {
  BACKSLASH,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON,
  HIGH_SURROGATE_FIRST,
  HIGH_SURROGATE_LAST,
  isJsonWhitespace,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
} from './json-chars.js';

const pendingNodes: object[] = [];

/**
 * Own properties of every object in a parsed JSON tree, walked with an explicit stack. Counts,
 * not positions: V8 lists integer-like keys first, so the parsed order is not the text's order.
 */
export function countParsedKeys(root: unknown): number {
  if (
    typeof root !== 'object' ||
    // Stryker disable next-line ConditionalExpression: a null root is walked and has no keys either
    root === null
  )
    return 0;
  // `for...in` is the fastest way to visit an object's keys and values in V8 (no array is
  // built), but it also lists enumerable keys inherited from Object.prototype, the prototype of
  // every parsed object. Normally there are none; if some code has added one, each key is
  // checked to be own, or the count would be inflated and could hide a repeated key.
  const ownOnly = hasEnumerableKey(Object.prototype);
  let total = 0;
  // Shared between calls to spare an allocation per message; the walk is synchronous and always
  // ends with the stack empty, so it holds no parsed value after returning.
  const pending = pendingNodes;
  pending.length = 0;
  pending.push(root);
  while (pending.length > 0) {
    const node = pending.pop() as Record<string, unknown>;
    if (Array.isArray(node)) {
      for (let k = 0; k < node.length; k++) {
        const child: unknown = node[k];
        if (
          typeof child === 'object' &&
          // Stryker disable next-line ConditionalExpression: a null child pushed has no keys to visit
          child !== null
        )
          pending.push(child);
      }
      continue;
    }
    for (const key in node) {
      if (ownOnly && !Object.hasOwn(node, key)) continue;
      total++;
      const child = node[key];
      if (
        typeof child === 'object' &&
        // Stryker disable next-line ConditionalExpression: a null child pushed has no keys to visit
        child !== null
      )
        pending.push(child);
    }
  }
  return total;
}

function hasEnumerableKey(target: object): boolean {
  for (const _ in target) return true;
  // Stryker disable next-line BooleanLiteral: checking every key with Object.hasOwn is only slower
  return false;
}

/** Index of the quote that closes the string opened at `open`: the first one not escaped. */
function closingQuote(text: string, open: number): number {
  let quote = text.indexOf('"', open + 1);
  // Stryker disable next-line UnaryOperator: at -1 the loop runs once more and returns -1 all the same
  while (quote !== -1) {
    let before = quote - 1;
    while (text.charCodeAt(before) === BACKSLASH) before--;
    // An even run of backslashes escapes itself; the quote after it is real.
    if ((quote - 1 - before) % 2 === 0) return quote;
    quote = text.indexOf('"', quote + 1);
  }
  // Stryker disable next-line UnaryOperator: unreachable, every string of accepted JSON closes
  return -1;
}

/**
 * The first key, in document order, that repeats an earlier key of the same object, compared
 * after unescaping. `text` must be JSON that `JSON.parse` accepted; `undefined` otherwise.
 */
export function findRepeatedKey(text: string): string | undefined {
  // One entry per open container: the keys seen so far in an object, `null` for an array.
  const open: (Set<string> | null)[] = [];
  // The first backslash at or after the current string, kept ahead of the scan so that telling
  // whether a key holds an escape costs no search of its own (a search per key is quadratic).
  // Stryker disable next-line StringLiteral: 0 is before every key; the first key's lookup replaces it
  let backslash = text.indexOf('\\');
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === OPEN_BRACE) {
      open.push(new Set());
    } else if (code === OPEN_BRACKET) {
      open.push(null);
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      open.pop();
    } else if (code === QUOTE) {
      const end = closingQuote(text, i);
      if (end === -1) return undefined;
      let next = end + 1;
      while (isJsonWhitespace(text.charCodeAt(next))) next++;
      if (text.charCodeAt(next) === COLON) {
        // Stryker disable next-line ConditionalExpression,EqualityOperator: a stale or extra lookup, same key
        // Stryker disable next-line LogicalOperator,UnaryOperator,StringLiteral: likewise; only speed differs
        if (backslash !== -1 && backslash < i) backslash = text.indexOf('\\', i);
        const key =
          // Stryker disable next-line LogicalOperator,UnaryOperator: a key with no escape unescapes to itself
          backslash !== -1 &&
          // Stryker disable next-line ConditionalExpression: a key with no escape unescapes to itself
          backslash < end
            ? unescapeKey(text.slice(i, end + 1))
            : text.slice(i + 1, end);
        const seen = open[open.length - 1];
        if (
          seen === undefined ||
          seen === null ||
          // Stryker disable next-line ConditionalExpression: accepted text has no key that fails to parse
          key === undefined
        )
          return undefined;
        if (seen.has(key)) return key;
        seen.add(key);
      }
      i = end;
    }
  }
  return undefined;
}

function unescapeKey(literal: string): string | undefined {
  try {
    // The literal is valid JSON (the whole text parsed), so this cannot throw; the guard is for
    // the "never throws" promise of the reader, not for an expected case.
    const key: unknown = JSON.parse(literal);
    return typeof key === 'string' ? key : undefined;
  } catch /* Stryker disable next-line BlockStatement: an empty catch returns undefined too */ {
    return undefined;
  }
}

// Characters JSON.stringify leaves raw that can still act on a terminal or a log viewer: DEL and
// the C1 controls (0x9B is a one-byte CSI), soft hyphen, Arabic letter mark, Mongolian vowel
// separator, zero-width and bidirectional controls (Trojan Source), line and paragraph
// separators, invisible operators, BOM and interlinear annotation controls.
const INVISIBLE_OR_CONTROL =
  /[\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/g;
const HEX = 16;
const ESCAPE_DIGITS = 4;

/**
 * A key as it may appear in a refusal: at most MAX_REFUSAL_KEY_CHARS UTF-16 units (one fewer
 * rather than split a surrogate pair), quoted and escaped JSON-style so it cannot carry a
 * control character, a quote that ends the name early, or an invisible reordering mark.
 */
export function renderRefusalKey(key: string): string {
  let cut = key;
  if (cut.length > MAX_REFUSAL_KEY_CHARS) {
    cut = cut.slice(0, MAX_REFUSAL_KEY_CHARS);
    const last = cut.charCodeAt(cut.length - 1);
    if (last >= HIGH_SURROGATE_FIRST && last <= HIGH_SURROGATE_LAST) cut = cut.slice(0, -1);
  }
  return JSON.stringify(cut).replace(
    INVISIBLE_OR_CONTROL,
    (char) => `\\u${char.charCodeAt(0).toString(HEX).padStart(ESCAPE_DIGITS, '0')}`,
  );
}
