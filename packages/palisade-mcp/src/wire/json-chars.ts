/** UTF-16 code units the JSON scanners compare against, named once. */

export const TAB = 0x09;
export const LINE_FEED = 0x0a;
export const CARRIAGE_RETURN = 0x0d;
export const SPACE = 0x20;
export const QUOTE = 0x22;
export const DIGIT_ZERO = 0x30;
export const DIGIT_NINE = 0x39;
export const COLON = 0x3a;
export const OPEN_BRACKET = 0x5b;
export const BACKSLASH = 0x5c;
export const CLOSE_BRACKET = 0x5d;
export const LOWER_A = 0x61;
export const LOWER_F = 0x66;
export const LOWER_U = 0x75;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;

export const HIGH_SURROGATE_FIRST = 0xd800;
export const HIGH_SURROGATE_LAST = 0xdbff;
export const LOW_SURROGATE_FIRST = 0xdc00;
export const LOW_SURROGATE_LAST = 0xdfff;

/** The four characters JSON calls whitespace; U+00A0, form feed and the rest are not. */
export function isJsonWhitespace(code: number): boolean {
  return code === SPACE || code === LINE_FEED || code === CARRIAGE_RETURN || code === TAB;
}
