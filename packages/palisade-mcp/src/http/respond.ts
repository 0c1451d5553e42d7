/**
 * Writing answers: the status a core answer gets, and its bytes. Every body is built by
 * `encodeMessage` from values we chose or the core built; headers are constants or the host's own
 * (checked) values, never a request header echoed back.
 */

import type { ServerResponse } from 'node:http';
import { Http2ServerResponse, constants as http2Constants } from 'node:http2';
import type { AnswerStage } from '../protocol/core.js';
import {
  HEADER_MISMATCH,
  METHOD_NOT_FOUND,
  MISSING_CLIENT_CAPABILITY,
  UNSUPPORTED_PROTOCOL_VERSION,
} from '../wire/codes.js';
import type { JsonRpcResponse, OutgoingMessage } from '../wire/jsonrpc.js';
import { errorResponse } from '../wire/jsonrpc.js';
import { lingeringClose } from './linger.js';
import type { HttpRefusal } from './refusals.js';

const ALWAYS_400 = new Set([HEADER_MISMATCH, MISSING_CLIENT_CAPABILITY, UNSUPPORTED_PROTOCOL_VERSION]);

/**
 * The HTTP status of a core answer (spec §4.5, spec-notes item 13): an envelope error is the
 * client's fault (400, and 404 for an unknown method); a method's own error, a host fault
 * included, is still a delivered JSON-RPC answer (200), since the official SDK 2.x client reads
 * any 5xx on a POST as a failed transport. The three codes the spec pins to 400 stay 400.
 */
export function statusOf(response: JsonRpcResponse | undefined, stage: AnswerStage): number {
  // Stryker disable next-line ConditionalExpression: every caller has answered a message without a response (202) before asking
  if (response === undefined) return 202;
  if (!('error' in response)) return 200;
  const code = response.error.code;
  if (ALWAYS_400.has(code)) return 400;
  if (stage === 'envelope') return code === METHOD_NOT_FOUND ? 404 : 400;
  return 200;
}

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
    // Stryker disable next-line StringLiteral: Buffer.byteLength reads '' as UTF-8
    'content-length': String(Buffer.byteLength(text, 'utf8')),
  });
  endWith(res, text);
}

/** Above this many characters the last text of an answer is written in slices of this many bytes. */
const SLICE_BYTES = 65_536;

/**
 * Ends `res` with `text`: at once when it is short, else a slice at a time, the next slice once
 * the last has drained. A client reading a large answer slowly but steadily then shows its progress
 * as 'drain' events, which the drain deadline counts as bytes taken (sse-writer.ts); written as
 * one chunk it would show none until the last byte, and a 16 MiB answer (a JSON one, or a
 * stream's last event) read at a steady pace would be cut at the deadline.
 */
export function endWith(res: ServerResponse, text: string): void {
  if (text.length <= SLICE_BYTES) res.end(text);
  // Stryker disable next-line StringLiteral: Buffer.from reads '' as UTF-8
  else writeSlices(res, Buffer.from(text, 'utf8'), 0);
}

function writeSlices(res: ServerResponse, bytes: Buffer, from: number): void {
  let start = from;
  while (!res.destroyed) {
    const end = start + SLICE_BYTES;
    // Stryker disable next-line EqualityOperator: at equality the mutant writes the last slice, then ends with no bytes: the same bytes
    if (end >= bytes.length) {
      res.end(bytes.subarray(start));
      return;
    }
    const flowing = res.write(bytes.subarray(start, end));
    start = end;
    if (!flowing) {
      res.once('drain', () => writeSlices(res, bytes, start));
      return;
    }
  }
}

export function writeEmpty(res: ServerResponse, status: number): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'content-length': '0' });
  res.end();
}

/**
 * A refusal body carries no id: it answers no particular message. An early refusal closes the
 * connection without waiting for the body: once the answer is flushed the connection is closed
 * as linger.ts says, reading and dropping what the client still sends for at most LINGER_MS.
 *
 * Over HTTP/2 (`node:http2` compatibility objects, handed here as `ServerResponse`) there is no
 * connection to close per request and a `Connection` header is malformed (Node throws on it): the
 * response ends the stream and, if the client is still sending, RST_STREAM(NO_ERROR) asks it to
 * stop, as RFC 9113 §8.1 allows after a complete response. Other streams on the session go on.
 */
export function writeRefusal(
  res: ServerResponse,
  refusal: HttpRefusal,
  headers: Readonly<Record<string, string>> = {},
): void {
  const text = JSON.stringify(errorResponse(undefined, refusal.code, refusal.message));
  if (refusal.early && isHttp2(res)) {
    const stream = (res as unknown as Http2ServerResponse).stream;
    writeJson(res, refusal.status, text, headers);
    // Only while the client is still sending (Node closes an unread stream itself). `close` waits
    // for the response's own END_STREAM before the RST_STREAM goes out.
    // Stryker disable next-line LogicalOperator,ConditionalExpression: same frames; Node closes an unread ended stream itself
    if (!stream.closed && stream.state.remoteClose === 0) stream.close(http2Constants.NGHTTP2_NO_ERROR);
  } else if (refusal.early) {
    res.once('finish', () => lingeringClose(res.req.socket));
    writeJson(res, refusal.status, text, { ...headers, connection: 'close' });
  } else {
    writeJson(res, refusal.status, text, headers);
  }
}

/**
 * A CORS preflight's 204, with no body (RFC 9110 §15.3.5: no Content-Length either). Browsers send
 * a preflight with none; one that declares a body is answered as an early refusal is, without
 * reading it: the connection closed (HTTP/2: the stream stopped), never drained on its behalf.
 */
export function writePreflight(
  res: ServerResponse,
  headers: Readonly<Record<string, string>>,
  bodyDeclared: boolean,
): void {
  // Stryker disable next-line LogicalOperator,ConditionalExpression: CORS setHeader threw if the head was sent; destroyed: silent
  if (res.headersSent || res.destroyed) return;
  if (bodyDeclared && isHttp2(res)) {
    const stream = (res as unknown as Http2ServerResponse).stream;
    res.writeHead(204, headers);
    res.end();
    // A bodiless answer is only queued by end(): on Node 22 and 26 a close in the same tick sends
    // the RST_STREAM first and the client never sees the 204 (Node 20 and 24 deliver it). The
    // next turn of the loop has the HEADERS frame written.
    setImmediate(() => {
      // Stryker disable next-line LogicalOperator,ConditionalExpression: same frames; close() on a stream already closed does nothing
      if (!stream.closed && stream.state.remoteClose === 0) stream.close(http2Constants.NGHTTP2_NO_ERROR);
    });
  } else if (bodyDeclared) {
    res.once('finish', () => lingeringClose(res.req.socket));
    res.writeHead(204, { ...headers, connection: 'close' });
    res.end();
  } else {
    res.writeHead(204, headers);
    res.end();
  }
}

/**
 * An `Http2ServerResponse` passed through the handler's `ServerResponse`-typed path. Decided by
 * the object, never by `httpVersionMajor`: Node's HTTP/1.1 parser accepts a request line saying
 * `HTTP/2.0`, and trusting it would treat a socket as a stream.
 */
export function isHttp2(res: ServerResponse): boolean {
  return (res as unknown) instanceof Http2ServerResponse;
}

export const SSE_HEADERS = Object.freeze({
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
});

export function sseEvent(text: string, id?: string): string {
  // JSON text never holds a raw newline, so one `data:` line carries the whole message. An id
  // (sessions: resumable streams) is the event store's, visible ASCII with no line break.
  return id === undefined
    ? `event: message\ndata: ${text}\n\n`
    : `id: ${id}\nevent: message\ndata: ${text}\n\n`;
}

export type { OutgoingMessage };
