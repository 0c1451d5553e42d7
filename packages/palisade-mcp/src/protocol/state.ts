/**
 * What a transport remembers between messages, as an immutable value the core returns anew.
 * HTTP remembers nothing (each POST carries its own state); stdio remembers only whether an
 * `initialize` fixed the process to 2025-11-25, and what that client declared.
 */
import type { JsonObject } from '../catalog/types.js';

export interface LegacySession {
  readonly clientCapabilities: Readonly<JsonObject>;
  readonly initialized: boolean;
}

export interface ConnectionState {
  readonly transport: 'stdio' | 'http';
  /** Set once `initialize` has been answered (stdio), or per request on stateless 2025-11-25 HTTP. */
  readonly legacy: LegacySession | undefined;
}

export function initialState(transport: 'stdio' | 'http'): ConnectionState {
  return Object.freeze({ transport, legacy: undefined });
}
