/**
 * Every bound Palisade enforces on client input, in one place, each with its unit and the
 * refusal it produces. `docs/threat-model.md` has a row per constant; tests pin the numbers
 * with literal bytes rather than by importing these names, so a change here fails a test.
 */

/** Largest message accepted on any transport: stdio line, legacy frame, HTTP body. Refusal: -32600. */
export const MAX_MESSAGE_BYTES = 1_048_576;

/** Deepest nesting of arrays and objects admitted in a message. 65 is refused with -32600 before any value is built. */
export const MAX_JSON_DEPTH = 64;

/** A repeated key is named in its refusal, cut to this many UTF-16 code units so a client cannot echo a payload through it. */
export const MAX_REFUSAL_KEY_CHARS = 32;

/** Items per page of every list result (`tools/list`, `resources/list`, ...). */
export const DEFAULT_PAGE_SIZE = 50;

/** Upper bound for the `pageSize` option: a page is built in one event-loop turn. */
export const MAX_PAGE_SIZE = 1_000;

/** Longest cursor accepted from a client, in bytes; a cursor is opaque but still input. */
export const MAX_CURSOR_BYTES = 1_024;

/** Header lines of one legacy `Content-Length` block on stdio; each line is bounded by MAX_MESSAGE_BYTES too. */
export const MAX_LEGACY_HEADER_LINES = 32;

/** Tool names: 1 to 128 characters of `A-Za-z0-9_.-` (the spec's format, checked at construction). */
export const MAX_TOOL_NAME_CHARS = 128;

/** A host schema is compiled once; its serialized size is bounded so construction cannot be made to hang. */
export const MAX_SCHEMA_BYTES = 262_144;

/** Deepest nesting of a host schema. */
export const MAX_SCHEMA_DEPTH = 32;

/** JSON objects (subschemas and keyword maps such as `properties`) in one host schema, counted at construction. */
export const MAX_SCHEMA_SUBSCHEMAS = 2_000;

/**
 * Largest count in a counted repetition (`{n}`, `{n,}`, `{n,m}`). Counted repetition is
 * expanded into copies of its operand, so the count multiplies the program size.
 */
export const MAX_REGEX_REPEAT = 1_000;

/**
 * Largest compiled program, in instructions. Matching costs at most (input code points) x
 * (program size) steps, so this is the factor a host pattern can put on every input.
 */
export const MAX_REGEX_PROGRAM = 10_000;

/** Deepest nesting of groups and classes; the parser and compiler recurse once per level. */
export const MAX_REGEX_NESTING = 64;

/**
 * Memory for the lazily built DFA of one compiled pattern. When it is full the cache is
 * dropped and rebuilt from the current state: matching stays linear, only slower.
 */
export const MAX_REGEX_DFA_BYTES = 1_048_576;

/**
 * Distinct input character classes remembered for patterns holding `\p{...}`, whose members are
 * learned one code point at a time from the native engine; past this the memo is dropped.
 */
export const MAX_REGEX_LEARNED_CLASSES = 1_024;

/** Longest URI a template is matched against, in UTF-8 bytes; a longer one matches nothing. */
export const MAX_TEMPLATE_URI_BYTES = 8_192;

/** The spec's cap on values in one completion result. */
export const MAX_COMPLETION_VALUES = 100;

/**
 * Progress notifications of one request are rate-limited by a token bucket: PROGRESS_BURST at
 * once, then one per PROGRESS_MIN_INTERVAL_MS (100 a second). A handler that reports in a tight
 * loop would otherwise fill the client's stream. One over the rate is dropped; progress still
 * strictly increases, so the next one carries the news.
 */
export const PROGRESS_BURST = 8;

/** See PROGRESS_BURST: milliseconds per progress notification once the burst is spent. */
export const PROGRESS_MIN_INTERVAL_MS = 10;

/**
 * `subscriptions/listen` streams open at once in one server, over every transport. One more is
 * answered with -32000 "Server busy: too many open subscriptions", never queued.
 */
export const MAX_OPEN_SUBSCRIPTIONS = 10_000;

/** Resource URIs one `subscriptions/listen` filter or one 2025-11-25 stdio connection may watch. */
export const MAX_RESOURCE_SUBSCRIPTIONS = 100;

/** Longest resource URI a subscription names, in UTF-8 bytes (as MAX_TEMPLATE_URI_BYTES). */
export const MAX_SUBSCRIBED_URI_BYTES = 8_192;

/**
 * Default lifetime of one `subscriptions/listen` stream, in milliseconds: then the server ends it
 * gracefully with its result, and a client that still wants notifications listens again. A stream
 * is never held forever, whatever the client does.
 */
export const DEFAULT_LISTEN_LIFETIME_MS = 1_800_000;

/** Largest `notifications.listenLifetimeMs` accepted: one day (and within Node's timers). */
export const MAX_LISTEN_LIFETIME_MS = 86_400_000;

/**
 * Notifications written to one streamed (SSE) HTTP response while earlier bytes still wait unsent
 * (the count starts over whenever nothing waits). One more cuts the response as for
 * MAX_SSE_QUEUED_BYTES (rule `sse-events-queued`): each queued write costs Node a request object
 * that a byte count of the events' text understates.
 */
export const MAX_SSE_QUEUED_EVENTS = 1_024;

/**
 * Interval between keep-alive comments (`: keep-alive`) on an SSE response, in milliseconds:
 * proxies that close idle streams leave a quiet listen stream open, and a client that vanished
 * without a FIN is found when the comments stop draining (SSE_DRAIN_TIMEOUT_MS).
 */
export const SSE_KEEPALIVE_INTERVAL_MS = 15_000;

/**
 * Longest text a thrown `ToolError` puts in its tool result, in UTF-16 code units: a longer
 * message is cut (never inside a surrogate pair) and ends with "…", so an error built from a large
 * upstream answer cannot fill the model's context.
 */
export const MAX_TOOL_ERROR_CHARS = 4_096;

/** The part of a client's version string echoed in `data.requested`, so a refusal cannot be made arbitrarily large. */
export const MAX_ECHOED_VERSION_CHARS = 64;

/**
 * A Host refused 421 is named in the host's log (`onLog`'s `reason`, the logger, stderr) cut to this
 * many characters and escaped, so an operator sees which name was refused and a client cannot
 * write a long or multi-line value into the log through it. Never sent to the client.
 */
export const MAX_LOGGED_HOST_CHARS = 64;

/** A resource-not-found error echoes `data.uri` only up to this length; longer URIs are left out. */
export const MAX_ECHOED_URI_CHARS = 2_048;

/**
 * How long, after stdin ends, handlers (already aborted) may take to settle before the
 * transport stops waiting for them: a client that pipes one request and closes stdin still
 * gets its answer, and a handler that ignores its signal cannot hold the process open.
 */
export const STDIO_SHUTDOWN_GRACE_MS = 2_000;

/**
 * Default whole-body deadline for one HTTP request, in milliseconds on the monotonic clock
 * (`performance.now()`), counted from the moment the handler is called: however the body is split,
 * it must all arrive within this. Lapse: HTTP 408 with -32600. Also bounds an `authorize` hook
 * that never settles.
 */
export const DEFAULT_HTTP_READ_TIMEOUT_MS = 15_000;

/**
 * Paths `serve({ routes })` answers beside the MCP endpoint: a handful of small documents
 * (protected-resource metadata at its two well-known paths, a health check), not a web server.
 */
export const MAX_ROUTES = 16;

/** Bytes of one route's answer; a larger one is the host's fault (500, `onFault`), never sent. */
export const MAX_ROUTE_BODY_BYTES = 65_536;

/** Largest `readTimeoutMs` accepted, in milliseconds: Node's timers hold at most 2^31 - 1. */
export const MAX_HTTP_READ_TIMEOUT_MS = 2_147_483_647;

/**
 * `cors`: how long a browser may reuse a preflight answer (`Access-Control-Max-Age`), in seconds,
 * when the host sets no `cors.maxAgeSeconds`. Ten minutes: a changed catalog (new `Mcp-Param-*`
 * headers) reaches pages within that, and a page calling often sends one preflight per ten minutes.
 */
export const DEFAULT_CORS_MAX_AGE_SECONDS = 600;

/** Largest `cors.maxAgeSeconds` accepted, in seconds: Chromium caps the cache there (two hours) anyway. */
export const MAX_CORS_MAX_AGE_SECONDS = 7_200;

/**
 * Thread steps one pattern test may spend building DFA states (cache misses) before validation
 * fails closed. Patterns whose states repeat stay far below it on a 1 MiB input; one built so
 * that every code point makes a new state (`a[ab]{999}c`) would otherwise cost input x program
 * size, 35 s on 1 MiB (measured 2026-11-29).
 */
export const MAX_REGEX_WORK = 4_194_304;

/**
 * `serve()`: how long a new connection may take to send enough bytes to tell HTTP/2 (the 24-byte
 * preface) from HTTP/1.1, in milliseconds; a silent connection is closed at it.
 */
export const DEFAULT_SNIFF_TIMEOUT_MS = 5_000;

/**
 * After an answer sent before the body was read, how long the connection stays half-closed,
 * reading nothing, before it is destroyed, in milliseconds (http/linger.ts).
 * Long enough for a client or proxy on the same network to read the answer and close its side;
 * short enough that a client sending without end holds a connection no longer than a slow head.
 */
export const LINGER_MS = 2_000;

/** `serve()`: HTTP/1.1 request-head deadline, in milliseconds (Node's `headersTimeout`). */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;

/**
 * `serve()`: HTTP/1.1 whole-request deadline, in milliseconds (Node's `requestTimeout`): above the
 * handler's 15,000 ms body deadline so the handler's own 408 answers first.
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/** `serve()`: idle time before a kept-alive HTTP/1.1 connection or an idle HTTP/2 session is closed, in milliseconds. */
export const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 5_000;

/**
 * `serve()`: how long an HTTP/2 session may go without a live stream (one still within its read
 * deadline or still being answered) before it is closed with GOAWAY(NO_ERROR), in milliseconds;
 * streams left open then (answers written, never taken) are destroyed 1 s later. Bounds what
 * neither the 408 nor the idle timeout ends: PINGs and unread answers (`http/node/session-guard.ts`).
 * Twice DEFAULT_HTTP_READ_TIMEOUT_MS; when the host sets `readTimeoutMs`, twice that.
 */
export const DEFAULT_CONNECTION_TIMEOUT_MS = 30_000;

/** `serve()`: largest request head in bytes (HTTP/1.1 `maxHeaderSize`, HTTP/2 SETTINGS_MAX_HEADER_LIST_SIZE). */
export const DEFAULT_MAX_HEADER_SIZE = 16_384;

/**
 * Header lines (fields, HTTP/2 pseudo-headers included) a request may carry; one more is refused
 * 431 (rule `head-too-many-lines`) before any check reads them. Set below what Node's HTTP/1.1
 * server keeps by default (it drops every line past 1,023 name–value pairs without a word), so a
 * repeated Host or `Mcp-*` line can never be hidden past the lines a server keeps, whatever its
 * `maxHeadersCount`, short of one set below this. It also bounds the work of reading a head that
 * `maxHeaderSize` lets through: Node counts only names and values, so 16,384 bytes of them can come
 * as 16,000 lines of `a:` (64 KiB on the wire).
 */
export const MAX_HEADER_LINES = 1_000;

/**
 * HTTP/1.1 requests that may wait on one connection behind the answer being written (pipelined,
 * RFC 9112 §9.3.2). Each starts only once the answers before it are written (node/connection-turn.ts),
 * and Node parses on meanwhile, so each one waiting holds its parsed head and up to 16 KiB of its
 * body; the next one closes the connection (rule `pipeline-too-deep`). Clients that pipeline at
 * all send a handful; the official SDKs and browsers send none.
 */
export const MAX_PIPELINED_REQUESTS = 64;

/** `serve()`: open connections at once (both protocols, counted before the sniff); more are closed on accept. */
export const DEFAULT_MAX_CONNECTIONS = 1_024;

/** `serve()`: HTTP/2 SETTINGS_MAX_CONCURRENT_STREAMS per session, where Node's default is 2^32 - 1. */
export const DEFAULT_MAX_CONCURRENT_STREAMS = 100;

/** `serve()`: HTTP/2 `maxSessionMemory` per session, in megabytes (Node's unit); Node's default. */
export const DEFAULT_MAX_SESSION_MEMORY_MB = 10;

/** Largest value any `serve()` millisecond option accepts: Node's timers hold at most 2^31 - 1. */
export const MAX_SERVE_TIMEOUT_MS = 2_147_483_647;

/**
 * Bytes of one streamed (SSE) HTTP response that may wait unsent (in Node's buffers, past what the
 * kernel took) when the handler emits another notification. `res.write` never blocks, so a client
 * that stops reading would otherwise make the server hold every event a handler emits. Crossed: the
 * connection is destroyed (HTTP/2: the stream reset), the handler's signal aborts on both
 * revisions, and `sse-queue-full` is published; the client gets no further byte. 1 MiB + 64 KiB: a
 * notification of MAX_MESSAGE_BYTES still fits behind one HTTP/2 flow-control window (65,535 bytes)
 * of earlier events. The result event is not counted: like a JSON response it is one message,
 * bounded by what the host returned, and a client that reads gets it whatever its size.
 */
export const MAX_SSE_QUEUED_BYTES = 1_114_112;

/**
 * How long bytes of an HTTP response may wait with none of them taken by the client, in
 * milliseconds: counted from a `res.write` that returned false (or an `end` that left bytes
 * queued), restarted whenever the queue shrank, cleared by 'drain'/'finish'. A client that reads
 * slowly but steadily is never cut; one that stops holds the connection and the queued bytes only
 * this long (Node's own server has no write deadline). Lapse: as MAX_SSE_QUEUED_BYTES, rule
 * `sse-drain-timeout` (`json-drain-timeout` for a JSON answer, whose handler has already returned).
 * The same patience as DEFAULT_HTTP_READ_TIMEOUT_MS gives a client sending its body.
 */
export const SSE_DRAIN_TIMEOUT_MS = 15_000;

/**
 * Input requests in one `input_required` result (MRTR, 2026-07-28). A handler asking for more is
 * a host fault (-32603): the client would have to answer every one before the retry.
 */
export const MAX_INPUT_REQUESTS = 16;

/** Longest key naming one input request, in UTF-16 code units; a longer one is a host fault. */
export const MAX_INPUT_REQUEST_KEY_CHARS = 64;

/**
 * `requestState` tokens one request may be issued across its retries. The round is sealed in the
 * token; a retry carrying a token past it is refused with -32602 like any token not issued here.
 */
export const MAX_INPUT_ROUNDS = 8;

/**
 * Longest `requestState` accepted from a client or from the host's sealer, in UTF-8 bytes. A
 * longer one from a client is refused (-32602) before the sealer sees it; from the sealer, a host fault.
 */
export const MAX_REQUEST_STATE_BYTES = 16_384;

/** How long an issued `requestState` stays valid when the host sets no `requestState.ttlMs`, in milliseconds. */
export const DEFAULT_REQUEST_STATE_TTL_MS = 300_000;

/** Largest `requestState.ttlMs` accepted at construction, in milliseconds: the spec asks for a short expiry. */
export const MAX_REQUEST_STATE_TTL_MS = 3_600_000;

/**
 * Tool handlers this process runs as tasks at once (tasks extension). Each holds one
 * AbortController here until its handler settles; a `tools/call` or `tasks/update` that would
 * start one more is refused with -32603 "Server busy: MAX_RUNNING_TASKS task handlers are
 * running", before the store is asked to create or change anything.
 */
export const MAX_RUNNING_TASKS = 64;

/**
 * Longest task id, in UTF-16 code units. A client's longer `taskId` is answered as a missing task
 * (-32602) without asking the store; a longer one minted by the store is a host fault (-32603).
 */
export const MAX_TASK_ID_CHARS = 256;

/**
 * Longest TTL the built-in MemoryTaskStore accepts: one day. A task it holds is memory a client
 * asked for; a longer-lived task belongs in a store that survives a restart.
 */
export const MAX_TASK_TTL_MS = 86_400_000;

/**
 * Trace context in a request's `_meta` (MCP SEP-414: W3C keys `tracestate` and `baggage`). W3C
 * Trace Context allows at most 32 `tracestate` list members and asks vendors to propagate at
 * least 512 characters; W3C Baggage allows at most 64 members and 8,192 bytes. A value past any of
 * them is refused with -32602 naming the key. A malformed `traceparent` is ignored, as W3C says.
 */
export const MAX_TRACESTATE_MEMBERS = 32;

/** `tracestate` in UTF-8 bytes (see MAX_TRACESTATE_MEMBERS). */
export const MAX_TRACESTATE_BYTES = 512;

/** `baggage` list members (W3C Baggage). Checked whether or not the host reads baggage. */
export const MAX_BAGGAGE_MEMBERS = 64;

/** `baggage` in UTF-8 bytes (W3C Baggage). */
export const MAX_BAGGAGE_BYTES = 8_192;

/**
 * HTTP sessions (the `sessions` option of createHttpHandler, createFetchHandler and serve()): live
 * sessions one server holds. The next `initialize` is answered 503 with `Retry-After` (rule
 * `session-limit`); no live session is evicted to make room, so a flood of `initialize` cannot
 * push a working client out. 10,000 idle sessions cost a few megabytes (bench:sessions measures it).
 */
export const DEFAULT_MAX_SESSIONS = 10_000;

/** Largest `sessions.maxSessions` accepted. */
export const MAX_MAX_SESSIONS = 1_000_000;

/**
 * How long a session may go without a request, an open stream or a request in flight before it
 * ends, in milliseconds: its next request is 404 and the client starts over with `initialize`.
 * Thirty minutes: a person's pause, not a client that vanished without DELETE.
 */
export const DEFAULT_IDLE_SESSION_MS = 1_800_000;

/** Largest `sessions.idleTimeoutMs` accepted: one day (and within Node's timers). */
export const MAX_IDLE_SESSION_MS = 86_400_000;

/**
 * Random bytes in a session id, from the CSPRNG: 192 bits, written as 32 base64url characters. At
 * least 128 bits makes guessing a live id hopeless however many sessions are open.
 */
export const SESSION_ID_BYTES = 24;

/**
 * Longest `Mcp-Session-Id` a client may send, in bytes of `A-Za-z0-9._~+/=-`; anything else is
 * refused 400 (`session-id-malformed`) before any lookup, and never echoed. The rule ExMCP's
 * security guide gives, wide enough for any id another server issues.
 */
export const MAX_SESSION_ID_CHARS = 128;

/**
 * Requests one session may have in flight at once. One more is answered 429 (rule
 * `session-requests-in-flight`): a client cannot make one session hold an unbounded number of
 * handlers, streams and waits.
 */
export const DEFAULT_MAX_SESSION_REQUESTS = 32;

/** Largest `sessions.maxRequestsInFlight` accepted. */
export const MAX_MAX_SESSION_REQUESTS = 1_024;

/**
 * Event streams one session keeps for resumption (its GET stream and each request answered as
 * SSE), open or ended. Past it the oldest ended one is forgotten; when none has ended, a new
 * stream is refused (rule `session-streams`: a GET is 429, a request's answer is written without
 * event ids). Above DEFAULT_MAX_SESSION_REQUESTS + 1, so requests in flight never meet it.
 */
export const DEFAULT_MAX_SESSION_STREAMS = 64;

/** Largest `sessions.maxStreams` accepted. */
export const MAX_MAX_SESSION_STREAMS = 4_096;

/**
 * Events one stream keeps for replay (`Last-Event-ID`). Past it the oldest is dropped, and a
 * client resuming from before what is kept is refused 400 (rule `last-event-id-evicted`) rather
 * than handed a stream with a silent gap. 1,024 is MAX_SSE_QUEUED_EVENTS: what a live stream may
 * queue, a resumed one may replay.
 */
export const DEFAULT_MAX_STREAM_EVENTS = 1_024;

/** Largest `sessions.maxStreamEvents` accepted. */
export const MAX_MAX_STREAM_EVENTS = 65_536;

/**
 * Bytes of event data one stream keeps for replay, as MAX_STREAM_EVENTS (oldest dropped first;
 * the newest event is always kept, so a result larger than this can still be resumed). The same
 * 1 MiB + 64 KiB a live stream may queue (MAX_SSE_QUEUED_BYTES).
 */
export const DEFAULT_MAX_STREAM_BYTES = 1_114_112;

/** Largest `sessions.maxStreamBytes` accepted. */
export const MAX_MAX_STREAM_BYTES = 67_108_864;

/**
 * How long a handler waits for the client to answer a request it sent on a session (sampling,
 * elicitation, roots), in milliseconds. Then the wait ends: the handler runs again and
 * `ctx.inputRequired` throws PALISADE_ERR_INPUT_UNANSWERED, and a reply arriving later is refused
 * 400 (rule `client-reply-late`). Five minutes: elicitation waits for a person.
 */
export const DEFAULT_INPUT_TIMEOUT_MS = 300_000;

/** Largest `sessions.inputTimeoutMs` accepted: one hour. */
export const MAX_INPUT_TIMEOUT_MS = 3_600_000;

/**
 * Ids of requests whose wait lapsed that one session remembers, so a reply arriving late is
 * refused as late (`client-reply-late`) rather than as unknown; the oldest is forgotten first.
 */
export const MAX_LAPSED_REPLY_IDS = 64;

/**
 * The SSE `retry` field sent in a stream's priming event and before the server closes a stream's
 * connection (2025-11-25 polling), in milliseconds: how long a client waits before it reconnects.
 */
export const DEFAULT_SSE_RETRY_MS = 1_000;

/** Largest `sessions.retryMs` and `sessions.pollAfterMs` accepted: one hour. */
export const MAX_SSE_RETRY_MS = 3_600_000;

/**
 * Longest `Last-Event-ID` a client may send, in bytes of `A-Za-z0-9._~+/=:-`; anything else is
 * refused 400 (`last-event-id-malformed`) before the event store is asked.
 */
export const MAX_LAST_EVENT_ID_CHARS = 128;

/**
 * How often idle sessions are looked for and ended, in milliseconds, at most: a quarter of the
 * idle timeout when that is shorter. A session is ended within this of its expiry; a request
 * arriving in between finds it expired anyway (the store answers by its last activity).
 */
export const SESSION_SWEEP_INTERVAL_MS = 60_000;

/**
 * Principal texts whose SHA-256 a sessions host remembers, each at most MAX_CACHED_PRINCIPAL_CHARS
 * long: a session's every request compares its principal's digest, and hashing it afresh was the
 * largest cost sessions added to a `tools/call`. Past the count the memory is emptied and refilled,
 * so a flood of principals costs hashes, as it did before, and at most 1,024 × 4 KiB of text.
 */
export const MAX_CACHED_PRINCIPALS = 1_024;

/** Longest principal text whose digest is remembered; a longer one is hashed on every request. */
export const MAX_CACHED_PRINCIPAL_CHARS = 4_096;

/**
 * `Retry-After` of a 503 `session-limit` answer, in seconds: a minute, in which the sweep may end
 * sessions that went idle or were deleted.
 */
export const SESSION_LIMIT_RETRY_AFTER_SECONDS = 60;
