/**
 * A POST body that is a JSON-RPC response: the client answering a request the server sent it on
 * a session. Read strictly: `jsonrpc`, an id as the server issues them, and exactly one of a
 * `result` object or an `error` with an integer code and a string message; nothing else.
 */
import type { JsonObject } from '../catalog/types.js';
import { isPlainObject } from '../options.js';
import { isValidId } from '../wire/jsonrpc.js';
import type { ClientReply } from './contracts.js';

const REPLY_MEMBERS = new Set(['jsonrpc', 'id', 'result', 'error']);
const ERROR_MEMBERS = new Set(['code', 'message', 'data']);

/** Whether a decoded body is shaped as a response at all (no method, a result or an error). */
export function looksLikeReply(message: Record<string, unknown>): boolean {
  return (
    !Object.hasOwn(message, 'method') && (Object.hasOwn(message, 'result') || Object.hasOwn(message, 'error'))
  );
}

/** The reply, or undefined when the body breaks the response envelope. */
export function readClientReply(message: Record<string, unknown>): ClientReply | undefined {
  if (message['jsonrpc'] !== '2.0' || !isValidId(message['id'])) return undefined;
  for (const key of Object.keys(message)) if (!REPLY_MEMBERS.has(key)) return undefined;
  const id = message['id'];
  const hasResult = Object.hasOwn(message, 'result');
  if (hasResult === Object.hasOwn(message, 'error')) return undefined;
  if (hasResult) {
    const result = message['result'];
    return isPlainObject(result) ? { id, result: result as JsonObject } : undefined;
  }
  const error = message['error'];
  if (!isPlainObject(error)) return undefined;
  for (const key of Object.keys(error)) if (!ERROR_MEMBERS.has(key)) return undefined;
  const { code, message: text } = error;
  if (typeof code !== 'number' || !Number.isSafeInteger(code) || typeof text !== 'string') return undefined;
  return Object.hasOwn(error, 'data')
    ? { id, error: { code, message: text, data: error['data'] } }
    : { id, error: { code, message: text } };
}
