/**
 * The options of `bearer()`, checked once: an unknown key, a value of the wrong type, an
 * algorithm that is not asymmetric, a scope a challenge could not quote, a method MCP does not
 * have, each throws naming the option. What passes is frozen, and nothing is checked per request.
 */
import { invalidOption } from './errors.js';
import type { ClientAuth } from './introspection/introspector.js';
import type { KeySet } from './keys/key-set.js';
import { readJwks } from './keys/key-set.js';
import type { CachePolicy } from './keys/key-source.js';
import {
  DEFAULT_CACHE_MAX_AGE_MS,
  DEFAULT_COOLDOWN_MS,
  DEFAULT_FETCH_MAX_BYTES,
  DEFAULT_FETCH_TIMEOUT_MS,
  DEFAULT_INTROSPECTION_CACHE_TTL_MS,
  DEFAULT_LEEWAY_SECONDS,
  DEFAULT_MAX_TOKEN_BYTES,
  MAX_CACHE_MAX_AGE_MS,
  MAX_COOLDOWN_MS,
  MAX_FETCH_BYTES_CEILING,
  MAX_FETCH_TIMEOUT_MS,
  MAX_INTROSPECTION_CACHE_TTL_MS,
  MAX_LEEWAY_SECONDS,
  MAX_TOKEN_BYTES_CEILING,
  MAX_TOKEN_CACHE_ENTRIES,
} from './limits.js';
import {
  optionalBoolean,
  optionalInteger,
  refuseUnknownKeys,
  requireObject,
  requireString,
  scopeList,
  scopeToken,
  stringOrList,
} from './option-checks.js';
import { checkEndpoint, checkResource, metadataUrlOf, resourceSpellings } from './resource.js';
import { CLIENT_METHODS } from './scopes/methods.js';
import type { ScopePolicy } from './scopes/scope-policy.js';
import { ALGORITHM_NAMES, isRefusedByDesign } from './token/algorithms.js';

/** A JSON Web Key Set as the host holds it: public keys only. */
export interface JwksDocument {
  readonly keys: readonly Readonly<Record<string, unknown>>[];
}

export interface IntrospectionOptions {
  /** The RFC 7662 endpoint; default: `introspection_endpoint` from the issuer's metadata. */
  readonly endpoint?: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** How this server authenticates to the endpoint. Default `'client_secret_basic'`. */
  readonly clientAuth?: ClientAuth;
  /** How long an answer is reused for the same token, never past its `exp`. Default 60,000; 0 turns it off. */
  readonly cacheTtlMs?: number;
}

export interface ScopeOptions {
  /** Scopes every request needs. */
  readonly required?: readonly string[];
  /** Scopes a method needs, by method name (`'tools/call'`). */
  readonly methods?: Readonly<Record<string, readonly string[]>>;
  /** Scopes calling a tool needs, by tool name. */
  readonly tools?: Readonly<Record<string, readonly string[]>>;
  /** Scopes reading (or subscribing to) a resource needs, by its exact URI. */
  readonly resources?: Readonly<Record<string, readonly string[]>>;
  /** Scopes getting a prompt needs, by prompt name. */
  readonly prompts?: Readonly<Record<string, readonly string[]>>;
  /** Scopes a broader scope implies: `{ 'files:admin': ['files:read', 'files:write'] }`. */
  readonly implied?: Readonly<Record<string, readonly string[]>>;
}

export interface FetchOptions {
  /** Milliseconds for one fetch, connection to last byte. Default 5,000. */
  readonly timeoutMs?: number;
  /** Bytes of one fetched document. Default 262,144. */
  readonly maxBytes?: number;
  /** Milliseconds between two fetches of one source (unknown kid, failure). Default 30,000. */
  readonly cooldownMs?: number;
  /** Milliseconds fetched keys and metadata are used before being fetched again. Default 600,000. */
  readonly cacheMaxAgeMs?: number;
}

export interface BearerOptions {
  /**
   * This MCP server's canonical URI (RFC 8707): `https://mcp.example.com/mcp`. Tokens must name it
   * in `aud` (unless `audience` says otherwise), and challenges point to its metadata document.
   */
  readonly resource: string;
  /** The authorization server(s) whose tokens are accepted, compared exactly with `iss`. */
  readonly issuer: string | readonly string[];
  /** The issuer's public keys, held by the host: nothing is fetched. */
  readonly jwks?: JwksDocument;
  /** Where the issuer publishes its JWKS. */
  readonly jwksUri?: string;
  /**
   * Find each issuer's JWKS (and introspection endpoint) from its metadata, RFC 8414 then OpenID
   * discovery. Default: on when neither `jwks`, `jwksUri` nor `introspection` is given.
   */
  readonly discovery?: boolean;
  /** RFC 7662 introspection, for opaque tokens (every token, when no key source is configured). */
  readonly introspection?: IntrospectionOptions;
  /** The audiences accepted. Default: `resource` alone (the token-passthrough defence). */
  readonly audience?: string | readonly string[];
  /** Signing algorithms accepted, from RS/PS/ES 256/384/512, EdDSA, Ed25519. Default all of them. */
  readonly algorithms?: readonly string[];
  /** Seconds of clock skew on `exp`, `nbf`, `iat`. Default 30. */
  readonly leeway?: number;
  /** Whether a token without `exp` is refused. Default true. */
  readonly requireExp?: boolean;
  /** `'rfc9068'`: `typ` must be `at+jwt` and the claims RFC 9068 requires must all be present. */
  readonly profile?: 'rfc9068';
  readonly scopes?: ScopeOptions;
  /** Bytes of a token. Default 8,192; at most 65,536. */
  readonly maxTokenBytes?: number;
  readonly fetch?: FetchOptions;
  /** Where challenges say the metadata is. Default: derived from `resource` (RFC 9728 §3.1). */
  readonly resourceMetadataUrl?: string;
  /**
   * How many verified JWTs (by SHA-256, until `exp`) are kept so a repeated token is not verified
   * again. Default 10,000; 0 turns the cache off.
   */
  readonly tokenCache?: number;
}

export interface CheckedBearer {
  readonly resource: string;
  readonly issuers: readonly string[];
  readonly staticKeys: KeySet | undefined;
  readonly jwksUri: URL | undefined;
  readonly discovery: boolean;
  readonly introspection:
    | {
        readonly endpoint: URL | undefined;
        readonly clientId: string;
        readonly clientSecret: string;
        readonly clientAuth: ClientAuth;
        readonly cacheTtlMs: number;
      }
    | undefined;
  readonly audiences: ReadonlySet<string>;
  readonly algorithms: ReadonlySet<string>;
  readonly leewaySeconds: number;
  readonly requireExp: boolean;
  readonly rfc9068: boolean;
  readonly scopes: ScopePolicy;
  readonly maxTokenBytes: number;
  readonly fetch: CachePolicy;
  readonly resourceMetadataUrl: string;
  /** Entries of the verified-token cache; 0 when off. */
  readonly tokenCache: number;
}

const KEYS = [
  'resource',
  'issuer',
  'jwks',
  'jwksUri',
  'discovery',
  'introspection',
  'audience',
  'algorithms',
  'leeway',
  'requireExp',
  'profile',
  'scopes',
  'maxTokenBytes',
  'fetch',
  'resourceMetadataUrl',
  'tokenCache',
] as const;

function checkIssuer(value: unknown, path: string): string {
  const url = checkEndpoint(value, path);
  if (url.search !== '' || url.hash !== '')
    throw invalidOption(path, 'must have no query or fragment (RFC 8414 §2)');
  return value as string;
}

/**
 * The URL goes into the challenge as an RFC 9110 quoted-string. The URL parser percent-encodes
 * `"` everywhere but leaves `\` as it is in a query or fragment, where it would escape the
 * closing quote and run the challenge on past it.
 */
function checkQuotable(href: string): string {
  if (/["\\]/.test(href)) {
    throw invalidOption('resourceMetadataUrl', 'must not hold a backslash: the challenge quotes it');
  }
  return href;
}

function checkAlgorithms(value: unknown): ReadonlySet<string> {
  if (value === undefined) return new Set(ALGORITHM_NAMES);
  if (!Array.isArray(value) || value.length === 0) {
    throw invalidOption('algorithms', 'must be a non-empty array of algorithm names');
  }
  for (const [index, name] of value.entries()) {
    const path = `algorithms[${index}]`;
    if (typeof name === 'string' && isRefusedByDesign(name)) {
      throw invalidOption(
        path,
        `names ${name}, which is never accepted: only asymmetric signatures (a verifier holding an HMAC secret can also mint tokens, and none is no signature)`,
      );
    }
    if (typeof name !== 'string' || !(ALGORITHM_NAMES as readonly string[]).includes(name)) {
      throw invalidOption(path, `must be one of ${ALGORITHM_NAMES.join(', ')}`);
    }
  }
  return new Set(value as string[]);
}

function checkIntrospection(value: unknown, issuers: readonly string[]): CheckedBearer['introspection'] {
  if (value === undefined) return undefined;
  const options = requireObject(value, 'introspection');
  refuseUnknownKeys(
    options,
    ['endpoint', 'clientId', 'clientSecret', 'clientAuth', 'cacheTtlMs'],
    'introspection.',
  );
  const endpoint =
    options['endpoint'] === undefined
      ? undefined
      : checkEndpoint(options['endpoint'], 'introspection.endpoint');
  if (endpoint === undefined && issuers.length > 1) {
    throw invalidOption('introspection.endpoint', 'is required when more than one issuer is accepted');
  }
  const clientAuth = options['clientAuth'] ?? 'client_secret_basic';
  if (clientAuth !== 'client_secret_basic' && clientAuth !== 'client_secret_post') {
    throw invalidOption('introspection.clientAuth', "must be 'client_secret_basic' or 'client_secret_post'");
  }
  return Object.freeze({
    endpoint,
    clientId: requireString(options['clientId'], 'introspection.clientId'),
    clientSecret: requireString(options['clientSecret'], 'introspection.clientSecret'),
    clientAuth,
    cacheTtlMs: optionalInteger(
      options['cacheTtlMs'],
      'introspection.cacheTtlMs',
      0,
      MAX_INTROSPECTION_CACHE_TTL_MS,
      DEFAULT_INTROSPECTION_CACHE_TTL_MS,
    ),
  });
}

function scopeMap(
  value: unknown,
  path: string,
  keyCheck?: (key: string) => void,
): ReadonlyMap<string, readonly string[]> {
  if (value === undefined) return new Map();
  const record = requireObject(value, path);
  const map = new Map<string, readonly string[]>();
  for (const [key, scopes] of Object.entries(record)) {
    keyCheck?.(key);
    const list = scopeList(scopes, `${path}.${key}`);
    if (list.length > 0) map.set(key, Object.freeze(list));
  }
  return map;
}

/** Each scope to everything it implies, followed to the end; a cycle is harmless (a set is a set). */
function closure(direct: ReadonlyMap<string, readonly string[]>): ReadonlyMap<string, readonly string[]> {
  const closed = new Map<string, readonly string[]>();
  for (const start of direct.keys()) {
    const reached = new Set<string>();
    const queue = [...(direct.get(start) ?? [])];
    while (queue.length > 0) {
      const next = queue.shift() as string;
      if (reached.has(next) || next === start) continue;
      reached.add(next);
      queue.push(...(direct.get(next) ?? []));
    }
    closed.set(start, Object.freeze([...reached]));
  }
  return closed;
}

function checkScopes(value: unknown): ScopePolicy {
  const options = value === undefined ? {} : requireObject(value, 'scopes');
  refuseUnknownKeys(options, ['required', 'methods', 'tools', 'resources', 'prompts', 'implied'], 'scopes.');
  return Object.freeze({
    required: Object.freeze(
      options['required'] === undefined ? [] : scopeList(options['required'], 'scopes.required'),
    ),
    methods: scopeMap(options['methods'], 'scopes.methods', (method) => {
      if (!CLIENT_METHODS.has(method)) {
        throw invalidOption(
          `scopes.methods.${method}`,
          'is not a method an MCP client sends (2025-11-25, 2026-07-28)',
        );
      }
    }),
    tools: scopeMap(options['tools'], 'scopes.tools'),
    resources: scopeMap(options['resources'], 'scopes.resources'),
    prompts: scopeMap(options['prompts'], 'scopes.prompts'),
    implied: closure(
      scopeMap(options['implied'], 'scopes.implied', (scope) => {
        scopeToken(scope, `scopes.implied.${scope}`);
      }),
    ),
  });
}

function checkFetch(value: unknown): CachePolicy {
  const options = value === undefined ? {} : requireObject(value, 'fetch');
  refuseUnknownKeys(options, ['timeoutMs', 'maxBytes', 'cooldownMs', 'cacheMaxAgeMs'], 'fetch.');
  return Object.freeze({
    timeoutMs: optionalInteger(
      options['timeoutMs'],
      'fetch.timeoutMs',
      1,
      MAX_FETCH_TIMEOUT_MS,
      DEFAULT_FETCH_TIMEOUT_MS,
    ),
    maxBytes: optionalInteger(
      options['maxBytes'],
      'fetch.maxBytes',
      1,
      MAX_FETCH_BYTES_CEILING,
      DEFAULT_FETCH_MAX_BYTES,
    ),
    cooldownMs: optionalInteger(
      options['cooldownMs'],
      'fetch.cooldownMs',
      0,
      MAX_COOLDOWN_MS,
      DEFAULT_COOLDOWN_MS,
    ),
    cacheMaxAgeMs: optionalInteger(
      options['cacheMaxAgeMs'],
      'fetch.cacheMaxAgeMs',
      1,
      MAX_CACHE_MAX_AGE_MS,
      DEFAULT_CACHE_MAX_AGE_MS,
    ),
  });
}

export function checkBearerOptions(value: unknown): CheckedBearer {
  const options = requireObject(value, 'bearer options');
  refuseUnknownKeys(options, KEYS, '');
  if (options['resource'] === undefined) {
    throw invalidOption(
      'resource',
      "is required: this server's canonical URI, such as https://mcp.example.com/mcp",
    );
  }
  if (options['issuer'] === undefined) {
    throw invalidOption('issuer', 'is required: the authorization server whose tokens are accepted');
  }
  const resource = checkResource(options['resource'], 'resource');
  const issuers = [...new Set(stringOrList(options['issuer'], 'issuer', checkIssuer))];
  const algorithms = checkAlgorithms(options['algorithms']);
  if (options['jwks'] !== undefined && options['jwksUri'] !== undefined) {
    throw invalidOption('jwks', 'and jwksUri are two key sources: give one');
  }
  let staticKeys: KeySet | undefined;
  if (options['jwks'] !== undefined) {
    const read = readJwks(options['jwks'], algorithms, true);
    if (!read.ok) throw invalidOption('jwks', read.reason);
    staticKeys = read.set;
  }
  const jwksUri = options['jwksUri'] === undefined ? undefined : checkEndpoint(options['jwksUri'], 'jwksUri');
  const introspection = checkIntrospection(options['introspection'], issuers);
  const discovery = optionalBoolean(
    options['discovery'],
    'discovery',
    staticKeys === undefined && jwksUri === undefined && introspection === undefined,
  );
  if (discovery && (staticKeys !== undefined || jwksUri !== undefined)) {
    throw invalidOption('discovery', 'finds the keys that jwks or jwksUri already gives: give one');
  }
  const audiences =
    options['audience'] === undefined
      ? resourceSpellings(resource)
      : stringOrList(options['audience'], 'audience', requireString);
  const profile = options['profile'];
  if (profile !== undefined && profile !== 'rfc9068') throw invalidOption('profile', "must be 'rfc9068'");
  const resourceMetadataUrl =
    options['resourceMetadataUrl'] === undefined
      ? metadataUrlOf(resource)
      : checkQuotable(checkEndpoint(options['resourceMetadataUrl'], 'resourceMetadataUrl').href);
  return Object.freeze({
    resource,
    issuers: Object.freeze(issuers),
    staticKeys,
    jwksUri,
    discovery,
    introspection,
    audiences: new Set(audiences),
    algorithms,
    leewaySeconds: optionalInteger(
      options['leeway'],
      'leeway',
      0,
      MAX_LEEWAY_SECONDS,
      DEFAULT_LEEWAY_SECONDS,
    ),
    requireExp: optionalBoolean(options['requireExp'], 'requireExp', true),
    rfc9068: profile === 'rfc9068',
    scopes: checkScopes(options['scopes']),
    maxTokenBytes: optionalInteger(
      options['maxTokenBytes'],
      'maxTokenBytes',
      64,
      MAX_TOKEN_BYTES_CEILING,
      DEFAULT_MAX_TOKEN_BYTES,
    ),
    fetch: checkFetch(options['fetch']),
    resourceMetadataUrl,
    tokenCache: optionalInteger(
      options['tokenCache'],
      'tokenCache',
      0,
      MAX_TOKEN_CACHE_ENTRIES,
      MAX_TOKEN_CACHE_ENTRIES,
    ),
  });
}
