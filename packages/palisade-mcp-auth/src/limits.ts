/**
 * Every bound of the package, with its unit and what crossing it produces. A bound a host may
 * change is an option whose default is here and whose ceiling is here too; the rest are fixed.
 */

/**
 * Bytes of an access token, checked on the header's length before anything decodes it. Real
 * JWT access tokens run 0.8 to 4 KiB; a proxy commonly caps the whole head at 8 KiB. Past it:
 * 401 `bearer-token-too-large`. Option `maxTokenBytes`, up to `MAX_TOKEN_BYTES_CEILING`.
 */
export const DEFAULT_MAX_TOKEN_BYTES = 8_192;
export const MAX_TOKEN_BYTES_CEILING = 65_536;

/** Seconds of clock skew allowed on `exp`, `nbf` and `iat` (option `leeway`, 0 to 300). */
export const DEFAULT_LEEWAY_SECONDS = 30;
export const MAX_LEEWAY_SECONDS = 300;

/** Characters of a `kid`; a longer one is a malformed token (401 `bearer-malformed`). */
export const MAX_KID_CHARS = 256;

/**
 * Keys in one JWKS, static or fetched. A provider publishes a handful (current, next, previous);
 * a set past this is refused whole: at construction (static) or as a broken key source (503).
 */
export const MAX_JWKS_KEYS = 100;

/** Bits of an RSA modulus below which a key is refused (RFC 7518 §3.3 asks for 2048 or more). */
export const MIN_RSA_BITS = 2_048;

/**
 * Bits of an RSA modulus above which a key is refused: providers publish 2,048 to 4,096, and the
 * cost of a verification grows with the square of the size (8,192 bits measured 11x 2,048 with
 * node:crypto verify, Node 20, 2026-12-02),
 * so a forged token under a huge key would buy far more CPU than it costs to send.
 */
export const MAX_RSA_BITS = 8_192;

/** Milliseconds one outbound fetch may take, connection to last byte (option `fetch.timeoutMs`). */
export const DEFAULT_FETCH_TIMEOUT_MS = 5_000;
export const MAX_FETCH_TIMEOUT_MS = 60_000;

/**
 * Bytes of one fetched document (JWKS, metadata, introspection answer) after decoding; the
 * fetch is cut at the byte past it (option `fetch.maxBytes`, up to `MAX_FETCH_BYTES_CEILING`).
 */
export const DEFAULT_FETCH_MAX_BYTES = 262_144;
export const MAX_FETCH_BYTES_CEILING = 4_194_304;

/** Same-origin redirects followed per fetch; a redirect to another origin is never followed. */
export const MAX_REDIRECTS = 2;

/**
 * Milliseconds between two fetches of a key source: an unknown `kid` refetches at most once per
 * cooldown, and a failed fetch is not retried within it (option `fetch.cooldownMs`).
 */
export const DEFAULT_COOLDOWN_MS = 30_000;
export const MAX_COOLDOWN_MS = 3_600_000;

/** Milliseconds fetched keys and metadata are used before they are fetched again (option `fetch.cacheMaxAgeMs`). */
export const DEFAULT_CACHE_MAX_AGE_MS = 600_000;
export const MAX_CACHE_MAX_AGE_MS = 86_400_000;

/**
 * Milliseconds an introspection answer is reused for the same token (by its SHA-256), never past
 * the token's `exp` (option `introspection.cacheTtlMs`, 0 to turn the cache off).
 */
export const DEFAULT_INTROSPECTION_CACHE_TTL_MS = 60_000;
export const MAX_INTROSPECTION_CACHE_TTL_MS = 3_600_000;

/** Entries in a token cache (introspection answers, verified JWTs); the oldest goes first. */
export const MAX_TOKEN_CACHE_ENTRIES = 10_000;

/** Introspection requests in flight at once; one past it is 503 `bearer-introspection-busy`. */
export const MAX_CONCURRENT_INTROSPECTIONS = 32;

/** Nesting levels of a body read for the method and name a scope depends on (as the server's reader). */
export const MAX_BODY_DEPTH = 64;

/** Characters of the `error_description` in a challenge: fixed texts, held under it by a test. */
export const MAX_DESCRIPTION_CHARS = 120;
