/**
 * The JSON-RPC error objects Palisade sends, each with a fixed message naming the rule. None of
 * them carries the client's bytes, a stack or a host value: only constants and our own numbers.
 */
export { MAX_ECHOED_URI_CHARS, MAX_ECHOED_VERSION_CHARS } from '../limits.js';

import { errorResponse, type JsonRpcError, type RequestId } from '../wire/jsonrpc.js';

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
/** Resource not found on the handshake revisions; a 2026-07-28 server must not emit it. */
export const RESOURCE_NOT_FOUND_LEGACY = -32002;
export const HEADER_MISMATCH = -32020;
export const MISSING_CLIENT_CAPABILITY = -32021;
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

export function invalidParams(id: RequestId, rule: string, data?: unknown): JsonRpcError {
  return errorResponse(id, INVALID_PARAMS, `Invalid params: ${rule}`, data);
}

export function methodNotFound(id: RequestId): JsonRpcError {
  return errorResponse(id, METHOD_NOT_FOUND, 'Method not found');
}

export function internalError(id: RequestId | undefined): JsonRpcError {
  return errorResponse(id, INTERNAL_ERROR, 'Internal error');
}

/** -32021: the request needs a client capability it did not declare; `data.requiredCapabilities` names what is lacked. */
export function missingClientCapability(
  id: RequestId,
  requiredCapabilities: Record<string, unknown>,
): JsonRpcError {
  return errorResponse(id, MISSING_CLIENT_CAPABILITY, 'Missing required client capability', {
    requiredCapabilities,
  });
}
