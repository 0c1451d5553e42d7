/**
 * What Node's HTTP/1.1 parser refuses before any handler runs: a malformed request line or header,
 * a head over `maxHeaderSize`, a head or request past its deadline, data sent after the client's
 * own `Connection: close`. Node answers these itself (a bare 400, 431, 413 or 408) and tells
 * nobody, even writing over an answer in flight; here each is a named refusal with a JSON-RPC body,
 * published and logged like every other (raw-refusal.ts), so an operator alerting on attack
 * patterns sees these too. It is written whenever no answer is being written on the connection:
 * after a served request on a kept-alive connection as on a fresh one, and after the answers to
 * requests parsed before the bad one; never after an answer that closed the connection, which was
 * its last (so bytes sent after the client's own close get nothing, as RFC 9112 §9.6 has it).
 * A reset, or a connection closed mid-request, is the client leaving, not a refusal.
 */

import type { Duplex } from 'node:stream';
import type { HttpTransportRule } from '../../telemetry/refusal-rules.js';
import { INVALID_REQUEST } from '../../wire/codes.js';
import type { HttpLogEvent } from '../http-options.js';
import type { HttpRefusal } from '../refusals.js';
import { refuseOnSocket } from './raw-refusal.js';

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

/** For `server.on('clientError', ...)`: Node's own listener does the same, minus the body, the name and the order. */
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
  refuseOnSocket(socket, (error.code === undefined ? undefined : BY_CODE[error.code]) ?? MALFORMED, onLog);
}
