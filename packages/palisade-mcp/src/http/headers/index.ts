/**
 * The header module: how the HTTP transports read a request's header lines and hold the MCP
 * headers to the body. Every other file of `src/http` imports it through here (a census holds
 * that), so its files can be cut differently without touching a caller.
 *
 * - values.ts: one index of every header line by ASCII-lowered name, repeats kept apart;
 * - text.ts: a value's text without surrounding OWS, and the visible-ASCII rule;
 * - match.ts: `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*` against the body;
 * - check.ts: the outcome of that match and the one wording of its refusals;
 * - sentinel.ts, integer.ts: the `=?base64?…?=` values and the integer grammar `Mcp-Param-*` uses.
 */
export type { HeaderCheck } from './check.js';
export {
  checkCarriedHeaders,
  checkLegacyVersionHeader,
  checkModernHeaders,
  type ModernHeaderInput,
  PROTOCOL_VERSION_LOWER,
} from './match.js';
export { headerText, trimOws } from './text.js';
export { asciiLowerCase, type HeaderIndex, headerValues, indexHeaders, valuesOf } from './values.js';
