/**
 * Every bound the client holds, with its unit. A server's bytes are read under these whatever it
 * sends; each overflow has its own named error (errors.ts) and its row in docs/threat-model.md.
 */
import { MAX_MESSAGE_BYTES } from 'palisade-mcp/wire';

/** One JSON-RPC message from the server, as the wire reads it on both sides. */
export { MAX_MESSAGE_BYTES };

/** One SSE line: a `data:` line holding a whole message, and its field name. */
export const MAX_SSE_LINE_BYTES = MAX_MESSAGE_BYTES + 64;

/** One SSE event: its data lines together, which make one message. */
export const MAX_SSE_EVENT_BYTES = MAX_MESSAGE_BYTES;

/** Events on one SSE stream: a request's stream, or one connection of the standalone stream. */
export const MAX_SSE_EVENTS_PER_STREAM = 10_000;

/** No byte on an SSE stream for this long ends it. Option `sseIdleMs`. */
export const DEFAULT_SSE_IDLE_MS = 60_000;

/** An SSE event not finished this long after its first byte ends the stream (a drip). */
export const DEFAULT_SSE_EVENT_MS = 30_000;

/** A body that is not the answer (an error status, a refusal): read this far and no further. */
export const MAX_ERROR_BODY_BYTES = 65_536;

/** A call's whole exchange, unless the call sets its own `timeoutMs`. Option `requestTimeoutMs`. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/** Rounds of input requests (MRTR) one call answers before it fails. */
export const MAX_INPUT_ROUNDS = 8;

/** Input requests one round may carry. */
export const MAX_INPUT_REQUESTS = 16;

/** Times one call resumes its stream (GET with Last-Event-ID) before it fails. */
export const MAX_RESUMPTIONS = 5;

/** A server's `retry:` is honoured up to this (ms); beyond it this is used. */
export const MAX_RETRY_DELAY_MS = 30_000;

/** Pages a pagination helper follows before it stops (a server whose cursor never ends). */
export const MAX_PAGES = 1_000;

/** The stdio server is given this long after stdin closes, then SIGTERM, then as long again before SIGKILL. */
export const STDIO_CLOSE_GRACE_MS = 2_000;

/**
 * The probe of a stdio server with `server/discover`; past it the server is taken as a handshake
 * server. It also covers the child's start-up: a server started through tsx on a loaded 2-core
 * machine took 8.4 s to answer, and at 5 s it was wrongly reached through `initialize`.
 */
export const DISCOVER_PROBE_MS = 15_000;

/** A consent decision without its own expiry lasts this long. Option `consentTtlMs`. */
export const DEFAULT_CONSENT_TTL_MS = 86_400_000;

/** The furthest a consent answer may reach: past this, the answer is refused as implausible. */
export const MAX_CONSENT_SECONDS = 365 * 86_400;

/** DNS lookup of an untrusted target. */
export const DNS_TIMEOUT_MS = 5_000;

/** One OAuth metadata, registration or token response. */
export const MAX_OAUTH_BODY_BYTES = 262_144;

/** Same-origin redirects an OAuth metadata fetch follows (never across origins). */
export const MAX_METADATA_REDIRECTS = 3;

/**
 * One OAuth request's deadline: a ceiling for a server that hangs, not an expected latency. At
 * 10 s every 2026-07-28 auth scenario of the conformance suite (run in parallel on a loaded
 * 2-core machine) timed out; the suite allows 30 s per scenario.
 */
export const OAUTH_REQUEST_TIMEOUT_MS = 30_000;

/** Step-up authorizations one request tries on `insufficient_scope` before it fails. */
export const MAX_STEP_UP_ATTEMPTS = 2;

/** The loopback redirect helper waits this long for the browser. */
export const DEFAULT_LOOPBACK_WAIT_MS = 300_000;
