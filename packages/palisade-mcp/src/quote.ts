/**
 * Text from outside Palisade's own code (a client's Host header, a host's misspelt tool name)
 * quoted for a message or a log line: cut to a bound, JSON-escaped, and everything outside
 * printable ASCII written as `\uXXXX`, so a quoted value can neither break a log line, forge
 * another, carry a control character, nor grow without bound. A cut is marked with `…` after the
 * closing quote, where the value itself cannot put one.
 */

/** The text JSON-escaped, with every code unit outside printable ASCII as `\uXXXX`. */
export function escapeText(text: string): string {
  return JSON.stringify(text)
    .slice(1, -1)
    .replace(/[^\x20-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `"text"`, or `"first max code units"…` when longer. */
export function quoted(text: string, max: number): string {
  return text.length <= max ? `"${escapeText(text)}"` : `"${escapeText(text.slice(0, max))}"…`;
}
