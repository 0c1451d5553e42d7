/**
 * `serve({ routes })`: a few exact paths beside the MCP endpoint, each answered to `GET` and `HEAD`
 * by a host function, on the same port and under the same guards. It exists for small public
 * documents a client fetches from the server's own origin (RFC 9728 protected-resource metadata,
 * a health check), and knows nothing of what they say: the server still holds no credential, no
 * key, and makes no connection of its own.
 *
 * What the server keeps for itself: the Host check (DNS rebinding) and, unless a route declares
 * itself readable from any origin, the Origin check, both exactly as the MCP endpoint applies them;
 * the methods (`GET` and `HEAD`, a CORS preflight for a public route, `405` for the rest); the
 * framing (`Content-Length`, no body on `HEAD`, no request body taken); and every header a host
 * could get wrong (hop-by-hop, framing and CORS headers are the server's). A host function that
 * throws, answers what cannot be sent or does not answer within `readTimeoutMs` is the host's
 * fault: `500` (`503` for the deadline) and `onFault`, never a half-written answer.
 */
import type { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Http2ServerRequest } from 'node:http2';
import { performance } from 'node:perf_hooks';
import { invalidOption } from '../../errors.js';
import { MAX_HEADER_LINES, MAX_ROUTE_BODY_BYTES, MAX_ROUTES } from '../../limits.js';
import { isPlainObject, requireArray, requireFunction } from '../../options.js';
import { reportRefusal } from '../exchange-steps.js';
import { asciiLowerCase, indexHeaders, valuesOf } from '../headers/index.js';
import {
  checkAuthority,
  checkHost,
  originAllowed,
  targetAuthority,
  targetDisagrees,
  targetPath,
} from '../host-origin.js';
import type { AuthorizeRequest, CheckedHttpOptions } from '../http-options.js';
import { type HttpRefusal, REFUSALS } from '../refusals.js';
import { isSafeHeaderValue, writePreflight, writeRefusal } from '../respond.js';
import { turnOf, waitTurn } from './connection-turn.js';
import type { HttpHandler, HttpRequest, HttpResponse } from './handler.js';
import { authorizeRequest } from './request.js';

/** What a route's function sees: the request's line and headers, frozen, as `authorize` sees them. Never a body. */
export type RouteRequest = AuthorizeRequest;

export interface RouteAnswer {
  /** Default 200. One of 200, 203, 204 (no body), 404, 410, 503. */
  readonly status?: 200 | 203 | 204 | 404 | 410 | 503;
  /**
   * Response headers: names as RFC 9110 tokens, values visible ASCII. The server writes
   * `Content-Length` itself and refuses `Connection`, `Transfer-Encoding`, `Keep-Alive`, `Upgrade`,
   * `TE`, `Trailer`, `Proxy-Connection`, `Host` and every `Access-Control-*` (CORS is `origins`).
   */
  readonly headers?: Readonly<Record<string, string>>;
  /** At most `MAX_ROUTE_BODY_BYTES` (65,536) bytes; a string is sent as UTF-8. */
  readonly body?: string | Uint8Array;
}

export interface ServeRoute {
  /** Answers `GET`, and `HEAD` (whose body the server drops). May return a promise, settled within `readTimeoutMs`. */
  readonly get: (request: RouteRequest) => RouteAnswer | Promise<RouteAnswer>;
  /**
   * `'allowed'` (the default): the server's `allowedOrigins` apply, as they do to the MCP endpoint.
   * `'any'`: a public document that carries and depends on no credential: any `Origin` is admitted,
   * every answer carries `Access-Control-Allow-Origin: *`, and a CORS preflight asking for `GET` or
   * `HEAD` is answered `204`.
   */
  readonly origins?: 'allowed' | 'any';
  /** Request headers a cross-origin page may send, named in the preflight's answer (`origins: 'any'` only). */
  readonly allowHeaders?: readonly string[];
}

interface CheckedRoute {
  readonly get: ServeRoute['get'];
  readonly anyOrigin: boolean;
  /** The preflight's answer, built once. */
  readonly preflight: Readonly<Record<string, string>>;
  readonly allow: string;
}

export type CheckedRoutes = ReadonlyMap<string, CheckedRoute>;

/** A path as a request line carries it: `/`, then RFC 3986 `pchar`s and `/`; no query, no fragment. */
const ROUTE_PATH = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const ROUTE_KEYS = ['get', 'origins', 'allowHeaders'];
const STATUSES: ReadonlySet<unknown> = new Set([200, 203, 204, 404, 410, 503]);
/** Headers the server owns: framing and connection (RFC 9110 §7.6.1, RFC 9113 §8.2.2), and CORS. */
const SERVER_HEADERS = new Set([
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'proxy-connection',
  'upgrade',
  'te',
  'trailer',
  'host',
]);

function checkPath(path: string, mcpPath: string): void {
  const at = `routes["${path}"]`;
  if (path.length > 256 || !ROUTE_PATH.test(path)) {
    throw invalidOption(
      at,
      "must be a path of at most 256 characters: / then letters, digits and -._~!$&'()*+,;=:@%/",
    );
  }
  // A path a proxy in front would resolve to another one, or normalise, could be reached by two names.
  if (/\/\.{1,2}(\/|$)/.test(path) || path.includes('//')) {
    throw invalidOption(at, 'must hold no dot segment and no empty segment');
  }
  if (/%(?![0-9A-F]{2})/.test(path)) throw invalidOption(at, 'must percent-encode in upper-case hex (%2F)');
  if (path === mcpPath) throw invalidOption(at, 'is the MCP endpoint’s path');
}

function checkRoute(path: string, value: unknown): CheckedRoute {
  const at = `routes["${path}"]`;
  if (!isPlainObject(value)) throw invalidOption(at, 'must be an object { get, origins?, allowHeaders? }');
  for (const key of Object.keys(value)) {
    if (!ROUTE_KEYS.includes(key))
      throw invalidOption(`${at}.${key}`, 'is not a route option (get, origins, allowHeaders)');
  }
  const get = requireFunction<ServeRoute['get']>(value['get'], `${at}.get`);
  const origins = value['origins'] ?? 'allowed';
  if (origins !== 'allowed' && origins !== 'any')
    throw invalidOption(`${at}.origins`, "must be 'allowed' or 'any'");
  const anyOrigin = origins === 'any';
  const allowHeaders: string[] = [];
  if (value['allowHeaders'] !== undefined) {
    if (!anyOrigin) throw invalidOption(`${at}.allowHeaders`, "applies to origins: 'any' only");
    for (const [index, name] of requireArray(value['allowHeaders'], `${at}.allowHeaders`).entries()) {
      if (typeof name !== 'string' || !TOKEN.test(name) || name.length > 64) {
        throw invalidOption(`${at}.allowHeaders[${index}]`, 'must be a header name');
      }
      allowHeaders.push(asciiLowerCase(name));
    }
  }
  const preflight: Record<string, string> = {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': 'GET, HEAD',
    'access-control-max-age': '600',
  };
  if (allowHeaders.length > 0) preflight['access-control-allow-headers'] = allowHeaders.join(', ');
  return Object.freeze({
    get,
    anyOrigin,
    preflight: Object.freeze(preflight),
    allow: anyOrigin ? 'GET, HEAD, OPTIONS' : 'GET, HEAD',
  });
}

/** `serve()`'s `routes`: at most `MAX_ROUTES` exact paths, each checked once. */
export function checkRoutes(value: unknown, mcpPath: string): CheckedRoutes | undefined {
  if (value === undefined) return undefined;
  if (!isPlainObject(value)) throw invalidOption('routes', 'must be an object of paths to routes');
  const entries = Object.entries(value);
  if (entries.length > MAX_ROUTES) throw invalidOption('routes', `must hold at most ${MAX_ROUTES} paths`);
  const routes = new Map<string, CheckedRoute>();
  for (const [path, route] of entries) {
    checkPath(path, mcpPath);
    routes.set(path, checkRoute(path, route));
  }
  return routes;
}

/** What a route answered, checked: every fault named for the host's `onFault`, in our words. */
type Checked =
  | {
      readonly ok: true;
      readonly status: number;
      readonly headers: Record<string, string>;
      readonly body: Buffer;
    }
  | { readonly ok: false; readonly fault: string; readonly cause?: unknown };

function checkAnswer(answer: unknown, anyOrigin: boolean): Checked {
  if (!isPlainObject(answer)) return { ok: false, fault: 'answered no { status?, headers?, body? } object' };
  const status = answer['status'] ?? 200;
  if (!STATUSES.has(status))
    return { ok: false, fault: 'answered a status other than 200, 203, 204, 404, 410 or 503' };
  const headers: Record<string, string> = {};
  const given = answer['headers'] ?? {};
  if (!isPlainObject(given)) return { ok: false, fault: 'answered headers that are not an object' };
  for (const [name, value] of Object.entries(given)) {
    const lower = asciiLowerCase(name);
    if (!TOKEN.test(name) || !isSafeHeaderValue(value))
      return { ok: false, fault: 'answered a header that cannot be sent' };
    if (SERVER_HEADERS.has(lower) || lower.startsWith('access-control-')) {
      return { ok: false, fault: `answered ${lower}, which the server writes itself` };
    }
    headers[lower] = value;
  }
  const raw = answer['body'] ?? '';
  if (typeof raw !== 'string' && !(raw instanceof Uint8Array))
    return { ok: false, fault: 'answered a body that is not a string or bytes' };
  // UTF-8 takes at least a byte a character: a string this long is refused before it is encoded.
  if (raw.length > MAX_ROUTE_BODY_BYTES)
    return { ok: false, fault: `answered more than ${MAX_ROUTE_BODY_BYTES} bytes` };
  const body =
    typeof raw === 'string'
      ? Buffer.from(raw, 'utf8')
      : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  if (body.byteLength > MAX_ROUTE_BODY_BYTES)
    return { ok: false, fault: `answered more than ${MAX_ROUTE_BODY_BYTES} bytes` };
  if (status === 204 && body.byteLength > 0) return { ok: false, fault: 'answered 204 with a body' };
  if (anyOrigin) headers['access-control-allow-origin'] = '*';
  if (status !== 204) headers['content-length'] = String(body.byteLength);
  return { ok: true, status: status as number, headers, body };
}

const TIMED_OUT = Symbol('timed out');

/**
 * The route's answer, or a fault. A synchronous answer is taken at once; a promise is raced
 * against the deadline. Reading the answer may run host getters, so it is guarded too.
 */
function runRoute(
  route: CheckedRoute,
  request: RouteRequest,
  deadline: number,
): Checked | Promise<Checked | typeof TIMED_OUT> {
  try {
    const result: unknown = route.get(request);
    if (!(result instanceof Promise)) return checkAnswer(result, route.anyOrigin);
    let timer: NodeJS.Timeout | undefined;
    const lapse = new Promise<typeof TIMED_OUT>((resolve) => {
      timer = setTimeout(() => resolve(TIMED_OUT), Math.max(0, deadline - performance.now()));
    });
    return Promise.race([result, lapse])
      .then((settled) => (settled === TIMED_OUT ? TIMED_OUT : checkAnswer(settled, route.anyOrigin)))
      .catch((cause: unknown) => ({ ok: false, fault: 'threw', cause }) as const)
      .finally(() => clearTimeout(timer));
  } catch (cause) {
    return { ok: false, fault: 'threw', cause };
  }
}

/**
 * The front `serve()` puts before the MCP handler when it has routes: a request for a route's
 * path is answered here, every other request goes on to the handler unchanged (and pays one path
 * lookup for it). The checks mirror the handler's first ones (its checks 1 and 2), in its order,
 * after the handler's bound on header lines; and a route's request starts on its turn, as the
 * handler's do (connection-turn.ts), so no route function runs for a request pipelined behind an
 * answer that closed the connection.
 */
export function routeFront(
  routes: CheckedRoutes,
  options: CheckedHttpOptions,
  handler: HttpHandler,
): HttpHandler {
  const front = (anyReq: HttpRequest, anyRes: HttpResponse, invite: boolean): void => {
    const req = anyReq as IncomingMessage;
    const path = targetPath(req.url ?? '');
    const route = routes.get(path);
    if (route === undefined) {
      (invite ? handler.checkContinue : handler)(anyReq, anyRes);
      return;
    }
    const res = anyRes as unknown as ServerResponse;
    const begin = (): void => {
      try {
        if (req.rawHeaders.length > 2 * MAX_HEADER_LINES) {
          reportRefusal(options.onLog, { refusal: REFUSALS.headLines });
          writeRefusal(res, REFUSALS.headLines);
          return;
        }
        answerRoute(route, path, req, res, options);
      } catch (cause) {
        options.onFault(`the route ${path} failed while answering`, cause);
        if (res.headersSent) res.destroy();
        else writeRefusal(res, REFUSALS.transportFault);
      }
    };
    const turn = turnOf(res);
    if (turn === 'now') begin();
    else if (turn === 'wait')
      waitTurn(req, res, begin, () => reportRefusal(options.onLog, { refusal: REFUSALS.pipelineTooDeep }));
  };
  const checkContinue = (req: HttpRequest, res: HttpResponse): void => front(req, res, true);
  return Object.assign((req: HttpRequest, res: HttpResponse) => front(req, res, false), {
    checkContinue,
    stream: handler.stream,
    clientError: handler.clientError,
    close: handler.close,
    attach: <S extends EventEmitter>(server: S): S => {
      // The front's own checkContinue, so a route's caller is judged by the route's rules; the rest are the handler's.
      if (server.listenerCount('checkContinue') === 0) server.on('checkContinue', checkContinue);
      return handler.attach(server);
    },
  });
}

type Decision =
  | { readonly kind: 'refuse'; readonly refusal: HttpRefusal; readonly headers?: Record<string, string> }
  | { readonly kind: 'preflight' }
  | { readonly kind: 'answer' };

/** What the server decides before the host function runs: the handler's checks 1 and 2, then the method and framing. */
function decide(
  route: CheckedRoute,
  req: IncomingMessage,
  http2: boolean,
  options: CheckedHttpOptions,
): Decision {
  const refuse = (refusal: HttpRefusal, headers?: Record<string, string>): Decision =>
    headers === undefined ? { kind: 'refuse', refusal } : { kind: 'refuse', refusal, headers };
  const headers = indexHeaders(req.rawHeaders);
  if (!http2 && req.httpVersion !== '1.1' && req.httpVersion !== '1.0') return refuse(REFUSALS.httpVersion);
  const authority = req.headers[':authority'];
  const host = http2
    ? checkAuthority(typeof authority === 'string' ? authority : undefined, headers, options.allowedHosts)
    : checkHost(headers, options.allowedHosts);
  if (host === 'mismatch') return refuse(REFUSALS.hostAuthority);
  if (host === 'repeated') return refuse(REFUSALS.hostRepeated);
  if (host === 'missing' && req.httpVersion === '1.1') return refuse(REFUSALS.hostMissing);
  if (!http2 && targetDisagrees(targetAuthority(req.url), headers)) return refuse(REFUSALS.hostTarget);
  // HTTP/1.0 may leave Host out; serve() always has a list, and no name on it was given.
  if (host === 'not-allowed' || host === 'missing') return refuse(REFUSALS.hostNotAllowed);
  if (!route.anyOrigin && !originAllowed(headers, options.allowedOrigins))
    return refuse(REFUSALS.originNotAllowed);
  const cors: Record<string, string> = route.anyOrigin ? { 'access-control-allow-origin': '*' } : {};
  const method = req.method ?? '';
  const asked = valuesOf(headers, 'access-control-request-method');
  if (method === 'OPTIONS' && route.anyOrigin && asked.length > 0) {
    const readable = asked.length === 1 && (asked[0] === 'GET' || asked[0] === 'HEAD');
    return readable ? { kind: 'preflight' } : refuse(REFUSALS.routeMethod, { allow: route.allow, ...cors });
  }
  if (method !== 'GET' && method !== 'HEAD')
    return refuse(REFUSALS.routeMethod, { allow: route.allow, ...cors });
  // A GET or HEAD has no body to give (RFC 9110 §9.3.1): one declared is refused unread.
  if (bodyDeclared(req)) return refuse(REFUSALS.routeBody, cors);
  return { kind: 'answer' };
}

function bodyDeclared(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function answerRoute(
  route: CheckedRoute,
  path: string,
  req: IncomingMessage,
  res: ServerResponse,
  options: CheckedHttpOptions,
): void {
  const deadline = performance.now() + options.readTimeoutMs;
  const refuse = (refusal: HttpRefusal, headers: Record<string, string> = {}): void => {
    reportRefusal(options.onLog, { refusal });
    writeRefusal(res, refusal, headers);
  };
  const http2 = (req as unknown) instanceof Http2ServerRequest;
  const decision = decide(route, req, http2, options);
  if (decision.kind === 'refuse') {
    refuse(decision.refusal, decision.headers);
    return;
  }
  if (decision.kind === 'preflight') {
    writePreflight(res, route.preflight, http2 || bodyDeclared(req));
    return;
  }
  const cors: Record<string, string> = route.anyOrigin ? { 'access-control-allow-origin': '*' } : {};
  const head = req.method === 'HEAD';
  const write = (checked: Checked | typeof TIMED_OUT): void => {
    if (res.headersSent || res.destroyed) return;
    if (checked === TIMED_OUT) {
      options.onFault(`the route ${path} did not answer within ${options.readTimeoutMs} ms`, undefined);
      refuse(REFUSALS.routeTimeout, cors);
    } else if (!checked.ok) {
      options.onFault(`the route ${path} ${checked.fault}`, checked.cause);
      refuse(REFUSALS.routeFault, cors);
    } else {
      res.writeHead(checked.status, checked.headers);
      // HTTP/2: a stream the client left open is then stopped by Node with RST_STREAM(NO_ERROR).
      res.end(head || checked.status === 204 ? undefined : checked.body);
    }
  };
  const ran = runRoute(route, authorizeRequest(req), deadline);
  if (ran instanceof Promise) {
    ran.then(write, (cause: unknown) => {
      options.onFault(`the route ${path} failed while answering`, cause);
      if (!res.headersSent) writeRefusal(res, REFUSALS.transportFault);
    });
  } else {
    write(ran);
  }
}
