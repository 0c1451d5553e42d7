/**
 * What a transport remembers between messages, as an immutable value the core returns anew.
 * HTTP remembers nothing (each POST carries its own state); stdio remembers only which handshake
 * revision an `initialize` fixed the process to, what that client declared, the log level it set
 * and the resources it subscribed to.
 */
import type { JsonObject, LogLevel } from '../catalog/types.js';
import { HANDSHAKE_REVISIONS, type HandshakeRevision } from '../revisions.js';

export interface LegacySession {
  /** The revision `initialize` agreed (stdio), or the one a stateless HTTP request names. */
  readonly revision: HandshakeRevision;
  readonly clientCapabilities: Readonly<JsonObject>;
  readonly initialized: boolean;
  /** Set by `logging/setLevel` (stdio); undefined until then, when the server's `defaultLogLevel` applies. */
  readonly logLevel?: LogLevel;
  /** URIs `resources/subscribe` asked to watch on this stdio connection, at most MAX_RESOURCE_SUBSCRIPTIONS. */
  readonly subscriptions?: ReadonlySet<string>;
}

export interface ConnectionState {
  readonly transport: 'stdio' | 'http';
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
