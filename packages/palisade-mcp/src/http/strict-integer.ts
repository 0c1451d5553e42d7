/**
 * An integer header value (`Mcp-Param-*` of an `integer` property) read as a number, from one
 * strict literal grammar: a JSON number without exponent whose fraction, if any, is all zeros.
 * The spec asks servers to compare integers as numbers so `42.0` equals `42` (SEP-2243); the
 * grammar is narrow so that every accepted spelling means the same integer to every reader:
 * - `42`, `-7`, `0`, `42.0`, `42.000`, `-0` (equal to 0, as JSON reads it) are accepted;
 * - `+42`, `042` (octal to some readers, and not JSON), `0x2A`, `4.2e1`, `42.`, `.5`, `42.5`,
 *   `1_000`, inner spaces and the empty value are not;
 * - nothing beyond ±(2^53 − 1) is accepted: past it two integers share one double.
 * A fraction of zeros is checked as text, never parsed: `42.0000000000000001` parses to 42.
 */

const LITERAL = /^-?(0|[1-9][0-9]*)(?:\.0+)?$/;

/** Digits of Number.MAX_SAFE_INTEGER (9007199254740991); a longer integer part is out of range. */
const MAX_SAFE_DIGITS = 16;

/** The integer `text` spells, or `undefined` when it is not a strict literal of a safe integer. */
export function parseStrictInteger(text: string): number | undefined {
  const match = LITERAL.exec(text);
  const digits = match?.[1];
  if (digits === undefined || digits.length > MAX_SAFE_DIGITS) return undefined;
  // Up to 16 digits parse exactly while safe; an unsafe one parses to 2^53 or more and is refused.
  const magnitude = Number(digits);
  if (!Number.isSafeInteger(magnitude)) return undefined;
  // `-0` comes back as 0, so no caller can tell the two apart with Object.is.
  return text.startsWith('-') && magnitude !== 0 ? -magnitude : magnitude;
}
