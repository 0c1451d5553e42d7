/**
 * Every refusal the HTTP transport answers itself, worded once: each message is a constant, so
 * none can carry a client byte. `early` refusals are decided before the body is read; they close
 * the connection rather than read (or drain) a body on the caller's behalf.
 */

import { channel } from 'node:diagnostics_channel';
import { MAX_HEADER_LINES, MAX_MESSAGE_BYTES, MAX_PIPELINED_REQUESTS } from '../limits.js';
import { HTTP_REFUSAL_CHANNEL, type HttpRefusalEvent } from '../telemetry/channel-names.js';
import type { HostRuleName, HttpRefusalRule, HttpTransportRule } from '../telemetry/refusal-rules.js';
import {
  INTERNAL_ERROR,
  INVALID_REQUEST,
  type JsonRpcErrorCode,
  UNSUPPORTED_PROTOCOL_VERSION,
} from '../wire/codes.js';
import type { JsonRule } from '../wire/refusal.js';

const refusalChannel = channel(HTTP_REFUSAL_CHANNEL);

export interface HttpRefusal {
  readonly rule: HttpRefusalRule;
  readonly status: number;
  /**
   * `NO_ERROR_SENT` when no JSON-RPC error goes out: a response cut after its status went out, a
   * connection cut for `pipeline-too-deep`, the GOAWAY of `http2-not-served`.
   */
  readonly code: JsonRpcErrorCode | typeof NO_ERROR_SENT;
  readonly message: string;
  readonly early: boolean;
}

/** The code of a refusal that sends no JSON-RPC error: the answer's status was already on the wire. */
export const NO_ERROR_SENT = 0;

function early(
  rule: HttpTransportRule | JsonRule,
  status: number,
  code: JsonRpcErrorCode | typeof NO_ERROR_SENT,
  message: string,
): HttpRefusal {
  return Object.freeze({ rule, status, code, message, early: true });
}

export const REFUSALS = Object.freeze({
  hostRepeated: early('host-repeated', 400, INVALID_REQUEST, 'Invalid request: more than one Host header'),
  // HTTP/2: a `host` field that names another authority than `:authority` (RFC 9113 §8.3.1).
  hostAuthority: early(
    'host-authority-mismatch',
    400,
    INVALID_REQUEST,
    'Invalid request: Host disagrees with :authority',
  ),
  // HTTP/1.1: an absolute-form target (RFC 9112 §3.2.2) naming another host than `Host`; fetch:
  // a Request whose URL names another host than its `Host` field (a runtime built it from the target).
  hostTarget: early(
    'host-target-mismatch',
    400,
    INVALID_REQUEST,
    'Invalid request: Host disagrees with the request target',
  ),
  hostNotAllowed: early('host-not-allowed', 421, INVALID_REQUEST, 'Invalid request: Host not allowed'),
  // More header lines than MAX_HEADER_LINES: refused before any check reads one of them.
  headLines: early(
    'head-too-many-lines',
    431,
    INVALID_REQUEST,
    `Invalid request: the request head has more than ${MAX_HEADER_LINES} header lines`,
  ),
  // HTTP/1.1 without Host: RFC 9112 §3.2 has a server answer 400. Node answers a bare 400 itself
  // unless its server is made with `requireHostHeader: false`, as serve() makes it.
  hostMissing: early(
    'host-missing',
    400,
    INVALID_REQUEST,
    'Invalid request: an HTTP/1.1 request must carry Host',
  ),
  // An Expect naming anything but 100-continue (RFC 9110 §10.1.1); Node's own answer is a bare 417.
  expectation: early(
    'expectation-failed',
    417,
    INVALID_REQUEST,
    'Invalid request: the only expectation served is 100-continue',
  ),
  // More HTTP/1.1 requests waiting behind the answer being written than MAX_PIPELINED_REQUESTS:
  // never written (answers go out in order, and the ones before it are not done), the connection
  // is cut, so `code` is 0 as for a cut stream.
  pipelineTooDeep: early(
    'pipeline-too-deep',
    429,
    NO_ERROR_SENT,
    `Too many requests pipelined on one connection: more than ${MAX_PIPELINED_REQUESTS} waiting`,
  ),
  originNotAllowed: early('origin-not-allowed', 403, INVALID_REQUEST, 'Invalid request: Origin not allowed'),
  // `serve({ http2: false })` and a connection opening with the HTTP/2 preface: answered in
  // HTTP/2's own terms (SETTINGS, then GOAWAY(HTTP_1_1_REQUIRED)), so no JSON-RPC body: code 0.
  http2NotServed: early('http2-not-served', 505, NO_ERROR_SENT, 'HTTP/2 is not served on this port'),
  // Node's HTTP/1.1 parser accepts any HTTP/d.d request line; only 1.0 and 1.1 are HTTP/1.
  httpVersion: early('http-version', 505, INVALID_REQUEST, 'Invalid request: HTTP version not supported'),
  notFound: early('path-not-found', 404, INVALID_REQUEST, 'Invalid request: no MCP endpoint at this path'),
  method: early('method-not-allowed', 405, INVALID_REQUEST, 'Invalid request: only POST is served here'),
  // With sessions: GET opens or resumes a stream, DELETE ends a session.
  sessionMethod: early(
    'method-not-allowed',
    405,
    INVALID_REQUEST,
    'Invalid request: only GET, POST and DELETE are served here',
  ),
  // A GET or DELETE declaring a body (sessions): answered without reading it.
  bodilessBody: early(
    'session-method-body',
    400,
    INVALID_REQUEST,
    'Bad request: GET and DELETE carry no body',
  ),
  // A GET is how a client asks for a stream of server messages; the transport spec answers 405 when
  // none is offered, and clients (the official SDKs) send one at every connection. Same answer as
  // any other method, under its own rule so a log can tell this routine probe from a wrong method
  // (telemetry/transport-log.ts logs it at debug: ROUTINE_RULES).
  streamProbe: early(
    'get-stream-not-offered',
    405,
    INVALID_REQUEST,
    'Invalid request: only POST is served here',
  ),
  // A CORS preflight asking to send any method but POST: answering 204 would only defer the
  // failure to the browser, and the host's log would not say why the page failed.
  preflightMethod: early(
    'preflight-method-not-allowed',
    405,
    INVALID_REQUEST,
    'Invalid request: a preflight may only ask for POST',
  ),
  sessionPreflightMethod: early(
    'preflight-method-not-allowed',
    405,
    INVALID_REQUEST,
    'Invalid request: a preflight may only ask for GET, POST or DELETE',
  ),
  // serve()'s routes (routes.ts): a document is read with GET or HEAD, and neither carries a body.
  routeMethod: early(
    'route-method-not-allowed',
    405,
    INVALID_REQUEST,
    'Invalid request: only GET and HEAD are served here',
  ),
  routeBody: early('route-body', 400, INVALID_REQUEST, 'Invalid request: a GET or HEAD carries no body'),
  routeFault: early('route-fault', 500, INTERNAL_ERROR, 'Internal error'),
  routeTimeout: early('route-timeout', 503, INTERNAL_ERROR, 'Service unavailable'),
  badRequest: early('authorize', 400, INVALID_REQUEST, 'Bad request'),
  unauthorized: early('authorize', 401, INVALID_REQUEST, 'Unauthorized'),
  forbidden: early('authorize', 403, INVALID_REQUEST, 'Forbidden'),
  tooMany: early('authorize', 429, INVALID_REQUEST, 'Too many requests'),
  // The host's verifier could not decide (its key source is down): not the client's fault.
  unavailable: early('authorize', 503, INTERNAL_ERROR, 'Service unavailable'),
  authorizeTimeout: early('authorize-timeout', 403, INVALID_REQUEST, 'Forbidden'),
  authorizeFault: early('authorize-fault', 500, INTERNAL_ERROR, 'Internal error'),
  notAcceptable: early(
    'not-acceptable',
    406,
    INVALID_REQUEST,
    'Invalid request: Accept must admit application/json',
  ),
  mediaType: early(
    'unsupported-media-type',
    415,
    INVALID_REQUEST,
    'Invalid request: Content-Type must be application/json',
  ),
  chunked: early(
    'length-required',
    411,
    INVALID_REQUEST,
    'Invalid request: Transfer-Encoding is not accepted; send Content-Length',
  ),
  noLength: early('length-required', 411, INVALID_REQUEST, 'Invalid request: Content-Length is required'),
  tooLarge: early(
    'too-large',
    413,
    INVALID_REQUEST,
    `Invalid request: message exceeds ${MAX_MESSAGE_BYTES} bytes`,
  ),
  // Decided while reading: the body is half read, so the connection cannot be reused either.
  readTimeout: early(
    'read-timeout',
    408,
    INVALID_REQUEST,
    'Invalid request: the body did not arrive within the read deadline',
  ),
  misuse: early('body-already-read', 500, INTERNAL_ERROR, 'Internal error'),
  transportFault: early('transport-fault', 500, INTERNAL_ERROR, 'Internal error'),
  // A handshake-era request whose MCP-Protocol-Version names a revision not served over HTTP
  // (2024-11-05 included: its HTTP transport is not served); the answer lists what is.
  versionNotServed: lateRefusal(
    'protocol-version-not-served',
    400,
    UNSUPPORTED_PROTOCOL_VERSION,
    'Unsupported protocol version: the MCP-Protocol-Version header names a revision not served over HTTP',
  ),
  // A listen stream is nothing but events: a client that cannot take SSE could never read one.
  listenNeedsStream: lateRefusal(
    'listen-needs-event-stream',
    406,
    INVALID_REQUEST,
    'Invalid request: subscriptions/listen needs Accept to admit text/event-stream',
  ),
  authorizeBody: Object.freeze({
    rule: 'authorize-body',
    status: 403,
    code: INVALID_REQUEST,
    message: 'Forbidden',
    early: false,
  }),
  authorizeBodyFault: Object.freeze({
    rule: 'authorize-body-fault',
    status: 500,
    code: INTERNAL_ERROR,
    message: 'Internal error',
    early: false,
  }),
}) satisfies Record<string, HttpRefusal>;

/**
 * A response the server gave up writing because the client stopped reading it (limits.ts:
 * MAX_SSE_QUEUED_BYTES, SSE_DRAIN_TIMEOUT_MS). The status already went out, so `status` is the one
 * on the wire and `code` is 0: no JSON-RPC error is sent, the connection (HTTP/2: the stream) is
 * cut. Published and logged like any refusal; `message` is never sent. A JSON answer's refusal is
 * published with the status that answer carried.
 */
export const WRITE_REFUSALS = Object.freeze({
  sseQueueFull: lateRefusal(
    'sse-queue-full',
    200,
    NO_ERROR_SENT,
    'The client did not read the stream: too many bytes queued',
  ),
  sseDrainTimeout: lateRefusal(
    'sse-drain-timeout',
    200,
    NO_ERROR_SENT,
    'The client did not read the stream within the deadline',
  ),
  sseEventsQueued: lateRefusal(
    'sse-events-queued',
    200,
    NO_ERROR_SENT,
    'The client did not read the stream: too many events queued',
  ),
  jsonDrainTimeout: lateRefusal(
    'json-drain-timeout',
    200,
    NO_ERROR_SENT,
    'The client did not read the response within the deadline',
  ),
}) satisfies Record<string, HttpRefusal>;

/** The same refusal under the hook's own rule name (http-options.ts: `AuthorizeRefusal.rule`). */
export function renamed(refusal: HttpRefusal, rule: HostRuleName | undefined): HttpRefusal {
  return rule === undefined ? refusal : Object.freeze({ ...refusal, rule });
}

/** A refusal decided after the body was read: the connection stays usable. */
export function lateRefusal(
  rule: HttpRefusalRule,
  status: number,
  code: JsonRpcErrorCode | typeof NO_ERROR_SENT,
  message: string,
): HttpRefusal {
  return Object.freeze({ rule, status, code, message, early: false });
}

export function publishRefusal(refusal: HttpRefusal): void {
  if (refusalChannel.hasSubscribers) {
    const event: HttpRefusalEvent = { rule: refusal.rule, status: refusal.status, code: refusal.code };
    refusalChannel.publish(event);
  }
}
