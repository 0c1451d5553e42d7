/**
 * Sets of code points as sorted, disjoint, non-adjacent inclusive ranges flattened into one
 * array: `[lo0, hi0, lo1, hi1, ...]`. Every character the pattern engine consumes is tested
 * against one of these (or against a native single-character class, see `linear-regex-alphabet.ts`).
 */

export type Ranges = readonly number[];

export const MAX_CODE_POINT = 0x10ffff;

/** Sorts and merges overlapping or touching pairs so that equal sets have equal arrays. */
export function normalizeRanges(pairs: readonly number[]): number[] {
  const order: [number, number][] = [];
  for (let i = 0; i < pairs.length; i += 2) order.push([pairs[i]!, pairs[i + 1]!]);
  order.sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [lo, hi] of order) {
    const last = out.length - 1;
    if (last > 0 && lo <= out[last]! + 1) {
      if (hi > out[last]!) out[last] = hi;
    } else {
      out.push(lo, hi);
    }
  }
  return out;
}

export function complementRanges(set: Ranges): number[] {
  const out: number[] = [];
  let next = 0;
  for (let i = 0; i < set.length; i += 2) {
    if (set[i]! > next) out.push(next, set[i]! - 1);
    next = set[i + 1]! + 1;
  }
  if (next <= MAX_CODE_POINT) out.push(next, MAX_CODE_POINT);
  return out;
}

/** Binary search: is `cp` inside one of the ranges? */
export function rangesContain(set: Ranges, cp: number): boolean {
  let lo = 0;
  let hi = (set.length >> 1) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < set[2 * mid]!) hi = mid - 1;
    else if (cp > set[2 * mid + 1]!) lo = mid + 1;
    else return true;
  }
  return false;
}

/** `\d`: ASCII digits only, in every ECMAScript mode. */
export const DIGIT: Ranges = [0x30, 0x39];

/** `\w` without the `i` flag: the 63 ASCII word characters, which are also what `\b` looks at. */
export const WORD: Ranges = [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];

/**
 * `\s`: ECMA-262 WhiteSpace (TAB, VT, FF, ZWNBSP and the Unicode `Zs` category) plus
 * LineTerminator (LF, CR, LS, PS). A test compares this table with the native `\s` on every
 * code point, so a Unicode update that moves a character into `Zs` is caught.
 */
export const SPACE: Ranges = [
  0x09, 0x0d, 0x20, 0x20, 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x202f, 0x205f,
  0x205f, 0x3000, 0x3000, 0xfeff, 0xfeff,
];

/** `.` without the `s` flag: every code point but the four line terminators. */
export const DOT: Ranges = complementRanges([0x0a, 0x0a, 0x0d, 0x0d, 0x2028, 0x2029]);
