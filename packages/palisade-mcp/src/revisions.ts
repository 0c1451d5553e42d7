/**
 * The MCP revisions Palisade serves, newest first. 2026-07-28 is stateless (every request names
 * its revision in `_meta`); the four before it open with the `initialize` handshake, which fixes
 * one revision for the connection. What each revision carries is in protocol/revisions/.
 */
export const MODERN_REVISION = '2026-07-28';
/** The newest handshake revision: what `initialize` counters with when the client's is not served. */
export const LEGACY_REVISION = '2025-11-25';

/** The handshake revisions, newest first. 2024-11-05 is served over stdio only. */
export const HANDSHAKE_REVISIONS = [LEGACY_REVISION, '2025-06-18', '2025-03-26', '2024-11-05'] as const;

export type HandshakeRevision = (typeof HANDSHAKE_REVISIONS)[number];
export type Revision = typeof MODERN_REVISION | HandshakeRevision;

export const ALL_REVISIONS: readonly Revision[] = [MODERN_REVISION, ...HANDSHAKE_REVISIONS];

export function isRevision(value: unknown): value is Revision {
  return (ALL_REVISIONS as readonly unknown[]).includes(value);
}

export function isHandshakeRevision(value: unknown): value is HandshakeRevision {
  return (HANDSHAKE_REVISIONS as readonly unknown[]).includes(value);
}

/** Reserved `_meta` keys of the 2026-07-28 revision. */
export const META_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
export const META_CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';
export const META_LOG_LEVEL = 'io.modelcontextprotocol/logLevel';
export const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
export const META_SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
