/** The public surface of `palisade-mcp-auth`. */

export { type BearerHooks, bearer } from './bearer.js';
export { AuthError, type AuthErrorCode } from './errors.js';
export type { ClientAuth } from './introspection/introspector.js';
export {
  DEFAULT_CACHE_MAX_AGE_MS,
  DEFAULT_COOLDOWN_MS,
  DEFAULT_FETCH_MAX_BYTES,
  DEFAULT_FETCH_TIMEOUT_MS,
  DEFAULT_INTROSPECTION_CACHE_TTL_MS,
  DEFAULT_LEEWAY_SECONDS,
  DEFAULT_MAX_TOKEN_BYTES,
  MAX_JWKS_KEYS,
} from './limits.js';
export {
  type MetadataAnswer,
  type ProtectedResourceMetadata,
  type ProtectedResourceMetadataOptions,
  protectedResourceMetadata,
} from './metadata/protected-resource.js';
export type {
  BearerOptions,
  FetchOptions,
  IntrospectionOptions,
  JwksDocument,
  ScopeOptions,
} from './options.js';
export { metadataUrlOf } from './resource.js';
export { type ChallengeError, RULES, type Rule, type RuleName } from './rules.js';
export type { Principal } from './token/principal.js';
