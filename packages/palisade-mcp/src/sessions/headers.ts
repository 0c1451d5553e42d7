/** The HTTP header names a session adds to the transport, for the CORS lists (http/cors.ts). */

/** The request headers a session adds to what a browser page may send (CORS): its id, and a stream's resumption. */
export const SESSION_REQUEST_HEADERS: readonly string[] = Object.freeze(['mcp-session-id', 'last-event-id']);

/** The response header a page must be let read (CORS) to learn its session. */
export const SESSION_RESPONSE_HEADERS: readonly string[] = Object.freeze(['mcp-session-id']);
