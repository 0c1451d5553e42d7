/**
 * Every JSON-RPC error code Palisade answers, named once. The five JSON-RPC 2.0 defines, the
 * codes MCP adds, and the one server-error code Palisade chose. Every refusal table in the
 * packages uses these names (a census holds it: no other file writes a code's number), and a
 * client matches on the same names, so neither side spells a number by hand.
 */

/** The bytes are not JSON (or not UTF-8): nothing of the message could be read. */
export const PARSE_ERROR = -32700;
/** JSON, but not a request the envelope or the transport accepts (too large, too deep, a batch, ...). */
export const INVALID_REQUEST = -32600;
/** A method the revision in force does not define, or Palisade does not serve. */
export const METHOD_NOT_FOUND = -32601;
/** The method is known; its params, or the `_meta` it needs, are not what it takes. */
export const INVALID_PARAMS = -32602;
/** A fault on the server's side; the client is told nothing more. */
export const INTERNAL_ERROR = -32603;
/** From the implementation-defined server-error range: a bound on the server's side is full. */
export const SERVER_BUSY = -32000;
/** A `resources/read` of a URI nobody serves, on the handshake revisions (2026-07-28 must not emit it). */
export const RESOURCE_NOT_FOUND = -32002;
/** An MCP request header disagrees with the body it travels with. */
export const HEADER_MISMATCH = -32020;
/** The request needs a client capability it did not declare (`data.requiredCapabilities`). */
export const MISSING_CLIENT_CAPABILITY = -32021;
/** The request names a protocol revision not served here (`data.supported` lists those that are). */
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/** A code Palisade sends in a JSON-RPC error. */
export type JsonRpcErrorCode =
  | typeof PARSE_ERROR
  | typeof INVALID_REQUEST
  | typeof METHOD_NOT_FOUND
  | typeof INVALID_PARAMS
  | typeof INTERNAL_ERROR
  | typeof SERVER_BUSY
  | typeof RESOURCE_NOT_FOUND
  | typeof HEADER_MISMATCH
  | typeof MISSING_CLIENT_CAPABILITY
  | typeof UNSUPPORTED_PROTOCOL_VERSION;
