/**
 * HTTP sessions (the `sessions` option): one host per handler, over the three stores of
 * sessions/contracts.ts. Without the option none of this is built and the transport stays
 * stateless. With it:
 *
 * - `initialize` (a POST without Mcp-Session-Id) opens a session and answers its id in
 *   `Mcp-Session-Id`; past `maxSessions` it is 503 with Retry-After, and no live session is evicted.
 * - Every later handshake-era message carries the id: missing 400, malformed 400 (checked before
 *   any lookup, never echoed), unknown, expired, ended or another principal's 404.
 * - POST runs the message in the session's state (revision, capabilities, level, subscriptions);
 *   a JSON-RPC response body is the client's reply to a request a handler sent, handed to that
 *   handler through the relay; `notifications/cancelled` aborts the named request.
 * - GET opens the session's one standalone stream (a second is 409) where list changes,
 *   subscribed resource updates and notifications of requests that cannot stream arrive, or with
 *   `Last-Event-ID` resumes any of its streams from the event store.
 * - DELETE ends the session: requests in flight are aborted, streams closed, waits ended.
 *
 * A 2026-07-28 request (its `_meta` names the revision) is served statelessly as ever: it ignores
 * the header and never gets a session.
 */
import type { ServerResponse } from 'node:http';
import type { LogLevel } from '../../catalog/types.js';
import { SESSION_LIMIT_RETRY_AFTER_SECONDS, SESSION_SWEEP_INTERVAL_MS } from '../../limits.js';
import { isPlainObject } from '../../options.js';
import { type Change, missedChanges } from '../../protocol/change-hub.js';
import { handleMessage } from '../../protocol/core.js';
import { LIST_METHODS, serves } from '../../protocol/methods/listen.js';
import { type ConnectionState, type LegacySession, sessionState } from '../../protocol/state.js';
import { LEGACY_REVISION, META_PROTOCOL_VERSION, MODERN_REVISION } from '../../revisions.js';
import type { Server } from '../../server.js';
import { looksLikeReply, readClientReply } from '../../sessions/client-reply.js';
import type {
  Awaitable,
  OpenRefusal,
  SessionChange,
  SessionRecord,
  StoredEvent,
} from '../../sessions/contracts.js';
import type { CheckedSessions } from '../../sessions/options.js';
import { PrincipalDigests } from '../../sessions/principal.js';
import { isSessionIdSyntax, mintSessionId } from '../../sessions/session-id.js';
import { UnavailableError } from '../../unavailable.js';
import { HEADER_MISMATCH } from '../../wire/codes.js';
import { encodeMessage } from '../../wire/encode.js';
import { classify, type JsonRpcNotification, type RequestId } from '../../wire/jsonrpc.js';
import { type AnswerInput, answer } from '../answer.js';
import { reportRefusal } from '../exchange-steps.js';
import {
  checkCarriedHeaders,
  type HeaderIndex,
  type ModernHeaderInput,
  PROTOCOL_VERSION_LOWER,
  readVersionHeader,
  trimOws,
  valuesOf,
} from '../headers/index.js';
import type { HttpLogEvent } from '../http-options.js';
import { type HttpRefusal, WRITE_REFUSALS } from '../refusals.js';
import { statusOf, writeEmpty, writeJson, writeRefusal } from '../respond.js';
import { boundedWriter } from '../sse-writer.js';
import { unavailableAnswer } from '../unavailable-answer.js';
import { type CallSession, SessionCall } from './session-call.js';
import { SESSION_REFUSALS } from './session-refusals.js';
import { SessionStream } from './session-stream.js';

/** The methods an endpoint with sessions serves: the `Allow` of its 405 for any other. */
export const SESSION_METHODS = 'GET, POST, DELETE';

/** The header a session id travels in, both ways (lower case: HTTP names are case-insensitive). */
export const SESSION_HEADER = 'mcp-session-id';
const LAST_EVENT_ID = 'last-event-id';
const LAST_EVENT_ID_SYNTAX = /^[A-Za-z0-9._~+/=:-]{1,128}$/;

/** What the runtime's handler settled about one request before the session takes it. */
export interface SessionRequest {
  readonly headers: HeaderIndex;
  readonly auth: unknown;
  /** The client's Accept admits text/event-stream. */
  readonly mayStream: boolean;
  readonly res: ServerResponse;
}

export interface HostHooks {
  readonly onFault: (description: string, cause: unknown) => void;
  readonly onLog: (event: HttpLogEvent) => void;
}

/** What every call of every session on one host shares: built once, so a call allocates none of it. */
interface CallShared {
  readonly server: Server;
  readonly inputTimeoutMs: number;
  readonly pollAfterMs: number | undefined;
  readonly relay: CallSession['relay'];
  readonly relayCarriesCancels: boolean;
  readonly reportFault: (description: string, cause: unknown) => void;
  readonly reportRefusal: (refusal: HttpRefusal) => void;
  newStream(live: LiveSession): SessionStream;
  settled(live: LiveSession, call: SessionCall): void;
}

/**
 * What this process holds of a session beyond its stored record: running calls and open streams.
 * It is also what its calls see of the session (CallSession).
 */
class LiveSession implements CallSession {
  record: SessionRecord;
  readonly calls = new Map<string, SessionCall>();
  /** Streams that may still get events or connections, by their event-store id. */
  readonly streams = new Map<string, SessionStream>();
  standalone: SessionStream | undefined;
  /**
   * The host's sequence number when a change this process stored was last laid on `record`: a
   * store read begun before it may not hold that change, and must not replace the record.
   */
  changedAt = 0;
  readonly #shared: CallShared;

  constructor(record: SessionRecord, shared: CallShared) {
    this.record = record;
    this.#shared = shared;
  }

  get id(): string {
    return this.record.id;
  }
  get server(): Server {
    return this.#shared.server;
  }
  get inputTimeoutMs(): number {
    return this.#shared.inputTimeoutMs;
  }
  get pollAfterMs(): number | undefined {
    return this.#shared.pollAfterMs;
  }
  get relay(): CallSession['relay'] {
    return this.#shared.relay;
  }
  get relayCarriesCancels(): boolean {
    return this.#shared.relayCarriesCancels;
  }
  get reportFault(): (description: string, cause: unknown) => void {
    return this.#shared.reportFault;
  }
  get reportRefusal(): (refusal: HttpRefusal) => void {
    return this.#shared.reportRefusal;
  }

  openStream(): SessionStream {
    return this.#shared.newStream(this);
  }

  connectedStandalone(): SessionStream | undefined {
    return this.standalone?.connected === true ? this.standalone : undefined;
  }

  settled(call: SessionCall): void {
    this.#shared.settled(this, call);
  }

  get active(): boolean {
    if (this.calls.size > 0 || this.standalone?.connected === true) return true;
    for (const stream of this.streams.values()) if (stream.connected) return true;
    return false;
  }
}

function namesModernRevision(headers: HeaderIndex): boolean {
  const named = valuesOf(headers, PROTOCOL_VERSION_LOWER);
  return named.length === 1 && trimOws(named[0] as string) === MODERN_REVISION;
}

function callKey(id: RequestId): string {
  // Stryker disable next-line EqualityOperator: swapping the prefixes still keeps 1 and "1" apart
  return typeof id === 'number' ? `n${id}` : `s${id}`;
}

function after<T>(value: Awaitable<T>, next: (value: T) => void, fail: (cause: unknown) => void): void {
  if (value instanceof Promise) value.then(next, fail);
  else next(value);
}

function legacyOf(record: SessionRecord): LegacySession {
  // No Set for a session that watches nothing, as most do: the core reads an absent one as empty.
  const legacy: LegacySession =
    // Stryker disable next-line ConditionalExpression: an empty Set reads as an absent one; only the cost differs
    record.subscriptions.length === 0
      ? {
          revision: record.revision,
          clientCapabilities: record.clientCapabilities,
          initialized: record.initialized,
        }
      : {
          revision: record.revision,
          clientCapabilities: record.clientCapabilities,
          initialized: record.initialized,
          subscriptions: new Set(record.subscriptions),
        };
  // Stryker disable next-line ConditionalExpression: a logLevel of undefined reads as none; only the cost differs
  return record.logLevel === undefined ? legacy : { ...legacy, logLevel: record.logLevel };
}

/** What a request changed in its session's state, as the store records it; undefined for nothing. */
function changeOf(before: LegacySession, after: LegacySession): SessionChange | undefined {
  const change: { initialized?: boolean; logLevel?: LogLevel; subscriptions?: readonly string[] } = {};
  // Stryker disable next-line BooleanLiteral: #persist asks only when the core returned a changed session
  let changed = false;
  if (after.initialized !== before.initialized) {
    change.initialized = after.initialized;
    changed = true;
  }
  if (after.logLevel !== before.logLevel && after.logLevel !== undefined) {
    change.logLevel = after.logLevel;
    changed = true;
  }
  if (after.subscriptions !== before.subscriptions) {
    change.subscriptions = [...(after.subscriptions ?? [])];
    changed = true;
  }
  return changed ? change : undefined;
}

export class SessionHost {
  readonly #server: Server;
  readonly #options: CheckedSessions;
  readonly #hooks: HostHooks;
  readonly #live = new Map<string, LiveSession>();
  readonly #digests = new PrincipalDigests();
  readonly #shared: CallShared;
  #sweeper: NodeJS.Timeout | undefined;
  #unlisten: (() => void) | undefined;
  /** close() ran: no session starts or runs here again, so nothing it stopped starts again. */
  #closed = false;
  /** Orders store reads against changes stored from here (LiveSession.changedAt). */
  #sequence = 0;

  constructor(server: Server, options: CheckedSessions, hooks: HostHooks) {
    this.#server = server;
    this.#options = options;
    this.#hooks = hooks;
    this.#shared = {
      server,
      inputTimeoutMs: options.inputTimeoutMs,
      pollAfterMs: options.pollAfterMs,
      relay: options.relay,
      relayCarriesCancels: !options.owned.relay,
      reportFault: hooks.onFault,
      reportRefusal: (refusal) => reportRefusal(hooks.onLog, { refusal }),
      newStream: (live) => this.#newStream(live),
      settled: (live, call) => {
        live.calls.delete(callKey(call.requestId));
        this.#release(live);
      },
    };
  }

  #refuse(res: ServerResponse, refusal: HttpRefusal, headers: Readonly<Record<string, string>> = {}): void {
    reportRefusal(this.#hooks.onLog, { refusal });
    writeRefusal(res, refusal, headers);
  }

  #storeFault(res: ServerResponse): (cause: unknown) => void {
    return (cause) => {
      // A store only unreachable for now names its own refusal and when to retry; no fault.
      if (cause instanceof UnavailableError) {
        const { refusal, headers } = unavailableAnswer(cause);
        this.#refuse(res, refusal, headers);
        return;
      }
      this.#hooks.onFault('the session store failed', cause);
      this.#refuse(res, SESSION_REFUSALS.storeFault);
    };
  }

  // --- admission ------------------------------------------------------------------------------

  /** Runs `then` on the session the request's id names, for the principal `authorize` admitted. */
  #withSession(request: SessionRequest, then: (record: SessionRecord) => void): void {
    const admitted = this.#admit(request);
    if (admitted instanceof Promise)
      void admitted.then((record) => {
        if (record !== undefined) then(record);
      });
    else if (admitted !== undefined) then(admitted);
  }

  /**
   * The session the request's id names, for the principal `authorize` admitted; undefined once
   * refused. A store that answers at once costs no closure here: this runs on every request.
   */
  #admit(request: SessionRequest): Awaitable<SessionRecord | undefined> {
    const { headers, res } = request;
    // Stryker disable next-line ConditionalExpression,BlockStatement: #opened checks again once the store answered (the store a closed host built is empty)
    if (this.#closed) {
      this.#refuseClosed(res);
      return;
    }
    const values = valuesOf(headers, SESSION_HEADER);
    if (values.length === 0) {
      this.#refuse(res, SESSION_REFUSALS.idMissing);
      return;
    }
    if (values.length > 1) {
      this.#refuse(res, SESSION_REFUSALS.idRepeated);
      return;
    }
    const id = trimOws(values[0] as string);
    if (!isSessionIdSyntax(id)) {
      this.#refuse(res, SESSION_REFUSALS.idMalformed);
      return;
    }
    const principal = this.#principal(request);
    if (principal === undefined) return;
    const { store, idleTimeoutMs } = this.#options;
    const readAt = ++this.#sequence;
    let opened: Awaitable<SessionRecord | OpenRefusal>;
    try {
      opened = store.open(id, principal, Date.now(), idleTimeoutMs);
    } catch (cause) {
      this.#storeFault(res)(cause);
      return;
    }
    if (!(opened instanceof Promise)) return this.#opened(opened, res, readAt);
    return opened.then(
      (record) => this.#opened(record, res, readAt),
      (cause: unknown) => {
        this.#storeFault(res)(cause);
        return undefined;
      },
    );
  }

  #opened(
    record: SessionRecord | OpenRefusal,
    res: ServerResponse,
    readAt: number,
  ): SessionRecord | undefined {
    // A store that answered after close() ran finds nothing to serve here.
    if (this.#closed) {
      this.#refuseClosed(res);
      return undefined;
    }
    if (record === 'unknown') {
      this.#refuse(res, SESSION_REFUSALS.unknown);
      return undefined;
    }
    if (record === 'other-principal') {
      this.#refuse(res, SESSION_REFUSALS.otherPrincipal);
      return undefined;
    }
    const live = this.#live.get(record.id);
    // Stryker disable next-line EqualityOperator: one counter numbers reads and changes, so the two are never equal
    if (live !== undefined && live.changedAt < readAt) live.record = record;
    return record;
  }

  /**
   * After close(): a session of the store this host built has ended with it (404, as the
   * transport requires of an ended session); one of a given store lives on where another process
   * serves it, and this one is closing (503).
   */
  #refuseClosed(res: ServerResponse): void {
    this.#refuse(res, this.#options.owned.store ? SESSION_REFUSALS.unknown : SESSION_REFUSALS.closed);
  }

  #principal(request: SessionRequest): string | undefined {
    try {
      return this.#digests.digest(this.#options.principal(request.auth));
    } catch (cause) {
      this.#hooks.onFault('sessions.principal failed to name the principal', cause);
      this.#refuse(request.res, SESSION_REFUSALS.principalFault);
      return undefined;
    }
  }

  // --- POST ----------------------------------------------------------------------------------

  post(message: Record<string, unknown>, request: SessionRequest, stateless: AnswerInput): void {
    const params = message['params'];
    const meta = isPlainObject(params) ? params['_meta'] : undefined;
    // 2026-07-28 is stateless: its requests ignore Mcp-Session-Id and never get a session.
    if (
      (isPlainObject(meta) && Object.hasOwn(meta, META_PROTOCOL_VERSION)) ||
      (valuesOf(request.headers, SESSION_HEADER).length === 0 && namesModernRevision(request.headers))
    ) {
      // A body naming 2026-07-28 only in its header is refused by the core as on the stateless
      // path (its `_meta` is missing), not told to send a session id it must never send.
      answer(stateless, request.res);
      return;
    }
    if (looksLikeReply(message)) {
      this.#reply(message, request);
      return;
    }
    const sorted = classify(message);
    // A message no session could run: the core refuses it, as on the stateless path.
    if (sorted.kind === 'refused') {
      answer(stateless, request.res);
      return;
    }
    if (sorted.kind === 'request' && sorted.message.method === 'initialize') {
      if (valuesOf(request.headers, SESSION_HEADER).length > 0)
        this.#refuse(request.res, SESSION_REFUSALS.initializeWithId);
      else this.#initialize(message, request);
      return;
    }
    const isRequest = sorted.kind === 'request';
    const admitted = this.#admit(request);
    if (admitted instanceof Promise)
      void admitted.then((record) => {
        if (record !== undefined) this.#run(record, message, isRequest, request);
      });
    else if (admitted !== undefined) this.#run(admitted, message, isRequest, request);
  }

  #initialize(message: Record<string, unknown>, request: SessionRequest): void {
    const { res } = request;
    const { store, maxSessions } = this.#options;
    // Stryker disable next-line ConditionalExpression,BlockStatement: checked again once the store has counted
    if (this.#closed) {
      this.#refuse(res, SESSION_REFUSALS.closed);
      return;
    }
    const principal = this.#principal(request);
    if (principal === undefined) return;
    const limitHeaders = { 'retry-after': String(SESSION_LIMIT_RETRY_AFTER_SECONDS) };
    let size: Awaitable<number>;
    try {
      size = store.size();
    } catch (cause) {
      this.#storeFault(res)(cause);
      return;
    }
    after(
      size,
      (count) => {
        if (this.#closed) {
          this.#refuse(res, SESSION_REFUSALS.closed);
          return;
        }
        // Refused before the core runs: a flood past the limit costs a lookup, not a handshake.
        // Stryker disable next-line ConditionalExpression,BlockStatement,EqualityOperator: create() refuses past the limit too; this saves the handshake's cost
        if (count >= maxSessions) {
          this.#refuse(res, SESSION_REFUSALS.limit, limitHeaders);
          return;
        }
        const exchange = handleMessage(this.#server, sessionState(undefined), message, NO_IO);
        void exchange.response.then((response) => {
          const legacy = exchange.state.legacy;
          if (response === undefined || 'error' in response || legacy === undefined) {
            const text = JSON.stringify(response);
            writeJson(res, statusOf(response, exchange.stage), text);
            return;
          }
          const record: SessionRecord = {
            id: mintSessionId(),
            principal,
            revision: legacy.revision,
            clientCapabilities: legacy.clientCapabilities,
            initialized: false,
            subscriptions: [],
            lastSeen: Date.now(),
          };
          const encoded = encodeMessage(response);
          let created: Awaitable<boolean>;
          try {
            created = store.create(record, maxSessions);
          } catch (cause) {
            this.#storeFault(res)(cause);
            return;
          }
          after(
            created,
            (ok) => {
              if (!ok) {
                this.#refuse(res, SESSION_REFUSALS.limit, limitHeaders);
                return;
              }
              // close() ran while the store made it: it is undone, and nothing starts here.
              if (this.#closed) {
                this.#settleStore(store.delete(record.id), 'a session store failed to end a session');
                this.#refuse(res, SESSION_REFUSALS.closed);
                return;
              }
              this.#startSweeper();
              const text = encoded.ok ? encoded.text : JSON.stringify(response);
              writeJson(res, 200, text, { [SESSION_HEADER]: record.id });
            },
            this.#storeFault(res),
          );
        });
      },
      this.#storeFault(res),
    );
  }

  /** A handshake-era message on its session: the headers held to it, then the core in its state. */
  #run(
    record: SessionRecord,
    message: Record<string, unknown>,
    isRequest: boolean,
    request: SessionRequest,
  ): void {
    const { res, headers } = request;
    const version = readVersionHeader(headers);
    if (!version.ok) {
      this.#refuse(res, SESSION_REFUSALS.versionNotNegotiated);
      return;
    }
    // Without the header the session's own revision applies (the transport text's "other way").
    if (version.version !== undefined && version.version !== record.revision) {
      this.#refuse(res, SESSION_REFUSALS.versionNotNegotiated);
      return;
    }
    const carried = checkCarriedHeaders(this.#headerInput(message, headers));
    if (!carried.ok) {
      const refusal: HttpRefusal = {
        rule: 'header-mismatch',
        status: 400,
        code: HEADER_MISMATCH,
        message: carried.message,
        early: false,
      };
      this.#refuse(res, refusal);
      return;
    }
    const legacy = legacyOf(record);
    const state = sessionState(legacy);
    if (!isRequest) {
      this.#notification(record, legacy, state, message, res);
      return;
    }

    const id = message['id'] as RequestId;
    const live = this.#liveOf(record);
    const key = callKey(id);
    if (live.calls.has(key)) {
      this.#refuse(res, SESSION_REFUSALS.idInFlight);
      return;
    }
    if (live.calls.size >= this.#options.maxRequestsInFlight) {
      this.#refuse(res, SESSION_REFUSALS.requestsInFlight, { 'retry-after': '1' });
      return;
    }
    const call = new SessionCall(
      live,
      id,
      request.auth,
      res,
      request.mayStream,
      record.revision === LEGACY_REVISION,
    );
    live.calls.set(key, call);
    call.run(state, message, (next) => this.#persist(record, legacy, next));
  }

  #notification(
    record: SessionRecord,
    legacy: LegacySession,
    state: ConnectionState,
    message: Record<string, unknown>,
    res: ServerResponse,
  ): void {
    const exchange = handleMessage(this.#server, state, message, NO_IO);
    if (exchange.cancels !== undefined) this.#cancel(record.id, exchange.cancels);
    // Acknowledged once stored: the client's next request may reach another process.
    let stored: Awaitable<void>;
    try {
      stored = this.#persist(record, legacy, exchange.state);
    } catch (cause) {
      this.#storeFault(res)(cause);
      return;
    }
    after(stored, () => writeEmpty(res, 202), this.#storeFault(res));
  }

  /**
   * `notifications/cancelled`: a call running here is found in this host's own map; a relay the
   * host was given carries the cancel to the other processes (the one it built reaches none).
   */
  #cancel(session: string, request: RequestId): void {
    this.#live.get(session)?.calls.get(callKey(request))?.cancel();
    // Stryker disable next-line ConditionalExpression: the relay a host built reaches no other process; a cancel on it finds the call already cancelled
    if (this.#options.owned.relay) return;
    const failed = (cause: unknown): void => {
      // A cancel lost while shared state is unreachable is no fault of the host's.
      if (!(cause instanceof UnavailableError))
        this.#hooks.onFault('the session relay failed to carry a cancel', cause);
    };
    try {
      const carried = this.#options.relay.cancel(session, request);
      if (carried instanceof Promise) carried.catch(failed);
    } catch (cause) {
      failed(cause);
    }
  }

  /**
   * Records what a message changed in its session; the caller answers once this settles. The
   * change reaches this process's live session (what its GET stream is sent) only once stored, and
   * onto the record as it is then: a refused change is not heard here either.
   */
  #persist(record: SessionRecord, before: LegacySession, next: ConnectionState): Awaitable<void> {
    const nextLegacy = next.legacy;
    // Stryker disable next-line ConditionalExpression,LogicalOperator: changeOf finds nothing changed in the same session; only the cost differs
    if (nextLegacy === undefined || nextLegacy === before) return;
    const change = changeOf(before, nextLegacy);
    if (change === undefined) return;
    const apply = (): void => {
      const live = this.#live.get(record.id);
      if (live === undefined) return;
      live.record = { ...live.record, ...change };
      live.changedAt = ++this.#sequence;
    };
    const stored = this.#options.store.update(record.id, change);
    if (stored instanceof Promise) return stored.then(apply);
    apply();
  }

  /** A store call whose outcome nobody waits for: a failure is the host's to hear, never unhandled. */
  #settleStore(value: Awaitable<unknown>, description: string): void {
    if (value instanceof Promise)
      value.catch((cause: unknown) => {
        if (!(cause instanceof UnavailableError)) this.#hooks.onFault(description, cause);
      });
  }

  #headerInput(message: Record<string, unknown>, headers: HeaderIndex): ModernHeaderInput {
    const method = message['method'] as string;
    const params = isPlainObject(message['params']) ? message['params'] : undefined;
    const name = params?.['name'];
    return {
      headers,
      message: { method, params, isNotification: !Object.hasOwn(message, 'id') },
      headerFields:
        method === 'tools/call' && typeof name === 'string'
          ? this.#server.catalog.tools?.get(name)?.headerFields
          : undefined,
    };
  }

  /** A JSON-RPC response POSTed on a session: the client's reply to a request a handler sent. */
  #reply(message: Record<string, unknown>, request: SessionRequest): void {
    const { res } = request;
    const reply = readClientReply(message);
    if (reply === undefined) {
      this.#refuse(res, SESSION_REFUSALS.replyMalformed);
      return;
    }
    this.#withSession(request, (record) => {
      let delivered: ReturnType<CheckedSessions['relay']['deliver']>;
      try {
        delivered = this.#options.relay.deliver(record.id, reply);
      } catch (cause) {
        this.#storeFault(res)(cause);
        return;
      }
      after(
        delivered,
        (outcome) => {
          if (outcome === 'delivered') {
            writeEmpty(res, 202);
            return;
          }
          this.#refuse(res, outcome === 'late' ? SESSION_REFUSALS.replyLate : SESSION_REFUSALS.replyUnknown);
        },
        this.#storeFault(res),
      );
    });
  }

  // --- GET -----------------------------------------------------------------------------------

  get(request: SessionRequest): void {
    const { res, headers } = request;
    if (!request.mayStream) {
      this.#refuse(res, SESSION_REFUSALS.getNeedsStream);
      return;
    }
    const lastIds = valuesOf(headers, LAST_EVENT_ID);
    const lastId = lastIds.length === 1 ? trimOws(lastIds[0] as string) : undefined;
    if (lastIds.length > 1 || (lastId !== undefined && !LAST_EVENT_ID_SYNTAX.test(lastId))) {
      this.#refuse(res, SESSION_REFUSALS.lastEventIdMalformed);
      return;
    }
    this.#withSession(request, (record) => {
      if (lastId === undefined) {
        this.#openStandalone(record, res);
        return;
      }
      this.#resume(record, lastId, res);
    });
  }

  #openStandalone(record: SessionRecord, res: ServerResponse): void {
    const live = this.#liveOf(record);
    if (live.standalone?.connected === true) {
      this.#refuse(res, SESSION_REFUSALS.standaloneOpen);
      return;
    }
    if (live.standalone === undefined) {
      live.standalone = this.#newStream(live);
      this.#listenForChanges();
    }
    live.standalone.attach(res, record.revision === LEGACY_REVISION);
    res.once('close', () => this.#release(live));
  }

  #resume(record: SessionRecord, lastId: string, res: ServerResponse): void {
    const { events } = this.#options;
    const first = events.replay(record.id, lastId);
    after(
      first,
      (replay) => {
        if (replay === 'unknown') {
          this.#refuse(res, SESSION_REFUSALS.lastEventIdUnknown);
          return;
        }
        if (replay === 'evicted') {
          this.#refuse(res, SESSION_REFUSALS.lastEventIdEvicted);
          return;
        }
        const live = this.#live.get(record.id);
        const stream =
          live?.standalone?.storeId === replay.stream ? live.standalone : live?.streams.get(replay.stream);
        if (stream === undefined || live === undefined) {
          this.#replayEnded(replay.events, res);
          return;
        }
        // Read again inside the stream's order, so nothing appended meanwhile is missed or doubled.
        stream.resume(res, () => {
          const again = events.replay(record.id, lastId);
          const pick = (read: Exclude<typeof again, Promise<unknown>>): readonly StoredEvent[] | undefined =>
            typeof read === 'string' ? undefined : read.events;
          return again instanceof Promise ? again.then(pick) : pick(again);
        });
        res.once('close', () => this.#release(live));
      },
      this.#storeFault(res),
    );
  }

  /** A stream no longer running here: what the store kept, then the end. */
  #replayEnded(kept: readonly StoredEvent[], res: ServerResponse): void {
    const writer = boundedWriter(res, (why) => this.#overrun(why));
    writer.begin();
    for (const event of kept) {
      if (event.data === '') writer.frame(`id: ${event.id}\ndata: \n\n`);
      else writer.event(event.data, event.id);
    }
    writer.end();
  }

  // --- DELETE --------------------------------------------------------------------------------

  delete(request: SessionRequest): void {
    this.#withSession(request, (record) => {
      const { res } = request;
      let deleted: Awaitable<boolean>;
      try {
        deleted = this.#options.store.delete(record.id);
      } catch (cause) {
        this.#storeFault(res)(cause);
        return;
      }
      // Ended here at once, and answered once the store no longer holds it: after the 204 no
      // process behind the same store serves the session. Its waits and events are dropped only
      // then: a delete the store refused leaves a session that can still be resumed.
      this.#endHere(record.id);
      after(
        deleted,
        () => {
          this.#forget(record.id);
          writeEmpty(res, 204);
        },
        this.#storeFault(res),
      );
    });
  }

  // --- live sessions -------------------------------------------------------------------------

  #liveOf(record: SessionRecord): LiveSession {
    let live = this.#live.get(record.id);
    if (live === undefined) {
      live = new LiveSession(record, this.#shared);
      this.#live.set(record.id, live);
    }
    return live;
  }

  /** Forgets what this process holds of a session once nothing of it is running or open here. */
  #release(live: LiveSession): void {
    for (const [id, stream] of live.streams) if (stream.ended && !stream.connected) live.streams.delete(id);
    if (live.calls.size === 0 && live.streams.size === 0 && live.standalone === undefined)
      this.#live.delete(live.record.id);
  }

  #newStream(live: LiveSession): SessionStream {
    const { events, limits, retryMs } = this.#options;
    const stream = new SessionStream(live.record.id, {
      events,
      limits,
      retryMs,
      fault: (description, cause) => this.#hooks.onFault(description, cause),
      overrun: (why) => this.#overrun(why),
      full: () => reportRefusal(this.#hooks.onLog, { refusal: SESSION_REFUSALS.streams }),
      opened: (opened) => {
        if (opened !== live.standalone && opened.storeId !== undefined)
          live.streams.set(opened.storeId, opened);
      },
    });
    return stream;
  }

  #overrun(why: 'queue' | 'events' | 'stall'): void {
    const refusal =
      why === 'queue'
        ? WRITE_REFUSALS.sseQueueFull
        : why === 'events'
          ? WRITE_REFUSALS.sseEventsQueued
          : WRITE_REFUSALS.sseDrainTimeout;
    reportRefusal(this.#hooks.onLog, { refusal });
  }

  /** Ends a session here and in the stores: its calls are aborted, streams closed, waits ended. */
  #end(id: string): void {
    this.#endHere(id);
    this.#forget(id);
  }

  /** What runs here of a session: its calls aborted, its streams closed. */
  #endHere(id: string): void {
    const live = this.#live.get(id);
    this.#live.delete(id);
    if (live === undefined) return;
    for (const call of [...live.calls.values()]) call.cancel();
    live.standalone?.end();
    for (const stream of live.streams.values()) stream.end();
  }

  /** A session's waits for its client and its kept events, once the store no longer holds it. */
  #forget(id: string): void {
    const { relay, events } = this.#options;
    const description = 'a session store failed to end a session';
    try {
      this.#settleStore(relay.endSession(id), description);
      this.#settleStore(events.dropSession(id), description);
    } catch (cause) {
      this.#hooks.onFault(description, cause);
    }
  }

  // --- changes and expiry --------------------------------------------------------------------

  #listenForChanges(): void {
    if (this.#unlisten !== undefined) return;
    this.#unlisten = this.#server.changes.listen(
      (change) => this.#onChange(change),
      () => {
        const watched = new Set<string>();
        for (const live of this.#live.values()) for (const uri of live.record.subscriptions) watched.add(uri);
        for (const change of missedChanges(this.#server.changes.declared, watched)) this.#onChange(change);
      },
    );
  }

  #onChange(change: Change): void {
    let text: string | undefined;
    if (change.kind !== 'resourceUpdated') {
      if (!serves(this.#server.catalog, change.kind)) return;
      text = JSON.stringify({
        jsonrpc: '2.0',
        method: LIST_METHODS[change.kind],
      } satisfies JsonRpcNotification);
    }
    for (const live of this.#live.values()) {
      const stream = live.standalone;
      if (stream === undefined || !live.record.initialized) continue;
      if (change.kind === 'resourceUpdated') {
        if (!live.record.subscriptions.includes(change.uri)) continue;
        const note: JsonRpcNotification = {
          jsonrpc: '2.0',
          method: 'notifications/resources/updated',
          params: { uri: change.uri },
        };
        const encoded = encodeMessage(note);
        if (encoded.ok) stream.send(encoded.text);
        continue;
      }
      stream.send(text as string);
    }
  }

  #startSweeper(): void {
    if (this.#sweeper !== undefined) return;
    const every = Math.max(
      1,
      Math.min(SESSION_SWEEP_INTERVAL_MS, Math.floor(this.#options.idleTimeoutMs / 4)),
    );
    this.#sweeper = setInterval(() => this.#sweep(), every);
    this.#sweeper.unref();
  }

  #sweep(): void {
    const { store, idleTimeoutMs } = this.#options;
    const now = Date.now();
    try {
      // What is running or open here is activity the store has not seen: it keeps a session alive.
      for (const live of this.#live.values())
        if (live.active)
          this.#settleStore(
            store.open(live.record.id, live.record.principal, now, idleTimeoutMs),
            'the session store failed to sweep',
          );
      after(
        store.sweep(now, idleTimeoutMs),
        (ended) => {
          for (const id of ended) this.#end(id);
        },
        (cause) => this.#hooks.onFault('the session store failed to sweep', cause),
      );
    } catch (cause) {
      this.#hooks.onFault('the session store failed to sweep', cause);
    }
  }

  /**
   * For shutdown (serve().close() calls it): stops the sweep and change listening, aborts every
   * call running here (its handler's signal fires, its waits for the client end) and ends every
   * open stream, so no timer, stream or handler of ours outlives the server. Sessions in a store
   * that was given are left there: another process may serve them. The in-memory stores this host
   * built are emptied, as no one else can reach them. Nothing it stopped starts again: a session
   * request after it is refused (#refuseClosed), even one whose store answers only later.
   */
  close(): void {
    this.#closed = true;
    if (this.#sweeper !== undefined) clearInterval(this.#sweeper);
    this.#sweeper = undefined;
    this.#unlisten?.();
    this.#unlisten = undefined;
    const { store, events, relay, owned } = this.#options;
    const ids = new Set(this.#live.keys());
    for (const live of [...this.#live.values()]) {
      this.#live.delete(live.record.id);
      for (const call of [...live.calls.values()]) call.cancel();
      live.standalone?.end();
      for (const stream of live.streams.values()) stream.end();
    }
    try {
      // idleMs 0: every session is past it, so the sweep hands back every id it held.
      if (owned.store) for (const id of store.sweep(Date.now(), 0) as readonly string[]) ids.add(id);
      for (const id of ids) {
        if (owned.relay) void relay.endSession(id);
        if (owned.events) void events.dropSession(id);
      }
    } catch (cause) {
      this.#hooks.onFault('a session store failed to close', cause);
    }
  }
}

/** What the core borrows for a message that runs no handler (initialize, a notification). */
const NO_IO = Object.freeze({
  signal: new AbortController().signal,
  auth: undefined,
  emit: () => {},
  reportFault: () => {},
});
