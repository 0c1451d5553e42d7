/**
 * CORS, for a browser page on another origin calling the endpoint. Off unless the host passes
 * `cors`; then every decision is made here, over values the caller has already read, so the
 * `node:http` handler and a fetch handler answer alike:
 *
 * - The origins are the handler's own `allowedOrigins`: one list, not a second one to drift from
 *   the first. The Origin rule (host-origin.ts, 403) runs first, so a refused origin never gets a
 *   CORS header; the functions here check membership again so no caller can skip it by mistake.
 * - A preflight (OPTIONS with Origin and Access-Control-Request-Method) is answered 204 before
 *   `authorize`: a browser sends no credentials on a preflight, so an `authorize` asking for a
 *   token would refuse every preflight and no call could follow. A preflight changes nothing.
 * - Every other response to an allowed origin carries Allow-Origin, refusals included: without it
 *   the page sees an opaque network error instead of the -32020 naming the header that disagreed.
 *
 * No value is taken from the request: Allow-Origin is the list's own entry (the list holds
 * origins exactly as browsers send them, checked at construction), or `*` for `'any'`; the
 * allowed request headers are a fixed list built once from the catalog, never the
 * Access-Control-Request-Headers a preflight asks for.
 */
import { invalidOption } from '../errors.js';
import { DEFAULT_CORS_MAX_AGE_SECONDS, MAX_CORS_MAX_AGE_SECONDS } from '../limits.js';
import { isPlainObject, refuseUnknownKeys, requireArray, requireInteger } from '../options.js';
import type { Server } from '../server.js';
import { SESSION_REQUEST_HEADERS, SESSION_RESPONSE_HEADERS } from '../sessions/headers.js';
import { asciiLowerCase, trimOws } from './headers/index.js';
import { type HttpRefusal, REFUSALS } from './refusals.js';

export interface CorsOptions {
  /** `Access-Control-Max-Age` of a preflight answer, seconds. Default 600; at most 7,200. */
  readonly maxAgeSeconds?: number;
  /**
   * Send `Access-Control-Allow-Credentials: true`, so a page may call with cookies or HTTP
   * authentication. Default false. Refused with `allowedOrigins: 'any'`: every site could then
   * make calls as the user.
   */
  readonly credentials?: boolean;
  /** Request headers a page may send beyond the MCP ones, e.g. one the host's `authorize` reads. */
  readonly allowHeaders?: readonly string[];
  /** Response headers a page may read beyond `www-authenticate` and `retry-after`. */
  readonly exposeHeaders?: readonly string[];
}

export interface CheckedCors {
  readonly maxAgeSeconds: number;
  readonly credentials: boolean;
  /** Lower-cased, in the host's order. */
  readonly allowHeaders: readonly string[];
  readonly exposeHeaders: readonly string[];
}

/** Everything a response needs, built once per handler. */
export interface CorsPolicy {
  /** Lower-cased origins; undefined means any (`*`). */
  readonly origins: ReadonlySet<string> | undefined;
  readonly credentials: boolean;
  readonly exposeHeaders: string;
  readonly allowHeaders: string;
  readonly maxAgeSeconds: number;
  /** The methods a page may use: POST, and with sessions GET and DELETE too. */
  readonly methods: readonly string[];
}

export type PreflightVerdict =
  /** Not a preflight: the request goes on to the method rule (an OPTIONS is then 405). */
  | { readonly kind: 'none' }
  /** 204 with these headers, before `authorize`. */
  | { readonly kind: 'answer'; readonly headers: Readonly<Record<string, string>> }
  | {
      readonly kind: 'refuse';
      readonly refusal: HttpRefusal;
      readonly headers: Readonly<Record<string, string>>;
    };

export const CORS_KEYS = ['maxAgeSeconds', 'credentials', 'allowHeaders', 'exposeHeaders'] as const;

/**
 * The request headers an MCP client sends: `accept` and `content-type` (application/json is not a
 * value a page may send without asking), `authorization` for a bearer-token `authorize`, and the
 * 2026-07-28 ones, which other libraries' lists omit. `Last-Event-ID` is left out: a stateless
 * endpoint resumes no stream, so a page has no reason to send it.
 */
const MCP_REQUEST_HEADERS = Object.freeze([
  'accept',
  'content-type',
  'authorization',
  'mcp-protocol-version',
  'mcp-method',
  'mcp-name',
]);

/** What the endpoint itself may send that a page cannot read unless exposed: `authorize`'s two. */
const EXPOSED_BY_DEFAULT = Object.freeze(['www-authenticate', 'retry-after']);

/** RFC 9110 §5.6.2 `token`: a header name. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function headerNames(value: unknown, path: string): readonly string[] {
  if (value === undefined) return [];
  const list = requireArray(value, path);
  return list.map((entry, index) => {
    if (typeof entry !== 'string' || !TOKEN.test(entry)) {
      throw invalidOption(`${path}[${index}]`, 'must be a header name (an RFC 9110 token)');
    }
    return entry.toLowerCase();
  });
}

/**
 * `cors` as passed to `createHttpHandler` or `serve`; undefined leaves CORS off. `origins` is the
 * checked `allowedOrigins`, needed to refuse credentials offered to every site.
 */
export function checkCorsOptions(
  value: unknown,
  origins: ReadonlySet<string> | undefined,
): CheckedCors | undefined {
  if (value === undefined) return undefined;
  if (!isPlainObject(value)) {
    throw invalidOption('cors', 'must be a plain object ({} turns CORS on with its defaults)');
  }
  refuseUnknownKeys(value, CORS_KEYS, 'cors');
  const credentials = value['credentials'] ?? false;
  if (typeof credentials !== 'boolean') throw invalidOption('cors.credentials', 'must be a boolean');
  if (credentials && origins === undefined) {
    throw invalidOption(
      'cors.credentials',
      "cannot be true with allowedOrigins 'any': every site could call with the user's credentials",
    );
  }
  return Object.freeze({
    maxAgeSeconds:
      value['maxAgeSeconds'] === undefined
        ? DEFAULT_CORS_MAX_AGE_SECONDS
        : requireInteger(value['maxAgeSeconds'], 'cors.maxAgeSeconds', 0, MAX_CORS_MAX_AGE_SECONDS),
    credentials,
    allowHeaders: Object.freeze(headerNames(value['allowHeaders'], 'cors.allowHeaders')),
    exposeHeaders: Object.freeze(headerNames(value['exposeHeaders'], 'cors.exposeHeaders')),
  });
}

/**
 * The catalog is fixed once the server is built, so the `Mcp-Param-*` names every tool declares
 * are read here once: a page calling any tool may send that tool's headers.
 */
export function corsPolicy(
  checked: CheckedCors,
  origins: ReadonlySet<string> | undefined,
  server: Server,
  sessions = false,
): CorsPolicy {
  const allow = new Set<string>(MCP_REQUEST_HEADERS);
  // With sessions a page sends its session id, and resumes streams (the only use of Last-Event-ID).
  if (sessions) for (const name of SESSION_REQUEST_HEADERS) allow.add(name);
  for (const tool of server.catalog.tools?.values() ?? []) {
    for (const field of tool.headerFields) allow.add(`mcp-param-${field.header.toLowerCase()}`);
  }
  for (const name of checked.allowHeaders) allow.add(name);
  const expose = new Set<string>([
    ...EXPOSED_BY_DEFAULT,
    ...(sessions ? SESSION_RESPONSE_HEADERS : []),
    ...checked.exposeHeaders,
  ]);
  return Object.freeze({
    origins,
    credentials: checked.credentials,
    exposeHeaders: [...expose].join(', '),
    allowHeaders: [...allow].join(', '),
    maxAgeSeconds: checked.maxAgeSeconds,
    methods: Object.freeze(sessions ? ['GET', 'POST', 'DELETE'] : ['POST']),
  });
}

/**
 * The Allow-Origin value for a request's `Origin` (undefined when absent or not allowed): `*` for
 * `'any'` (never with credentials, refused at construction), else the listed origin it equals,
 * compared as the Origin rule compares it.
 */
function allowOrigin(policy: CorsPolicy, origin: string | undefined): string | undefined {
  if (origin === undefined) return undefined;
  if (policy.origins === undefined) return '*';
  const listed = asciiLowerCase(trimOws(origin));
  return policy.origins.has(listed) ? listed : undefined;
}

/**
 * The CORS headers of any response once the Host and Origin rules have passed. `Vary: Origin`
 * goes on every one (with a list), with or without Origin: the answer differs by Origin, and a
 * cache that stored a response without Allow-Origin must not hand it to a page.
 */
export function corsResponseHeaders(policy: CorsPolicy, origin: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (policy.origins !== undefined) headers['vary'] = 'Origin';
  const allowed = allowOrigin(policy, origin);
  if (allowed === undefined) return headers;
  headers['access-control-allow-origin'] = allowed;
  headers['access-control-expose-headers'] = policy.exposeHeaders;
  if (policy.credentials) headers['access-control-allow-credentials'] = 'true';
  return headers;
}

/**
 * A `Vary` value naming `Origin` beside what a middleware in front of us already set (Express's
 * compression sets `Accept-Encoding`): replacing it would let a cache serve one encoding for all.
 */
export function withVaryOrigin(existing: string | number | readonly string[] | undefined): string {
  const names = (Array.isArray(existing) ? existing.join(',') : String(existing ?? ''))
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.some((name) => name === '*' || name.toLowerCase() === 'origin')) return names.join(', ');
  return [...names, 'Origin'].join(', ');
}

/**
 * Whether a request is a preflight, and its answer. `requestMethods` holds every
 * Access-Control-Request-Method line; more than one, or any method but POST, is refused.
 */
export function preflight(
  policy: CorsPolicy,
  method: string | undefined,
  origin: string | undefined,
  requestMethods: readonly string[],
): PreflightVerdict {
  if (method !== 'OPTIONS' || origin === undefined || requestMethods.length === 0) return { kind: 'none' };
  const headers = corsResponseHeaders(policy, origin);
  if (headers['access-control-allow-origin'] === undefined) {
    // Unreachable behind the Origin rule; a caller that forgot it still answers nothing permissive.
    return { kind: 'refuse', refusal: REFUSALS.originNotAllowed, headers: {} };
  }
  // Methods are case-sensitive (RFC 9110 §9.1); a browser upper-cases `post` itself.
  const allow = policy.methods.join(', ');
  if (requestMethods.length !== 1 || !policy.methods.includes(trimOws(requestMethods[0]!))) {
    const refusal = policy.methods.length > 1 ? REFUSALS.sessionPreflightMethod : REFUSALS.preflightMethod;
    return { kind: 'refuse', refusal, headers: { ...headers, allow } };
  }
  return {
    kind: 'answer',
    headers: {
      ...headers,
      'access-control-allow-methods': allow,
      'access-control-allow-headers': policy.allowHeaders,
      'access-control-max-age': String(policy.maxAgeSeconds),
    },
  };
}
