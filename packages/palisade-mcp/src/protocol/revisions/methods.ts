/** The client requests each era defines that Palisade answers; the revision tables draw on these. */

/** Defined by every revision, 2024-11-05 to 2026-07-28. */
export const CATALOG_METHODS = [
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
  'completion/complete',
] as const;

/** Defined by every handshake revision (2024-11-05 to 2025-11-25), removed in 2026-07-28. */
export const HANDSHAKE_METHODS = [
  ...CATALOG_METHODS,
  'ping',
  'logging/setLevel',
  'resources/subscribe',
  'resources/unsubscribe',
] as const;
