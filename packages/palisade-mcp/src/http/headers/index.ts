/**
 * The header module: how the HTTP transports read a request's header lines and hold the MCP
 * headers to the body. Every other file of `src/http` imports it through here (a census holds
 * that), so its files can be cut differently without touching a caller.
 *
 * - values.ts: one index of every header line by ASCII-lowered name, repeats kept apart;
 * - text.ts: a value's text without surrounding OWS, and the visible-ASCII rule;
 * - match.ts: `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*` against the body;
 * - check.ts: the outcome of that match and the one wording of its refusals;
 * - integer.ts: the integer grammar an `Mcp-Param-*` header is read with.
 * What a client must write (the header names, which member `Mcp-Name` mirrors, the
 * `=?base64?…?=` value encoding) is the wire's, shared with clients: wire/mcp-headers.ts,
 * wire/header-value.ts.
 */
export type { HeaderCheck } from './check.js';
export {
  checkCarriedHeaders,
  checkModernHeaders,
  type ModernHeaderInput,
  PROTOCOL_VERSION_LOWER,
  readVersionHeader,
  type VersionHeader,
} from './match.js';
export { headerText, trimOws } from './text.js';
export { asciiLowerCase, type HeaderIndex, headerValues, indexHeaders, valuesOf } from './values.js';
