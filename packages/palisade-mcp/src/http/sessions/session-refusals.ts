/**
 * Every refusal an HTTP session answers, worded once from constants: no client byte (an id, a
 * `Last-Event-ID`) is ever echoed. A session the caller may not see is answered exactly as one
 * that does not exist (`session-unknown` and `session-principal-mismatch` differ only in the rule
 * the host's log shows), so an id reveals nothing to another principal.
 */
import { MAX_LAST_EVENT_ID_CHARS, MAX_SESSION_ID_CHARS } from '../../limits.js';
import { INTERNAL_ERROR, INVALID_REQUEST, UNSUPPORTED_PROTOCOL_VERSION } from '../../wire/codes.js';
import { type HttpRefusal, lateRefusal } from '../refusals.js';

const NOT_FOUND_MESSAGE = 'Session not found: start a new one with initialize';

export const SESSION_REFUSALS = Object.freeze({
  idMissing: lateRefusal(
    'session-id-missing',
    400,
    INVALID_REQUEST,
    'Bad request: Mcp-Session-Id is required on every request after initialize',
  ),
  idMalformed: lateRefusal(
    'session-id-malformed',
    400,
    INVALID_REQUEST,
    `Bad request: Mcp-Session-Id must be 1 to ${MAX_SESSION_ID_CHARS} characters of A-Z a-z 0-9 . _ ~ + / = -`,
  ),
  idRepeated: lateRefusal(
    'session-id-repeated',
    400,
    INVALID_REQUEST,
    'Bad request: more than one Mcp-Session-Id',
  ),
  unknown: lateRefusal('session-unknown', 404, INVALID_REQUEST, NOT_FOUND_MESSAGE),
  otherPrincipal: lateRefusal('session-principal-mismatch', 404, INVALID_REQUEST, NOT_FOUND_MESSAGE),
  limit: lateRefusal('session-limit', 503, INTERNAL_ERROR, 'Server busy: too many sessions are open'),
  principalFault: lateRefusal('session-principal-fault', 500, INTERNAL_ERROR, 'Internal error'),
  storeFault: lateRefusal('session-store-fault', 503, INTERNAL_ERROR, 'Service unavailable'),
  closed: lateRefusal(
    'session-host-closed',
    503,
    INTERNAL_ERROR,
    'Service unavailable: the server is closing',
  ),
  initializeWithId: lateRefusal(
    'session-initialize-with-id',
    400,
    INVALID_REQUEST,
    'Bad request: initialize starts a session; send it without Mcp-Session-Id',
  ),
  versionNotNegotiated: lateRefusal(
    'protocol-version-not-negotiated',
    400,
    UNSUPPORTED_PROTOCOL_VERSION,
    'Unsupported protocol version: MCP-Protocol-Version names another revision than this session agreed',
  ),
  requestsInFlight: lateRefusal(
    'session-requests-in-flight',
    429,
    INVALID_REQUEST,
    'Too many requests: this session has too many requests in flight',
  ),
  idInFlight: lateRefusal(
    'session-request-id-in-flight',
    400,
    INVALID_REQUEST,
    'Invalid request: id is already used by a request in flight on this session',
  ),
  streams: lateRefusal(
    'session-streams',
    429,
    INVALID_REQUEST,
    'Too many requests: this session keeps too many streams',
  ),
  standaloneOpen: lateRefusal(
    'session-stream-open',
    409,
    INVALID_REQUEST,
    'Conflict: this session already has its GET stream open',
  ),
  getNeedsStream: lateRefusal(
    'get-needs-event-stream',
    406,
    INVALID_REQUEST,
    'Invalid request: a GET stream needs Accept to admit text/event-stream',
  ),
  lastEventIdMalformed: lateRefusal(
    'last-event-id-malformed',
    400,
    INVALID_REQUEST,
    `Bad request: Last-Event-ID must be one value of 1 to ${MAX_LAST_EVENT_ID_CHARS} characters of A-Z a-z 0-9 . _ ~ + / = : -`,
  ),
  lastEventIdUnknown: lateRefusal(
    'last-event-id-unknown',
    400,
    INVALID_REQUEST,
    'Bad request: Last-Event-ID names no event of this session',
  ),
  lastEventIdEvicted: lateRefusal(
    'last-event-id-evicted',
    400,
    INVALID_REQUEST,
    'Bad request: the events after Last-Event-ID are no longer kept',
  ),
  replyMalformed: lateRefusal(
    'client-reply-malformed',
    400,
    INVALID_REQUEST,
    'Invalid request: a response needs jsonrpc, an id, and a result object or an error with code and message',
  ),
  replyUnknown: lateRefusal(
    'client-reply-unknown',
    400,
    INVALID_REQUEST,
    'Invalid request: no request of this session waits for that id',
  ),
  replyLate: lateRefusal(
    'client-reply-late',
    400,
    INVALID_REQUEST,
    'Invalid request: the wait for that response has ended',
  ),
}) satisfies Record<string, HttpRefusal>;
