/**
 * The stable names of the rules a transport refuses by, as types: what the refusal channels
 * publish and the logger records carry in `rule`. Each transport's refusal table is typed by
 * these, so a rule cannot be published under a name missing here, and a subscriber's `switch`
 * sees every name the transport can give.
 */
import type { FramingRule, JsonRule } from '../wire/refusal.js';

/**
 * The name a host's `authorize` or `authorizeBody` hook gave its refusal (`bearer-expired`),
 * published in place of `authorize` or `authorize-body`. Checked before it is used: lower-case
 * letters, digits and `-`, at most 64 characters, starting with a letter. The brand is a plain
 * property name, not a symbol, so two copies of the package agree on the type.
 */
export type HostRuleName = string & { readonly __palisadeHostRule: true };

/** The rules the HTTP transport refuses a request by, its own and not the host's. */
export type HttpTransportRule =
  // Host, Origin and the request line
  | 'host-repeated'
  | 'host-authority-mismatch'
  | 'host-target-mismatch'
  | 'host-not-allowed'
  | 'origin-not-allowed'
  | 'http-version'
  | 'path-not-found'
  | 'method-not-allowed'
  | 'get-stream-not-offered'
  | 'preflight-method-not-allowed'
  // serve()'s routes, the documents answered beside the MCP path
  | 'route-method-not-allowed'
  | 'route-body'
  | 'route-fault'
  | 'route-timeout'
  // What Node's parser refuses before a handler runs (serve() only)
  | 'head-too-large'
  | 'head-timeout'
  | 'malformed-request'
  // The connection's edge: what Node would answer on its own, and what it would let through
  | 'head-too-many-lines'
  | 'host-missing'
  | 'expectation-failed'
  | 'pipeline-too-deep'
  | 'http2-not-served'
  // The host's authorize hooks
  | 'authorize'
  | 'authorize-timeout'
  | 'authorize-fault'
  | 'authorize-body'
  | 'authorize-body-fault'
  // Media types and the body
  | 'not-acceptable'
  | 'unsupported-media-type'
  | 'length-required'
  | 'read-timeout'
  | 'body-already-read'
  | 'transport-fault'
  // After the body was read
  | 'header-mismatch'
  | 'protocol-version-not-served'
  | 'listen-needs-event-stream'
  // Sessions (the `sessions` option): the id, the principal, the bounds, resumption, replies
  | 'session-method-body'
  | 'session-id-missing'
  | 'session-id-malformed'
  | 'session-id-repeated'
  | 'session-unknown'
  | 'session-principal-mismatch'
  | 'session-limit'
  | 'session-principal-fault'
  | 'session-store-fault'
  | 'session-host-closed'
  | 'session-initialize-with-id'
  | 'session-requests-in-flight'
  | 'session-request-id-in-flight'
  | 'session-streams'
  | 'session-stream-open'
  | 'get-needs-event-stream'
  | 'last-event-id-malformed'
  | 'last-event-id-unknown'
  | 'last-event-id-evicted'
  | 'client-reply-malformed'
  | 'client-reply-unknown'
  | 'client-reply-late'
  | 'protocol-version-not-negotiated'
  // A client that stopped reading its answer
  | 'sse-queue-full'
  | 'sse-drain-timeout'
  | 'sse-events-queued'
  | 'json-drain-timeout';

/** A rule on `palisade:http-refusal`: the transport's, the JSON reader's, or one the host named. */
export type HttpRefusalRule = HttpTransportRule | JsonRule | HostRuleName;

/** A rule on `palisade:stdio-refusal`: the framer's, the JSON reader's, or an id already in flight. */
export type StdioRefusalRule = FramingRule | JsonRule | 'id-in-flight';
