/**
 * `palisade-mcp/wire`: what a server and a client of MCP both read and write, in one place that
 * both import (docs/wire.md). Bytes in: the bounded JSON reader and the stdio framer, each
 * answering a value or a refusal naming its rule, never throwing on input. Bytes out: the checked
 * encoder. Between them: the JSON-RPC envelope and the catalogue of its error codes, the
 * revisions and their `_meta` keys, the MCP headers of a Streamable HTTP request and how their
 * values are written, and the bounds all of it is read under. It loads nothing of the server (no
 * catalog, no validator, no transport): the layering census keeps this folder below every other
 * part of the package.
 */

export { MAX_JSON_DEPTH, MAX_LEGACY_HEADER_LINES, MAX_MESSAGE_BYTES } from '../limits.js';
export {
  type HandshakeRevision,
  isHandshakeRevision,
  isRevision,
  LEGACY_REVISION,
  META_CLIENT_CAPABILITIES,
  META_CLIENT_INFO,
  META_LOG_LEVEL,
  META_PROTOCOL_VERSION,
  META_SERVER_INFO,
  META_SUBSCRIPTION_ID,
  MODERN_REVISION,
  type Revision,
} from '../revisions.js';
export {
  HEADER_MISMATCH,
  INTERNAL_ERROR,
  INVALID_PARAMS,
  INVALID_REQUEST,
  type JsonRpcErrorCode,
  METHOD_NOT_FOUND,
  MISSING_CLIENT_CAPABILITY,
  PARSE_ERROR,
  RESOURCE_NOT_FOUND,
  SERVER_BUSY,
  UNSUPPORTED_PROTOCOL_VERSION,
} from './codes.js';
export { type EncodeResult, encodeMessage } from './encode.js';
export { decodeHeaderValue, encodeHeaderValue } from './header-value.js';
export { readJsonDocument, readJsonMessage, readJsonValue, repeatedKeyOf } from './json-reader.js';
export {
  type Classified,
  classify,
  errorResponse,
  isValidId,
  type JsonRpcError,
  type JsonRpcErrorObject,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type JsonRpcSuccess,
  type OutgoingMessage,
  type RequestId,
} from './jsonrpc.js';
export { type McpHeaderField, type McpHeaderFields, readMcpHeaderFields } from './mcp-header-fields.js';
export {
  METHOD_HEADER,
  mcpNameSource,
  mcpRequestHeaders,
  NAME_HEADER,
  PARAM_HEADER_PREFIX,
  PROTOCOL_VERSION_HEADER,
} from './mcp-headers.js';
export type { FramingRule, JsonRule, ReadResult, WireRefusal, WireRule } from './refusal.js';
export { type Frame, type Framing, StdioFramer, type StdioFramerOptions } from './stdio-framer.js';
