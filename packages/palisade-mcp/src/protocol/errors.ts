/**
 * The JSON-RPC error objects Palisade sends, each with a fixed message naming the rule. None of
 * them carries the client's bytes, a stack or a host value: only constants and our own numbers.
 */
export { MAX_ECHOED_URI_CHARS, MAX_ECHOED_VERSION_CHARS } from '../limits.js';

import {
  INTERNAL_ERROR,
  INVALID_PARAMS,
  METHOD_NOT_FOUND,
  MISSING_CLIENT_CAPABILITY,
} from '../wire/codes.js';
import { errorResponse, type JsonRpcError, type RequestId } from '../wire/jsonrpc.js';

export function invalidParams(id: RequestId, rule: string, data?: unknown): JsonRpcError {
  return errorResponse(id, INVALID_PARAMS, `Invalid params: ${rule}`, data);
}

export function methodNotFound(id: RequestId): JsonRpcError {
  return errorResponse(id, METHOD_NOT_FOUND, 'Method not found');
}

export function internalError(id: RequestId | undefined): JsonRpcError {
  return errorResponse(id, INTERNAL_ERROR, 'Internal error');
}

/** A shared store or bus is unreachable for now (UnavailableError); HTTP answers it 503. */
export function serviceUnavailable(id: RequestId): JsonRpcError {
  return errorResponse(id, INTERNAL_ERROR, 'Service unavailable');
}

/** The request needs a client capability it did not declare; `data.requiredCapabilities` names what is lacked. */
export function missingClientCapability(
  id: RequestId,
  requiredCapabilities: Record<string, unknown>,
): JsonRpcError {
  return errorResponse(id, MISSING_CLIENT_CAPABILITY, 'Missing required client capability', {
    requiredCapabilities,
  });
}
