/**
 * What Node's HTTP/1.1 parser refuses before any handler runs: a malformed request line or header,
 * a head over `maxHeaderSize`, a head or request past its deadline. Node answers these itself (a
 * bare 400, 431 or 408) and tells nobody; `serve()` answers them the same way, with a JSON-RPC
 * refusal body like every other, and publishes each on the refusal channel, so an operator alerting
 * on attack patterns sees these too. A reset, or a connection closed mid-request, is the client
 * leaving, not a refusal.
 */

import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { HttpTransportRule } from '../../telemetry/refusal-rules.js';
import { INVALID_REQUEST } from '../../wire/codes.js';
import { errorResponse } from '../../wire/jsonrpc.js';
import type { HttpLogEvent } from '../http-options.js';
import { type HttpRefusal, publishRefusal } from '../refusals.js';

function refusal(rule: HttpTransportRule, status: number, message: string): HttpRefusal {
  return Object.freeze({ rule, status, code: INVALID_REQUEST, message, early: true });
}

const BY_CODE: Readonly<Record<string, HttpRefusal>> = Object.freeze({
  HPE_HEADER_OVERFLOW: refusal('head-too-large', 431, 'Invalid request: the request head is too large'),
  ERR_HTTP_REQUEST_TIMEOUT: refusal(
    'head-timeout',
    408,
    'Invalid request: the request did not arrive in time',
  ),
  HPE_CHUNK_EXTENSIONS_OVERFLOW: refusal(
    'malformed-request',
    413,
    'Invalid request: chunk extensions too large',
  ),
});
const LEAVING = new Set(['ECONNRESET', 'EPIPE', 'HPE_INVALID_EOF_STATE']);
const MALFORMED = refusal('malformed-request', 400, 'Invalid request: malformed HTTP request');

/** Node's own listener for `clientError` does the same, minus the body and the publishing. */
export function answerClientError(
  error: Error & { readonly code?: string },
  socket: Duplex,
  onLog: (event: HttpLogEvent) => void,
): void {
  // A reset, or a FIN before the request was complete: the client left, there is nobody to answer.
  if (error.code !== undefined && LEAVING.has(error.code)) {
    socket.destroy();
    return;
  }
  const refused = (error.code === undefined ? undefined : BY_CODE[error.code]) ?? MALFORMED;
  publishRefusal(refused);
  onLog({ kind: 'refusal', rule: refused.rule, status: refused.status });
  // As Node does: write only on a connection that has written nothing yet, so a refusal never
  // lands in the middle of an earlier answer still going out.
  if (socket.writable && (socket as Socket).bytesWritten === 0) {
    const body = JSON.stringify(errorResponse(undefined, refused.code, refused.message));
    socket.write(
      `HTTP/1.1 ${refused.status} ${STATUS_CODES[refused.status]}\r\n` +
        `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
        `connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
