/**
 * The three 2025-11-25 methods that change what a connection remembers: `logging/setLevel`,
 * `resources/subscribe` and `resources/unsubscribe`. On stdio the connection is the session, and
 * over HTTP with the `sessions` option the session is, so the new level or subscription set is
 * part of the state the core returns (the HTTP layer keeps it in its store). Over stateless HTTP no
 * state outlives a POST: the requests are acknowledged with `{}` and change nothing, which is why
 * `subscribe` is advertised `false` there and a request's log level is the server's
 * `defaultLogLevel` (capabilities.ts).
 */
import type { JsonObject } from '../../catalog/types.js';
import { MAX_RESOURCE_SUBSCRIPTIONS, MAX_SUBSCRIBED_URI_BYTES } from '../../limits.js';
import type { JsonRpcResponse, RequestId } from '../../wire/jsonrpc.js';
import { isSubscribableUri } from '../change-hub.js';
import { invalidParams, methodNotFound } from '../errors.js';
import { isLogLevel } from '../handler-context.js';
import type { Server } from '../server-shape.js';
import type { ConnectionState, LegacySession } from '../state.js';
import { watchable } from './listen.js';

export interface SessionAnswer {
  readonly state: ConnectionState;
  readonly response: JsonRpcResponse;
}

export const SESSION_METHODS: ReadonlySet<string> = new Set([
  'logging/setLevel',
  'resources/subscribe',
  'resources/unsubscribe',
]);

const EMPTY: ReadonlySet<string> = Object.freeze(new Set<string>());

function acknowledged(state: ConnectionState, id: RequestId): SessionAnswer {
  return { state, response: { jsonrpc: '2.0', id, result: {} } };
}

function withSession(
  state: ConnectionState,
  session: LegacySession,
  change: Partial<LegacySession>,
): ConnectionState {
  return Object.freeze({ ...state, legacy: Object.freeze({ ...session, ...change }) });
}

export function answerSessionMethod(
  server: Server,
  state: ConnectionState,
  session: LegacySession,
  method: string,
  id: RequestId,
  params: Readonly<JsonObject>,
): SessionAnswer {
  const stateful = state.transport === 'stdio' || state.session === true;
  if (method === 'logging/setLevel') {
    const level = params['level'];
    if (!isLogLevel(level)) return { state, response: invalidParams(id, 'params.level is not a log level') };
    return acknowledged(stateful ? withSession(state, session, { logLevel: level }) : state, id);
  }
  if (!server.changes.declared.resourceSubscriptions || server.catalog.resources === undefined)
    return { state, response: methodNotFound(id) };
  const uri = params['uri'];
  if (!isSubscribableUri(uri))
    return {
      state,
      response: invalidParams(id, `params.uri must be a string of at most ${MAX_SUBSCRIBED_URI_BYTES} bytes`),
    };
  if (!stateful) return acknowledged(state, id);
  const current = session.subscriptions ?? EMPTY;
  if (method === 'resources/unsubscribe') {
    if (!current.has(uri)) return acknowledged(state, id);
    const next = new Set(current);
    next.delete(uri);
    return acknowledged(withSession(state, session, { subscriptions: Object.freeze(next) }), id);
  }
  if (!watchable(server.catalog, uri))
    return { state, response: invalidParams(id, 'no listed resource or template serves that URI') };
  if (current.has(uri)) return acknowledged(state, id);
  if (current.size >= MAX_RESOURCE_SUBSCRIPTIONS)
    return {
      state,
      response: invalidParams(id, `a session may watch at most ${MAX_RESOURCE_SUBSCRIPTIONS} resources`),
    };
  const next = new Set(current);
  next.add(uri);
  return acknowledged(withSession(state, session, { subscriptions: Object.freeze(next) }), id);
}
