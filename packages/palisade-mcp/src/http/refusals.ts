/**
 * Every refusal the HTTP transport answers itself, worded once: each message is a constant, so
 * none can carry a client byte. `early` refusals are decided before the body is read; they close
 * the connection rather than read (or drain) a body on the caller's behalf.
 */
import { channel } from 'node:diagnostics_channel';
import { MAX_MESSAGE_BYTES } from '../limits.js';

import { HTTP_REFUSAL_CHANNEL } from '../telemetry/channel-names.js';

/** One event per refusal: `{ rule, status, code }`, never a client byte. */
export { HTTP_REFUSAL_CHANNEL } from '../telemetry/channel-names.js';

const refusalChannel = channel(HTTP_REFUSAL_CHANNEL);

export interface HttpRefusal {
  readonly rule: string;
  readonly status: number;
  readonly code: number;
  readonly message: string;
  readonly early: boolean;
}

function early(rule: string, status: number, code: number, message: string): HttpRefusal {
  return Object.freeze({ rule, status, code, message, early: true });
}

export const REFUSALS = Object.freeze({
  hostRepeated: early('host-repeated', 400, -32600, 'Invalid request: more than one Host header'),
  // HTTP/2: a `host` field that names another authority than `:authority` (RFC 9113 §8.3.1).
  hostAuthority: early(
    'host-authority-mismatch',
    400,
    -32600,
    'Invalid request: Host disagrees with :authority',
  ),
  // HTTP/1.1: an absolute-form target (RFC 9112 §3.2.2) naming another host than `Host`; fetch:
  // a Request whose URL names another host than its `Host` field (a runtime built it from the target).
  hostTarget: early(
    'host-target-mismatch',
    400,
    -32600,
    'Invalid request: Host disagrees with the request target',
  ),
  hostNotAllowed: early('host-not-allowed', 421, -32600, 'Invalid request: Host not allowed'),
  originNotAllowed: early('origin-not-allowed', 403, -32600, 'Invalid request: Origin not allowed'),
  // Node's HTTP/1.1 parser accepts any HTTP/d.d request line; only 1.0 and 1.1 are HTTP/1.
  httpVersion: early('http-version', 505, -32600, 'Invalid request: HTTP version not supported'),
  notFound: early('path-not-found', 404, -32600, 'Invalid request: no MCP endpoint at this path'),
  method: early('method-not-allowed', 405, -32600, 'Invalid request: only POST is served here'),
  // With sessions: GET opens or resumes a stream, DELETE ends a session.
  sessionMethod: early(
    'method-not-allowed',
    405,
    -32600,
    'Invalid request: only GET, POST and DELETE are served here',
  ),
  // A GET or DELETE declaring a body (sessions): answered without reading it.
  bodilessBody: early('session-method-body', 400, -32600, 'Bad request: GET and DELETE carry no body'),
  // A GET is how a client asks for a stream of server messages; the transport spec answers 405 when
  // none is offered, and clients (the official SDKs) send one at every connection. Same answer as
  // any other method, under its own rule so a log can tell this routine probe from a wrong method
  // (telemetry/transport-log.ts logs it at debug: ROUTINE_RULES).
  streamProbe: early('get-stream-not-offered', 405, -32600, 'Invalid request: only POST is served here'),
  // A CORS preflight asking to send any method but POST: answering 204 would only defer the
  // failure to the browser, and the host's log would not say why the page failed.
  preflightMethod: early(
    'preflight-method-not-allowed',
    405,
    -32600,
    'Invalid request: a preflight may only ask for POST',
  ),
  sessionPreflightMethod: early(
    'preflight-method-not-allowed',
    405,
    -32600,
    'Invalid request: a preflight may only ask for GET, POST or DELETE',
  ),
  // serve()'s routes (routes.ts): a document is read with GET or HEAD, and neither carries a body.
  routeMethod: early(
    'route-method-not-allowed',
    405,
    -32600,
    'Invalid request: only GET and HEAD are served here',
  ),
  routeBody: early('route-body', 400, -32600, 'Invalid request: a GET or HEAD carries no body'),
  routeFault: early('route-fault', 500, -32603, 'Internal error'),
  routeTimeout: early('route-timeout', 503, -32603, 'Service unavailable'),
  badRequest: early('authorize', 400, -32600, 'Bad request'),
  unauthorized: early('authorize', 401, -32600, 'Unauthorized'),
  forbidden: early('authorize', 403, -32600, 'Forbidden'),
  tooMany: early('authorize', 429, -32600, 'Too many requests'),
  // The host's verifier could not decide (its key source is down): not the client's fault.
  unavailable: early('authorize', 503, -32603, 'Service unavailable'),
  authorizeTimeout: early('authorize-timeout', 403, -32600, 'Forbidden'),
  authorizeFault: early('authorize-fault', 500, -32603, 'Internal error'),
  notAcceptable: early('not-acceptable', 406, -32600, 'Invalid request: Accept must admit application/json'),
  mediaType: early(
    'unsupported-media-type',
    415,
    -32600,
    'Invalid request: Content-Type must be application/json',
  ),
  chunked: early(
    'length-required',
    411,
    -32600,
    'Invalid request: Transfer-Encoding is not accepted; send Content-Length',
  ),
  noLength: early('length-required', 411, -32600, 'Invalid request: Content-Length is required'),
  tooLarge: early('too-large', 413, -32600, `Invalid request: message exceeds ${MAX_MESSAGE_BYTES} bytes`),
  // Decided while reading: the body is half read, so the connection cannot be reused either.
  readTimeout: early(
    'read-timeout',
    408,
    -32600,
    'Invalid request: the body did not arrive within the read deadline',
  ),
  misuse: early('body-already-read', 500, -32603, 'Internal error'),
  transportFault: early('transport-fault', 500, -32603, 'Internal error'),
  // A handshake-era request whose MCP-Protocol-Version names a revision not served over HTTP
  // (2024-11-05 included: its HTTP transport is not served); the answer lists what is.
  versionNotServed: lateRefusal(
    'protocol-version-not-served',
    400,
    -32022,
    'Unsupported protocol version: the MCP-Protocol-Version header names a revision not served over HTTP',
  ),
  // A listen stream is nothing but events: a client that cannot take SSE could never read one.
  listenNeedsStream: lateRefusal(
    'listen-needs-event-stream',
    406,
    -32600,
    'Invalid request: subscriptions/listen needs Accept to admit text/event-stream',
  ),
  authorizeBody: Object.freeze({
    rule: 'authorize-body',
    status: 403,
    code: -32600,
    message: 'Forbidden',
    early: false,
  }),
  authorizeBodyFault: Object.freeze({
    rule: 'authorize-body-fault',
    status: 500,
    code: -32603,
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
    0,
    'The client did not read the stream: too many bytes queued',
  ),
  sseDrainTimeout: lateRefusal(
    'sse-drain-timeout',
    200,
    0,
    'The client did not read the stream within the deadline',
  ),
  sseEventsQueued: lateRefusal(
    'sse-events-queued',
    200,
    0,
    'The client did not read the stream: too many events queued',
  ),
  jsonDrainTimeout: lateRefusal(
    'json-drain-timeout',
    200,
    0,
    'The client did not read the response within the deadline',
  ),
}) satisfies Record<string, HttpRefusal>;

/** The same refusal under the hook's own rule name (http-options.ts: `AuthorizeRefusal.rule`). */
export function renamed(refusal: HttpRefusal, rule: string | undefined): HttpRefusal {
  return rule === undefined ? refusal : Object.freeze({ ...refusal, rule });
}

/** A refusal decided after the body was read: the connection stays usable. */
export function lateRefusal(rule: string, status: number, code: number, message: string): HttpRefusal {
  return Object.freeze({ rule, status, code, message, early: false });
}

export function publishRefusal(refusal: HttpRefusal): void {
  if (refusalChannel.hasSubscribers) {
    refusalChannel.publish({ rule: refusal.rule, status: refusal.status, code: refusal.code });
  }
}
