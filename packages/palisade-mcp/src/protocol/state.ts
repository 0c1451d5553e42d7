/**
 * What a transport remembers between messages, as an immutable value the core returns anew.
 * HTTP remembers nothing (each POST carries its own state); stdio remembers only whether an
 * `initialize` fixed the process to 2025-11-25, what that client declared, the log level it set
 * and the resources it subscribed to.
 */
import type { JsonObject, LogLevel } from '../catalog/types.js';

export interface LegacySession {
  readonly clientCapabilities: Readonly<JsonObject>;
  readonly initialized: boolean;
  /** Set by `logging/setLevel` (stdio); undefined until then, when the server's `defaultLogLevel` applies. */
  readonly logLevel?: LogLevel;
  /** URIs `resources/subscribe` asked to watch on this stdio connection, at most MAX_RESOURCE_SUBSCRIPTIONS. */
  readonly subscriptions?: ReadonlySet<string>;
}

export interface ConnectionState {
  readonly transport: 'stdio' | 'http';
  /** Set once `initialize` has been answered (stdio), or per request on stateless 2025-11-25 HTTP. */
  readonly legacy: LegacySession | undefined;
}

// One frozen value per transport, shared: a state is never changed, only replaced, so every
// request may start from the same one; freezing a fresh object per HTTP request was measurable.
const INITIAL_STDIO: ConnectionState = Object.freeze({ transport: 'stdio', legacy: undefined });
const INITIAL_HTTP: ConnectionState = Object.freeze({ transport: 'http', legacy: undefined });

export function initialState(transport: 'stdio' | 'http'): ConnectionState {
  return transport === 'http' ? INITIAL_HTTP : INITIAL_STDIO;
}
