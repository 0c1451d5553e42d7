/**
 * Writing answers. Every body is built by `encodeMessage` from values we chose or the core built;
 * headers are constants or the host's own (checked) values, never a request header echoed back.
 */
import type { ServerResponse } from 'node:http';
import type { OutgoingMessage } from '../protocol/jsonrpc.js';
import { errorResponse } from '../protocol/jsonrpc.js';
import type { HttpRefusal } from './refusals.js';

/** Header values the host hands us (`WWW-Authenticate`, `Retry-After`): visible ASCII, spaces and tabs only. */
const SAFE_HEADER_VALUE = /^[\t\x20-\x7e]{1,4096}$/;

export function isSafeHeaderValue(value: unknown): value is string {
  return typeof value === 'string' && SAFE_HEADER_VALUE.test(value);
}

export function writeJson(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text, 'utf8')),
  });
  res.end(text);
}

export function writeEmpty(res: ServerResponse, status: number): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'content-length': '0' });
  res.end();
}

/**
 * A refusal body carries no id: it answers no particular message. An early refusal closes the
 * connection without reading the body: once the answer is flushed the socket is destroyed, so
 * Node does not drain (read) the unread body as it would for keep-alive.
 */
export function writeRefusal(
  res: ServerResponse,
  refusal: HttpRefusal,
  headers: Readonly<Record<string, string>> = {},
): void {
  const text = JSON.stringify(errorResponse(undefined, refusal.code, refusal.message));
  if (refusal.early) {
    res.once('finish', () => res.req.socket.destroy());
    writeJson(res, refusal.status, text, { ...headers, connection: 'close' });
  } else {
    writeJson(res, refusal.status, text, headers);
  }
}

export const SSE_HEADERS = Object.freeze({
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
});

export function sseEvent(text: string): string {
  // JSON text never holds a raw newline, so one `data:` line carries the whole message.
  return `event: message\ndata: ${text}\n\n`;
}

export type { OutgoingMessage };
