/**
 * The JSON-RPC 2.0 envelope as MCP uses it, and the one function that sorts a decoded object
 * into a request, a notification, or a refusal. A refusal here is an error response; when the
 * id could not be read it carries no `id` at all (never `null`), so a client cannot mistake it
 * for the answer to one of its own requests.
 */
import { INVALID_PARAMS, INVALID_REQUEST } from './codes.js';

export type RequestId = string | number;

export interface JsonRpcRequest {
  readonly jsonrpc: '2.0';
  readonly id: RequestId;
  readonly method: string;
  readonly params?: Record<string, unknown>;
}

export interface JsonRpcNotification {
  readonly jsonrpc: '2.0';
  readonly method: string;
  readonly params?: Record<string, unknown>;
}

export interface JsonRpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

export interface JsonRpcSuccess {
  readonly jsonrpc: '2.0';
  readonly id: RequestId;
  readonly result: Record<string, unknown>;
}

export interface JsonRpcError {
  readonly jsonrpc: '2.0';
  readonly id?: RequestId;
  readonly error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcSuccess | JsonRpcError;
export type OutgoingMessage = JsonRpcResponse | JsonRpcNotification;

export type Classified =
  | { readonly kind: 'request'; readonly message: JsonRpcRequest }
  | { readonly kind: 'notification'; readonly message: JsonRpcNotification }
  | { readonly kind: 'refused'; readonly response: JsonRpcError };

const ENVELOPE_MEMBERS = new Set(['jsonrpc', 'id', 'method', 'params', '_meta', 'result', 'error']);

export function errorResponse(
  id: RequestId | undefined,
  code: number,
  message: string,
  data?: unknown,
): JsonRpcError {
  const error: JsonRpcErrorObject = data === undefined ? { code, message } : { code, message, data };
  return id === undefined ? { jsonrpc: '2.0', error } : { jsonrpc: '2.0', id, error };
}

/** An id survives the round trip only as a string or a safe integer: 2^53 and beyond would come back changed. */
export function isValidId(id: unknown): id is RequestId {
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id));
}

function hasOwn(object: object, key: string): boolean {
  return Object.hasOwn(object, key);
}

function invalid(id: RequestId | undefined, rule: string): Classified {
  return { kind: 'refused', response: errorResponse(id, INVALID_REQUEST, `Invalid request: ${rule}`) };
}

export function classify(message: Record<string, unknown>): Classified {
  const idPresent = hasOwn(message, 'id');
  const id = idPresent && isValidId(message['id']) ? message['id'] : undefined;

  if (message['jsonrpc'] !== '2.0') return invalid(id, 'jsonrpc must be "2.0"');
  if (idPresent && id === undefined) {
    return invalid(undefined, 'id must be a string or an integer within ±(2^53 - 1)');
  }
  if (!hasOwn(message, 'method')) {
    if (hasOwn(message, 'result') || hasOwn(message, 'error')) {
      // Answering a stray response with its own id would look like the answer to one of the
      // client's requests, so this refusal carries no id.
      return invalid(undefined, 'a JSON-RPC response is not accepted from the client');
    }
    return invalid(id, 'method is missing');
  }
  if (typeof message['method'] !== 'string') return invalid(id, 'method must be a string');
  if (hasOwn(message, 'result') || hasOwn(message, 'error')) {
    return invalid(id, 'a message cannot be both a request and a response');
  }
  for (const key of Object.keys(message)) {
    if (!ENVELOPE_MEMBERS.has(key))
      return invalid(id, 'the message has a member JSON-RPC 2.0 does not define');
  }
  const params = message['params'];
  if (hasOwn(message, 'params') && (typeof params !== 'object' || params === null || Array.isArray(params))) {
    return {
      kind: 'refused',
      response: errorResponse(id, INVALID_PARAMS, 'Invalid params: params must be an object'),
    };
  }
  const method = message['method'];
  if (id === undefined) {
    // A notification cannot be answered; a top-level `_meta` on one is simply never read.
    return params === undefined
      ? { kind: 'notification', message: { jsonrpc: '2.0', method } }
      : {
          kind: 'notification',
          message: { jsonrpc: '2.0', method, params: params as Record<string, unknown> },
        };
  }
  if (hasOwn(message, '_meta')) {
    return {
      kind: 'refused',
      response: errorResponse(
        id,
        INVALID_PARAMS,
        'Invalid params: _meta belongs in params._meta; a top-level _meta is not read',
      ),
    };
  }
  return params === undefined
    ? { kind: 'request', message: { jsonrpc: '2.0', id, method } }
    : { kind: 'request', message: { jsonrpc: '2.0', id, method, params: params as Record<string, unknown> } };
}
