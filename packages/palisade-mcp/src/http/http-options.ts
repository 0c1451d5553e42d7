/**
 * The options of `createHttpHandler`, checked once at construction so nothing is re-validated per
 * request. `authorize`, `allowedOrigins` and `allowedHosts` have no defaults: a handler mounted by
 * hand cannot know which names and origins are its own, and guessing would open DNS rebinding and
 * cross-origin POSTs.
 */

import { invalidOption } from '../errors.js';
import { DEFAULT_HTTP_READ_TIMEOUT_MS, MAX_HTTP_READ_TIMEOUT_MS } from '../limits.js';
import {
  isPlainObject,
  refuseUnknownKeys,
  requireArray,
  requireFunction,
  requireInteger,
} from '../options.js';
import { type CheckedSessions, checkSessionsOptions, type SessionsOptions } from '../sessions/options.js';
import { guardedHook } from '../telemetry/guarded-hook.js';
import { checkLogger, faultToLogger, type PalisadeLogger } from '../telemetry/logger.js';
import { defaultFault, type HttpLogEvent, refusalLog } from '../telemetry/transport-log.js';
import { type CheckedCors, type CorsOptions, checkCorsOptions } from './cors.js';

export type { SessionsOptions } from '../sessions/options.js';
export type { HttpLogEvent } from '../telemetry/transport-log.js';

/** What `authorize` and `authorizeBody` see: never the body stream. */
export interface AuthorizeRequest {
  readonly method: string;
  /**
   * The request target as the client sent it: the path and query (`/mcp?x=1`), or the absolute
   * form. Read it to refuse a credential sent in the query (RFC 6750 §2.3), which the handler
   * itself ignores.
   */
  readonly target: string;
  /** A frozen, null-prototype copy of `req.headers`; a repeated header is a frozen array of its own. */
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  readonly rawHeaders: readonly string[];
  readonly remoteAddress: string | undefined;
}

export interface AuthorizeAdmit {
  readonly ok: true;
  /** Reaches handlers as `ctx.auth`. */
  readonly auth?: unknown;
}

export interface AuthorizeRefusal {
  readonly ok: false;
  /**
   * Default 403. 400 is a malformed credential (RFC 6750 `invalid_request`), 503 a verifier that
   * could not decide (its key source unreachable). `authorizeBody` refusals are always 403.
   */
  readonly status?: 400 | 401 | 403 | 429 | 503;
  /**
   * `www-authenticate` is sent with 400, 401 and 403 (RFC 6750 §3 challenges, `insufficient_scope`
   * included), `retry-after` with 429 and 503 only.
   */
  readonly headers?: { readonly 'www-authenticate'?: string; readonly 'retry-after'?: string };
  /** For the host's log (`onLog`); never sent to the client. */
  readonly reason?: string;
  /**
   * The refusal's stable name (`bearer-expired`): lower-case letters, digits and `-`, at most 64
   * characters. Published on the refusal channel and logged as its `rule` in place of `authorize`
   * (or `authorize-body`); a name of any other shape is ignored.
   */
  readonly rule?: string;
}

export type AuthorizeResult = AuthorizeAdmit | AuthorizeRefusal;

export type Authorize = (request: AuthorizeRequest) => AuthorizeResult | Promise<AuthorizeResult>;
export type AuthorizeBody = (
  request: AuthorizeRequest,
  bytes: Uint8Array,
) => AuthorizeResult | Promise<AuthorizeResult>;

export interface HttpHandlerOptions {
  readonly authorize: Authorize;
  /** Exact origins (`https://app.example`), compared case-insensitively, or `'any'`. */
  readonly allowedOrigins: readonly string[] | 'any';
  /** Host names (ports ignored), compared case-insensitively, or `'any'`. */
  readonly allowedHosts: readonly string[] | 'any';
  readonly authorizeBody?: AuthorizeBody;
  /**
   * The request path served (`/mcp`); any other path is answered 404. Default `'any'` for a
   * mounted handler (the host's router decides), `'/mcp'` for `serve()`. The query is ignored.
   */
  readonly path?: string;
  /** Whole-body deadline in ms. Default 15,000. */
  readonly readTimeoutMs?: number;
  readonly onFault?: (description: string, cause: unknown) => void;
  readonly onLog?: (event: HttpLogEvent) => void;
  /**
   * A pino-compatible logger (`warn(obj, msg)`, `error(obj, msg)`): refusals go to `warn` with
   * `event: 'palisade.refusal'`, host faults to `error` with `event: 'palisade.fault'`. It stands
   * in for the stderr defaults only: an `onLog` or `onFault` the host also passes gets its events
   * instead (docs/telemetry.md).
   */
  readonly logger?: PalisadeLogger;
  /**
   * Answer browser pages on the `allowedOrigins` (cors.ts). Off by default: an OPTIONS preflight
   * is then 405, as every method but POST. `{}` turns it on with its defaults.
   */
  readonly cors?: CorsOptions;
  /**
   * Keep sessions for the handshake revisions (2025-11-25, 2025-06-18, 2025-03-26): `initialize`
   * issues `Mcp-Session-Id`, GET opens a stream for notifications, DELETE ends a session, streams
   * resume with `Last-Event-ID`, handlers can ask the client (sampling, elicitation, roots) and
   * `notifications/cancelled` reaches them. Off by default: the transport is then stateless and
   * issues no id. `{}` turns it on with every default (docs/sessions.md).
   */
  readonly sessions?: SessionsOptions;
}

export interface CheckedHttpOptions {
  readonly authorize: Authorize;
  /** Lower-cased; undefined means any. */
  readonly allowedOrigins: ReadonlySet<string> | undefined;
  /** Lower-cased, brackets removed; undefined means any. */
  readonly allowedHosts: ReadonlySet<string> | undefined;
  readonly authorizeBody: AuthorizeBody | undefined;
  /** undefined means any path. */
  readonly path: string | undefined;
  readonly readTimeoutMs: number;
  readonly onFault: (description: string, cause: unknown) => void;
  readonly onLog: (event: HttpLogEvent) => void;
  /** undefined: CORS off. */
  readonly cors: CheckedCors | undefined;
  /** undefined: stateless, no session is ever kept. */
  readonly sessions: CheckedSessions | undefined;
}

/** Every option the request handler takes; `serve()` accepts these too and passes them on. */
export const HTTP_KEYS = [
  'authorize',
  'allowedOrigins',
  'allowedHosts',
  'authorizeBody',
  'path',
  'readTimeoutMs',
  'onFault',
  'onLog',
  'cors',
  'logger',
  'sessions',
] as const;

const LOOPBACK_HINT = "['localhost', '127.0.0.1', '::1']";

/** `[::1]` and `::1` name the same host; names compare in lower case. */
export function normalizeHostName(name: string): string {
  const lowered = name.toLowerCase();
  return lowered.startsWith('[') && lowered.endsWith(']') ? lowered.slice(1, -1) : lowered;
}

/**
 * An allowed host must be written as a client's Host header names it, without the port: a name in
 * its ASCII form (`xn--` for an IDN), an IPv4 address, or an IPv6 address with or without its
 * brackets. Any other spelling (with a port, a scheme, a path, one bracket) could never match, and
 * every request would be answered 421 by a configuration that looks like it works. The entry is
 * read as the host of an `http:` URL, so a name passes exactly when the WHATWG parser, which
 * browsers and fetch clients use to write Host, would write it the same way.
 */
export function allowedHostName(entry: string, path: string): string {
  const bracketed = entry.startsWith('[') && entry.endsWith(']');
  const literal = !bracketed && entry.includes(':') ? `[${entry}]` : entry;
  let host = '';
  try {
    host = new URL(`http://${literal}/`).host;
  } catch {
    // Not a host at all: refused below, as a spelling that parses to another host is.
  }
  if (host !== literal.toLowerCase()) {
    const written = host === '' ? '' : `: ${host.startsWith('[') ? host.slice(1, -1) : host}`;
    throw invalidOption(
      path,
      `must be a host as Host names it, without scheme or port (such as localhost, 127.0.0.1 or ::1)${written}`,
    );
  }
  return normalizeHostName(entry);
}

/**
 * An allowed origin must be written as a browser sends it in `Origin` (scheme, host, non-default
 * port; no path, no trailing slash, an IDN in its ASCII form): any other spelling could never match,
 * and a list that silently matches nothing looks like a working configuration.
 */
function serializedOrigin(entry: string, path: string): string {
  let origin: string;
  try {
    origin = new URL(entry).origin;
  } catch {
    throw invalidOption(path, 'must be an origin such as https://app.example');
  }
  if (origin === 'null')
    throw invalidOption(path, 'must be an http or https origin such as https://app.example');
  if (origin !== entry.toLowerCase()) {
    throw invalidOption(path, `must be written as a browser sends it in Origin: ${origin}`);
  }
  return origin;
}

export function stringList(
  value: unknown,
  path: string,
  normalize: (entry: string, path: string) => string,
): ReadonlySet<string> | undefined {
  if (value === 'any') return undefined;
  const list = requireArray(value, path);
  const set = new Set<string>();
  for (const [index, entry] of list.entries()) {
    if (typeof entry !== 'string' || entry.length === 0) {
      throw invalidOption(
        `${path}[${index}]`,
        "must be a non-empty string (or pass the whole option as 'any')",
      );
    }
    set.add(normalize(entry, `${path}[${index}]`));
  }
  return set;
}

/** A path as it appears in a request target: `/`, then visible ASCII, no query or fragment. */
const PATH = /^\/[\x21-\x7e]*$/;

function checkPath(value: unknown): string | undefined {
  if (value === undefined || value === 'any') return undefined;
  if (typeof value !== 'string' || !PATH.test(value) || value.includes('?') || value.includes('#')) {
    throw invalidOption('path', "must start with / and hold no space, query or fragment (or be 'any')");
  }
  return value;
}

export function checkHttpOptions(options: unknown): CheckedHttpOptions {
  if (!isPlainObject(options)) throw invalidOption('http options', 'must be a plain object');
  refuseUnknownKeys(options, HTTP_KEYS, '');
  if (options['authorize'] === undefined) {
    throw invalidOption('authorize', 'is required: pass a function that admits or refuses each request');
  }
  if (options['allowedOrigins'] === undefined) {
    throw invalidOption('allowedOrigins', "is required: pass the exact origins allowed to call, or 'any'");
  }
  if (options['allowedHosts'] === undefined) {
    throw invalidOption(
      'allowedHosts',
      `is required when the handler is mounted by hand; for a loopback server pass ${LOOPBACK_HINT}`,
    );
  }
  const optionalFunction = <T extends (...args: never[]) => unknown>(key: string): T | undefined =>
    options[key] === undefined ? undefined : requireFunction<T>(options[key], key);
  const logger = checkLogger(options['logger'], 'logger');
  const allowedOrigins = stringList(options['allowedOrigins'], 'allowedOrigins', serializedOrigin);
  return {
    authorize: requireFunction<Authorize>(options['authorize'], 'authorize'),
    allowedOrigins,
    allowedHosts: stringList(options['allowedHosts'], 'allowedHosts', allowedHostName),
    authorizeBody: optionalFunction<AuthorizeBody>('authorizeBody'),
    path: checkPath(options['path']),
    readTimeoutMs:
      options['readTimeoutMs'] === undefined
        ? DEFAULT_HTTP_READ_TIMEOUT_MS
        : requireInteger(options['readTimeoutMs'], 'readTimeoutMs', 1, MAX_HTTP_READ_TIMEOUT_MS),
    onFault: guardedHook(
      'onFault',
      optionalFunction<CheckedHttpOptions['onFault']>('onFault') ??
        (logger === undefined ? defaultFault : faultToLogger(logger, 'http')),
    ),
    onLog: guardedHook('onLog', refusalLog(optionalFunction<CheckedHttpOptions['onLog']>('onLog'), logger)),
    cors: checkCorsOptions(options['cors'], allowedOrigins),
    sessions: checkSessionsOptions(options['sessions']),
  };
}
