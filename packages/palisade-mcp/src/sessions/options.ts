/**
 * The `sessions` option of createHttpHandler, createFetchHandler and serve(), checked once at
 * construction. Absent, the transport is stateless and none of this exists; `{}` turns sessions
 * on with every default. Each bound is a named constant in limits.ts with its reason.
 */
import { invalidOption } from '../errors.js';
import {
  DEFAULT_IDLE_SESSION_MS,
  DEFAULT_INPUT_TIMEOUT_MS,
  DEFAULT_MAX_SESSION_REQUESTS,
  DEFAULT_MAX_SESSION_STREAMS,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_MAX_STREAM_BYTES,
  DEFAULT_MAX_STREAM_EVENTS,
  DEFAULT_SSE_RETRY_MS,
  MAX_IDLE_SESSION_MS,
  MAX_INPUT_TIMEOUT_MS,
  MAX_MAX_SESSION_REQUESTS,
  MAX_MAX_SESSION_STREAMS,
  MAX_MAX_SESSIONS,
  MAX_MAX_STREAM_BYTES,
  MAX_MAX_STREAM_EVENTS,
  MAX_SSE_RETRY_MS,
} from '../limits.js';
import { isPlainObject, refuseUnknownKeys, requireFunction, requireInteger } from '../options.js';
import type { EventStore, SessionRelay, SessionStore, StreamLimits } from './contracts.js';
import { MemoryEventStore } from './memory-event-store.js';
import { MemoryRelay } from './memory-relay.js';
import { MemorySessionStore } from './memory-session-store.js';
import { defaultPrincipal, type PrincipalOf } from './principal.js';

export interface SessionsOptions {
  /** Live sessions at once; the next `initialize` is 503 with Retry-After. Default 10,000. */
  readonly maxSessions?: number;
  /** A session with no request, stream or request in flight for this long ends, ms. Default 1,800,000. */
  readonly idleTimeoutMs?: number;
  /** Requests one session may have in flight; one more is 429. Default 32. */
  readonly maxRequestsInFlight?: number;
  /** Event streams one session keeps for resumption. Default 64. */
  readonly maxStreams?: number;
  /** Events one stream keeps for `Last-Event-ID` replay. Default 1,024. */
  readonly maxStreamEvents?: number;
  /** Bytes of events one stream keeps for replay. Default 1,114,112. */
  readonly maxStreamBytes?: number;
  /** How long a handler waits for the client's answer to its request, ms. Default 300,000. */
  readonly inputTimeoutMs?: number;
  /** The SSE `retry` a client waits before reconnecting, ms. Default 1,000. */
  readonly retryMs?: number;
  /**
   * On 2025-11-25, hold a request's stream open at most this long, ms: then the stream is primed
   * (if it was not), its connection closed with a `retry`, and the client resumes it with a GET
   * and `Last-Event-ID` (SEP-1699 polling). Default: held until the answer.
   */
  readonly pollAfterMs?: number;
  /** The principal a session belongs to, from `authorize`'s `auth`. Default: the canonical JSON of `auth`. */
  readonly principal?: (auth: unknown) => string;
  /** Where sessions are kept. Default: this process's memory. */
  readonly store?: SessionStore;
  /** Where stream events are kept for resumption. Default: this process's memory. */
  readonly events?: EventStore;
  /** How replies and cancels reach the process running a request. Default: this process. */
  readonly relay?: SessionRelay;
}

export interface CheckedSessions {
  readonly maxSessions: number;
  readonly idleTimeoutMs: number;
  readonly maxRequestsInFlight: number;
  readonly limits: StreamLimits;
  readonly inputTimeoutMs: number;
  readonly retryMs: number;
  readonly pollAfterMs: number | undefined;
  readonly principal: PrincipalOf;
  readonly store: SessionStore;
  readonly events: EventStore;
  readonly relay: SessionRelay;
  /**
   * The stores this host built because none was given: only this process can reach them, so its
   * `close()` forgets what they hold. A store that was given may serve other processes too.
   */
  readonly owned: { readonly store: boolean; readonly events: boolean; readonly relay: boolean };
}

const SESSIONS_KEYS = [
  'maxSessions',
  'idleTimeoutMs',
  'maxRequestsInFlight',
  'maxStreams',
  'maxStreamEvents',
  'maxStreamBytes',
  'inputTimeoutMs',
  'retryMs',
  'pollAfterMs',
  'principal',
  'store',
  'events',
  'relay',
] as const;

function implementation<T>(value: unknown, path: string, methods: readonly string[], fallback: () => T): T {
  if (value === undefined) return fallback();
  if (typeof value !== 'object' || value === null) throw invalidOption(path, 'must be an object');
  for (const method of methods) {
    if (typeof (value as Record<string, unknown>)[method] !== 'function')
      throw invalidOption(`${path}.${method}`, 'must be a function');
  }
  return value as T;
}

/** undefined when sessions are off. */
export function checkSessionsOptions(value: unknown): CheckedSessions | undefined {
  if (value === undefined) return undefined;
  if (!isPlainObject(value)) throw invalidOption('sessions', 'must be a plain object ({} for the defaults)');
  refuseUnknownKeys(value, SESSIONS_KEYS, 'sessions');
  const integer = (key: string, fallback: number, min: number, max: number): number =>
    value[key] === undefined ? fallback : requireInteger(value[key], `sessions.${key}`, min, max);
  return Object.freeze({
    maxSessions: integer('maxSessions', DEFAULT_MAX_SESSIONS, 1, MAX_MAX_SESSIONS),
    idleTimeoutMs: integer('idleTimeoutMs', DEFAULT_IDLE_SESSION_MS, 1, MAX_IDLE_SESSION_MS),
    maxRequestsInFlight: integer(
      'maxRequestsInFlight',
      DEFAULT_MAX_SESSION_REQUESTS,
      1,
      MAX_MAX_SESSION_REQUESTS,
    ),
    limits: Object.freeze({
      streams: integer('maxStreams', DEFAULT_MAX_SESSION_STREAMS, 2, MAX_MAX_SESSION_STREAMS),
      events: integer('maxStreamEvents', DEFAULT_MAX_STREAM_EVENTS, 1, MAX_MAX_STREAM_EVENTS),
      bytes: integer('maxStreamBytes', DEFAULT_MAX_STREAM_BYTES, 1, MAX_MAX_STREAM_BYTES),
    }),
    inputTimeoutMs: integer('inputTimeoutMs', DEFAULT_INPUT_TIMEOUT_MS, 1, MAX_INPUT_TIMEOUT_MS),
    retryMs: integer('retryMs', DEFAULT_SSE_RETRY_MS, 0, MAX_SSE_RETRY_MS),
    pollAfterMs:
      value['pollAfterMs'] === undefined
        ? undefined
        : requireInteger(value['pollAfterMs'], 'sessions.pollAfterMs', 1, MAX_SSE_RETRY_MS),
    principal:
      value['principal'] === undefined
        ? defaultPrincipal
        : requireFunction<PrincipalOf>(value['principal'], 'sessions.principal'),
    store: implementation<SessionStore>(
      value['store'],
      'sessions.store',
      ['create', 'open', 'update', 'delete', 'sweep', 'size'],
      () => new MemorySessionStore(),
    ),
    events: implementation<EventStore>(
      value['events'],
      'sessions.events',
      ['openStream', 'append', 'endStream', 'replay', 'dropSession'],
      () => new MemoryEventStore(),
    ),
    relay: implementation<SessionRelay>(
      value['relay'],
      'sessions.relay',
      ['wait', 'deliver', 'onCancel', 'cancel', 'endSession'],
      () => new MemoryRelay(),
    ),
    owned: Object.freeze({
      store: value['store'] === undefined,
      events: value['events'] === undefined,
      relay: value['relay'] === undefined,
    }),
  });
}
