/**
 * What an HTTP session keeps outside the process that serves one request, as three small
 * contracts. The in-memory implementations (memory-*.ts) are the default and need nothing else;
 * a shared implementation (PostgreSQL, for many processes behind a load balancer) plugs in
 * through `sessions.store`, `sessions.events` and `sessions.relay`, and proves itself with the
 * contract suite every implementation runs unchanged (test/sessions/contract-suite.ts).
 *
 * Every method may answer at once or with a promise. Everything stored is JSON data or text: no
 * live object (a socket, a handler, a timer) crosses a contract, so a store in another process
 * can hold it. What stays in the process is the open connections and the running handlers.
 */
import type { JsonObject, LogLevel } from '../catalog/types.js';
import type { HandshakeRevision } from '../revisions.js';
import type { RequestId } from '../wire/jsonrpc.js';

export type Awaitable<T> = T | Promise<T>;

/** One session as stored: what `initialize` agreed and what the client changed since. */
export interface SessionRecord {
  /** The id the client sends as `Mcp-Session-Id`: 32 base64url characters from the CSPRNG. */
  readonly id: string;
  /**
   * A SHA-256 digest (hex) of the principal `authorize` admitted the `initialize` with. A request
   * from any other principal finds no session (404), exactly as an unknown id does.
   */
  readonly principal: string;
  readonly revision: HandshakeRevision;
  /** What the client declared at `initialize`; the only capabilities its requests are held to. */
  readonly clientCapabilities: Readonly<JsonObject>;
  /** `notifications/initialized` arrived. */
  readonly initialized: boolean;
  /** Set by `logging/setLevel`; absent until then (the server's `defaultLogLevel` applies). */
  readonly logLevel?: LogLevel;
  /** URIs `resources/subscribe` watches, at most MAX_RESOURCE_SUBSCRIPTIONS. */
  readonly subscriptions: readonly string[];
  /** Last activity, milliseconds since the epoch. */
  readonly lastSeen: number;
}

/** Why `open` found no session the caller may use. */
export type OpenRefusal = 'unknown' | 'other-principal';

/** What a request may change in a session. */
export type SessionChange = Partial<Pick<SessionRecord, 'initialized' | 'logLevel' | 'subscriptions'>>;

export interface SessionStore {
  /**
   * Adds a session unless `limit` live sessions exist: answers false then, and the caller refuses
   * the `initialize` (503). A live session is never evicted to make room.
   */
  create(record: SessionRecord, limit: number): Awaitable<boolean>;
  /**
   * The session, its `lastSeen` moved to `now`. `unknown` when the id was never issued, the
   * session was deleted, or it was last seen `idleMs` or more before `now` (it is then gone for
   * good); `other-principal` when it belongs to another principal, whose request must not keep it
   * alive either (its `lastSeen` is left as it was).
   */
  open(id: string, principal: string, now: number, idleMs: number): Awaitable<SessionRecord | OpenRefusal>;
  /** Records a change one of the session's requests made. An unknown id is ignored. */
  update(id: string, change: SessionChange): Awaitable<void>;
  /** Ends a session; answers whether it was live. */
  delete(id: string): Awaitable<boolean>;
  /** Ends every session last seen `idleMs` or more before `now`, answering their ids. */
  sweep(now: number, idleMs: number): Awaitable<readonly string[]>;
  /** Live sessions (expired ones not yet swept may be counted). */
  size(): Awaitable<number>;
}

/** The bounds an event store keeps a session's streams within; the caller passes its options. */
export interface StreamLimits {
  /** Streams one session keeps, open or ended: past it the oldest ended one is forgotten. */
  readonly streams: number;
  /** Events one stream keeps for replay: past it the oldest is dropped. */
  readonly events: number;
  /** Bytes of event data one stream keeps: past it the oldest events are dropped, never the newest. */
  readonly bytes: number;
}

export interface StoredEvent {
  /** Unique across the session's streams; sent as the SSE `id` and read back as `Last-Event-ID`. */
  readonly id: string;
  /** The event's data: one JSON-RPC message as text, or '' for a stream's priming event. */
  readonly data: string;
}

export interface Replay {
  readonly stream: string;
  /** Every event kept after the one named, oldest first. */
  readonly events: readonly StoredEvent[];
  /** The stream has had its last event: nothing more will be appended. */
  readonly ended: boolean;
}

export type ReplayRefusal =
  /** The id names no event of this session's streams (never issued, or its stream forgotten). */
  | 'unknown'
  /** Events after it were dropped: a replay would hide a gap. */
  | 'evicted';

export interface EventStore {
  /** A new stream for `session`; undefined when it keeps `limits.streams` streams none of which has ended. */
  openStream(session: string, limits: StreamLimits): Awaitable<string | undefined>;
  /** Appends one event and answers its id; undefined when the stream is not kept (forgotten, or its session dropped). */
  append(session: string, stream: string, data: string, limits: StreamLimits): Awaitable<string | undefined>;
  /** Marks a stream ended after its last event. */
  endStream(session: string, stream: string): Awaitable<void>;
  /** What followed `lastEventId` on its stream. */
  replay(session: string, lastEventId: string): Awaitable<Replay | ReplayRefusal>;
  /** Forgets every stream of a session that ended. */
  dropSession(session: string): Awaitable<void>;
}

/** A client's JSON-RPC response to a request the server sent it, as read from a POST body. */
export type ClientReply =
  | { readonly id: RequestId; readonly result: Readonly<JsonObject> }
  | {
      readonly id: RequestId;
      readonly error: { readonly code: number; readonly message: string; readonly data?: unknown };
    };

/** How a wait ended without a reply. */
export type WaitEnd = 'lapsed' | 'ended';

export interface PendingReply {
  /** The id to send the request under: unique among the session's requests to the client. */
  readonly id: RequestId;
  /** Settles with the reply, `lapsed` at the deadline, or `ended` when the session ends. Never rejects. */
  readonly reply: Promise<ClientReply | WaitEnd>;
  /** Stops waiting (the handler was cancelled); a reply arriving later is refused as late. */
  cancel(): void;
}

/** What `deliver` did with a reply. */
export type Delivery =
  /** Handed to the waiting handler. */
  | 'delivered'
  /** No request of this session waits for that id (never sent, another session's, answered already). */
  | 'unknown'
  /** Its wait lapsed or was cancelled before the reply came. */
  | 'late';

/**
 * Carries what a client sends about a running request to whichever process runs it: its reply to
 * a request the handler sent, and its `notifications/cancelled`. In one process both are a map.
 */
export interface SessionRelay {
  /** Before a handler's request goes to the client: the id to send it under and its reply. */
  wait(session: string, deadline: number): Awaitable<PendingReply>;
  /** A reply the client POSTed, to the handler waiting for it. */
  deliver(session: string, reply: ClientReply): Awaitable<Delivery>;
  /** While a request runs: what its `notifications/cancelled` does. Answers the undo. */
  onCancel(session: string, request: RequestId, abort: () => void): () => void;
  /** The client cancelled one of its requests; an id that is not running is ignored. */
  cancel(session: string, request: RequestId): Awaitable<void>;
  /** The session ended: every wait ends (`ended`) and nothing more is delivered. */
  endSession(session: string): Awaitable<void>;
}
