/** The two MCP revisions Palisade serves, newest first. */
export const MODERN_REVISION = '2026-07-28';
export const LEGACY_REVISION = '2025-11-25';

export type Revision = typeof MODERN_REVISION | typeof LEGACY_REVISION;

export const ALL_REVISIONS: readonly Revision[] = [MODERN_REVISION, LEGACY_REVISION];

export function isRevision(value: unknown): value is Revision {
  return value === MODERN_REVISION || value === LEGACY_REVISION;
}

/** Reserved `_meta` keys of the 2026-07-28 revision. */
export const META_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
export const META_CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';
export const META_LOG_LEVEL = 'io.modelcontextprotocol/logLevel';
export const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
export const META_SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
