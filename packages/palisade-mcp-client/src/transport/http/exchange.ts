/**
 * How one HTTP answer to a POSTed message is read: 202 for a notification or a response; JSON or
 * SSE for a request; a JSON-RPC error body on a 4xx (the way a 2026-07-28 server refuses a
 * version or a header) delivered as the answer it is; anything else a named error. Every body is
 * read under its bound, and no byte of a refused body is quoted.
 */
import { readJsonMessage } from 'palisade-mcp/wire';
import { ClientError } from '../../errors.js';
import { MAX_ERROR_BODY_BYTES, MAX_MESSAGE_BYTES } from '../../limits.js';
import type { OutboundResponse } from '../../net/outbound.js';
import { mediaType, readBounded } from './body.js';
import { refusedMessage } from './sse-stream.js';

/** Reads a JSON body holding one message; refuses it by rule otherwise. */
export async function readJsonBody(
  response: OutboundResponse,
  max: number = MAX_MESSAGE_BYTES,
): Promise<Record<string, unknown>> {
  const bytes = await readBounded(response.body, response.headers, max);
  const read = readJsonMessage(bytes);
  if (!read.ok) throw refusedMessage(read.refusal.rule, read.refusal.message);
  return read.value;
}

export function statusError(status: number, what: string): ClientError {
  return new ClientError('PALISADE_CLIENT_ERR_HTTP_STATUS', `the server answered HTTP ${status} to ${what}`, {
    status,
  });
}

/**
 * The JSON-RPC error a 4xx carries, if it is one: a JSON body holding an `error` member. Read
 * under MAX_ERROR_BODY_BYTES; a body that is not one is drained and undefined returned.
 */
export async function errorBodyOf(response: OutboundResponse): Promise<Record<string, unknown> | undefined> {
  if (mediaType(response.headers) !== 'application/json') {
    await response.body.dump({ limit: MAX_ERROR_BODY_BYTES }).catch(() => {});
    return undefined;
  }
  try {
    const message = await readJsonBody(response, MAX_ERROR_BODY_BYTES);
    const error = message['error'];
    return typeof error === 'object' && error !== null && !Array.isArray(error) ? message : undefined;
  } catch {
    return undefined;
  }
}

export function headerText(headers: OutboundResponse['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
