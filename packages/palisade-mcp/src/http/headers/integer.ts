/**
 * An integer header value (`Mcp-Param-*` of an `integer` property) read as a number, from one
 * strict literal grammar: a JSON number without exponent whose fraction, if any, is all zeros.
 * The spec asks servers to compare integers as numbers so `42.0` equals `42` (SEP-2243); the
 * grammar is narrow so that every accepted spelling means the same integer to every reader:
 * - `42`, `-7`, `0`, `42.0`, `42.000` and `-0` (0, as JSON reads it) are accepted;
 * - `+42`, `042` (octal to some readers, and not JSON), `0x2A`, `4.2e1`, `42.`, `.5`, `42.5`,
 *   `4_2`, inner spaces and the empty value are not;
 * - nothing beyond ±(2^53 − 1) is accepted: past it two integers share one double.
 * A fraction of zeros is checked as text, never parsed: `42.0000000000000001` parses to 42.
 */

/** Anchored, and each part can end only one way, so a refusal is linear in the value. */
const LITERAL = /^-?(?:0|[1-9][0-9]*)(?:\.0+)?$/;

/** The integer `text` spells, or `undefined` when it is not a strict literal of a safe integer. */
export function parseStrictInteger(text: string): number | undefined {
  if (!LITERAL.test(text)) return undefined;
  // The grammar leaves only digits, a sign and zeros after a point: Number reads them as JSON
  // would, and an integer part past 2^53 − 1 comes back unsafe (rounded, or Infinity).
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}
