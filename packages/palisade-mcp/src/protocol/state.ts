/**
 * What a transport remembers between messages, as an immutable value the core returns anew.
 * Stateless HTTP remembers nothing (each POST carries its own state); stdio, and an HTTP session
 * when the host turned sessions on, remember which handshake revision `initialize` agreed, what
 * that client declared, the log level it set and the resources it subscribed to.
 */
import type { JsonObject, LogLevel } from '../catalog/types.js';
import { HANDSHAKE_REVISIONS, type HandshakeRevision } from '../revisions.js';

export interface LegacySession {
  /** The revision `initialize` agreed (stdio), or the one a stateless HTTP request names. */
  readonly revision: HandshakeRevision;
  readonly clientCapabilities: Readonly<JsonObject>;
  readonly initialized: boolean;
  /** Set by `logging/setLevel` (stdio, an HTTP session); undefined until then, when the server's `defaultLogLevel` applies. */
  readonly logLevel?: LogLevel;
  /** URIs `resources/subscribe` asked to watch on this stdio connection or HTTP session, at most MAX_RESOURCE_SUBSCRIPTIONS. */
  readonly subscriptions?: ReadonlySet<string>;
}

export interface ConnectionState {
  readonly transport: 'stdio' | 'http';
  /**
   * An HTTP session (the transport's `sessions` option): something outlives each POST, so a
   * change can reach the client, a level and subscriptions are kept, and the client can be asked.
   */
  readonly session?: true;
  /** Set once `initialize` has been answered (stdio), or per request on a stateless handshake revision over HTTP. */
  readonly legacy: LegacySession | undefined;
}

// One frozen value per transport, shared: a state is never changed, only replaced, so every
// request may start from the same one; freezing a fresh object per HTTP request was measurable.
const INITIAL_STDIO: ConnectionState = Object.freeze({ transport: 'stdio', legacy: undefined });
const INITIAL_HTTP: ConnectionState = Object.freeze({ transport: 'http', legacy: undefined });

export function initialState(transport: 'stdio' | 'http'): ConnectionState {
  return transport === 'http' ? INITIAL_HTTP : INITIAL_STDIO;
}

// Likewise one per handshake revision for stateless HTTP: served as if initialized, with no
// capabilities carried over from an `initialize` nothing remembers.
const STATELESS_HANDSHAKE: ReadonlyMap<HandshakeRevision, ConnectionState> = new Map(
  HANDSHAKE_REVISIONS.map((revision) => [
    revision,
    Object.freeze({
      transport: 'http',
      legacy: Object.freeze({ revision, clientCapabilities: Object.freeze({}), initialized: true }),
    }),
  ]),
);

/** The state a stateless HTTP request runs in when its headers name a handshake revision. */
export function statelessHandshakeState(revision: HandshakeRevision): ConnectionState {
  return STATELESS_HANDSHAKE.get(revision) as ConnectionState;
}

const SESSION_START: ConnectionState = Object.freeze({ transport: 'http', session: true, legacy: undefined });

/** The state of an HTTP session: before `initialize` (`legacy` undefined), or what its store kept. */
export function sessionState(legacy: LegacySession | undefined): ConnectionState {
  return legacy === undefined ? SESSION_START : Object.freeze({ transport: 'http', session: true, legacy });
}
