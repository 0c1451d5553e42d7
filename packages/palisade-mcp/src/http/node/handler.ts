/**
 * Streamable HTTP (HTTP/1.1), stateless, for `node:http`: `http.createServer(createHttpHandler(server, options))`,
 * mountable at any path (the URL is not read). Checks run in a fixed order, each before the next
 * costs anything, and everything decided before the body is read closes the connection without
 * reading it:
 *
 *   0. at most MAX_HEADER_LINES header lines (431)
 *   1. Host (421; two Host lines 400)     5. Accept admits application/json (406)
 *   2. Origin (403)                       6. Content-Type application/json (415)
 *   3. method POST (405, Allow: POST)     7. Content-Length present, no Transfer-Encoding (411), ≤ 1 MiB (413)
 *      (with sessions GET and DELETE too:
 *      Allow: GET, POST, DELETE)
 *   4. authorize (401/403/429; 500)       8. body read under one whole-body deadline (408)
 *
 * then `authorizeBody` (403), the bounded JSON reader (400), the header–body match (400 -32020)
 * and the core.
 *
 * With `cors` (cors.ts), every response from the path check on carries the CORS headers, and a
 * preflight is answered 204 between the path check and 3, so before `authorize`. The Host and
 * Origin refusals carry none: they answer before the origin is known to be one of ours.
 *
 * `Expect: 100-continue`: a plain `http.createServer(handler)` has Node write `100 Continue`
 * before the handler is even called, inviting a body the handler may then refuse. A host that
 * wants the invitation sent only after checks 1–7 passes `handler.checkContinue` to
 * `server.on('checkContinue', ...)`; Node then calls it instead of writing 100 itself.
 *
 * Pipelined HTTP/1.1 requests start one at a time, each once the answers before it are written
 * (connection-turn.ts): a request behind an answer that closes the connection never starts.
 *
 * `handler.attach(server)` gives the server Palisade's answers where Node answers on its own,
 * without calling a handler: a malformed request, an `Expect` other than 100-continue, CONNECT,
 * and `checkContinue` as above. `serve()` attaches it to both of its servers.
 *
 * HTTP/2 (`node:http2` compatibility API, as `serve()` mounts it): the Host check reads
 * `:authority` (a disagreeing `host` field is 400); a Content-Length may be absent (DATA frames
 * carry the length), the bytes are then counted as they arrive and the one past 1 MiB is 413.
 */
import type { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type IncomingHttpHeaders as Http2Headers,
  Http2ServerRequest,
  Http2ServerResponse,
  type ServerHttp2Stream,
} from 'node:http2';
import { performance } from 'node:perf_hooks';
import type { Duplex } from 'node:stream';
import { MAX_HEADER_LINES, MAX_MESSAGE_BYTES } from '../../limits.js';
import type { Server } from '../../server.js';
import { runAuthorize, type Verdict } from '../authorize.js';
import type { BodyRead } from '../body-bytes.js';
import { type CorsPolicy, corsPolicy, corsResponseHeaders, preflight, withVaryOrigin } from '../cors.js';
import {
  answerAdmitted,
  BODY_CONSUMED_FAULT,
  bodyMessage,
  judgeAuthorize,
  type MessageRead,
  type Refused,
  reportRefusal,
} from '../exchange-steps.js';
import { asciiLowerCase, type HeaderIndex, indexHeaders, trimOws, valuesOf } from '../headers/index.js';
import {
  checkAuthority,
  checkHost,
  originAllowed,
  refusedHostReason,
  targetAuthority,
  targetDisagrees,
  targetPath,
} from '../host-origin.js';
import {
  type AuthorizeRequest,
  type CheckedHttpOptions,
  checkHttpOptions,
  type HttpHandlerOptions,
} from '../http-options.js';
import { isJsonContentType, readAccept } from '../media.js';
import { type HttpRefusal, REFUSALS } from '../refusals.js';
import { writePreflight, writeRefusal } from '../respond.js';
import { SESSION_METHODS, SessionHost } from '../sessions/session-host.js';
import { answerClientError } from './client-error.js';
import { turnOf, waitTurn } from './connection-turn.js';
import { refuseOnSocket } from './raw-refusal.js';
import { clientGone, readBody } from './read-body.js';
import { authorizeRequest } from './request.js';

export type { AuthorizeRequest, AuthorizeResult, HttpHandlerOptions, HttpLogEvent } from '../http-options.js';

export type HttpRequest = IncomingMessage | Http2ServerRequest;
export type HttpResponse = ServerResponse | Http2ServerResponse;

export interface HttpHandler {
  (req: HttpRequest, res: HttpResponse): void;
  /** For `server.on('checkContinue', handler.checkContinue)`: sends `100 Continue` only once checks 1–7 pass. */
  readonly checkContinue: (req: HttpRequest, res: HttpResponse) => void;
  /**
   * For the `node:http2` core API, `server.on('stream', handler.stream)`: the stream is wrapped in
   * Node's own compatibility objects (the classes `http2.createServer` would build) and served
   * exactly as the `(req, res)` form serves it. The core API never answers `Expect: 100-continue`
   * itself, so a stream that asks is invited only once checks 1–7 pass.
   */
  readonly stream: (
    stream: ServerHttp2Stream,
    headers: Http2Headers,
    flags: number,
    rawHeaders: string[],
  ) => void;
  /**
   * For `server.on('clientError', handler.clientError)` (or Fastify's `clientErrorHandler`): a
   * request Node's HTTP/1.1 parser refuses is answered with a named refusal (400, 431, 413, 408),
   * published and logged, once no other answer is being written on its connection. Node's own
   * answer is a bare status, written even over the answer to an earlier request.
   */
  readonly clientError: (error: Error, socket: Duplex) => void;
  /**
   * Has `server` (`node:http`, `node:https` or `node:http2`) give Palisade's named refusals where
   * Node would answer on its own without calling a handler: `clientError` as above, an `Expect`
   * other than 100-continue (417, `checkExpectation`), CONNECT (405, which Node otherwise drops
   * unanswered over HTTP/1.1), and `checkContinue` as above. An event the server already has a
   * listener for is left to it. Every route of that server gets these answers. Returns the server.
   */
  readonly attach: <S extends EventEmitter>(server: S) => S;
  /**
   * For shutdown, once the server stops accepting requests (serve().close() calls it): with
   * `sessions`, every call running on a session is aborted (its handler's signal fires), every
   * session stream ended, and the idle sweep stopped, so nothing of the handler outlives the
   * server; the in-memory stores it built are emptied, a store that was given is left as it is.
   * Without sessions the handler holds nothing and this does nothing.
   */
  readonly close: () => void;
}

const DECIMAL = /^[0-9]+$/;

/**
 * The target's path, before any query, compared exactly: `/mcp/` and `/MCP` are other paths. An
 * absolute-form target (`http://host/mcp`, which a server must accept) is judged by its path too.
 */
function pathMatches(url: string | undefined, path: string): boolean {
  return url !== undefined && targetPath(url) === path;
}

export function createHttpHandler(server: Server, options: HttpHandlerOptions): HttpHandler {
  const checked = checkHttpOptions(options);
  const sessions =
    checked.sessions === undefined
      ? undefined
      : new SessionHost(server, checked.sessions, { onFault: checked.onFault, onLog: checked.onLog });
  const cors =
    checked.cors === undefined
      ? undefined
      : corsPolicy(checked.cors, checked.allowedOrigins, server, sessions !== undefined);
  const tooDeep = (): void => reportRefusal(checked.onLog, { refusal: REFUSALS.pipelineTooDeep });
  const begin = (req: IncomingMessage, res: ServerResponse, invite: boolean): void => {
    // A bug of ours must not become an uncaught exception, an unhandled rejection or a request
    // left hanging, whether it is thrown at once or from a later step.
    const fail = (cause: unknown): void => {
      checked.onFault('the HTTP transport failed while answering', cause);
      if (res.headersSent) res.destroy();
      else writeRefusal(res, REFUSALS.transportFault);
    };
    try {
      // Before any check indexes them: a line a server dropped past its count would hide from them all.
      if (req.rawHeaders.length > 2 * MAX_HEADER_LINES) {
        reportRefusal(checked.onLog, { refusal: REFUSALS.headLines });
        writeRefusal(res, REFUSALS.headLines);
        return;
      }
      new NodeExchange(server, checked, cors, sessions, req, res, invite).start()?.catch(fail);
    } catch (cause) {
      // Answered a microtask later, as a rejection would be: what a front already wrote is
      // flushed by then (Node uncorks on the next tick), so a cut does not discard it.
      queueMicrotask(() => fail(cause));
    }
  };
  const run = (anyReq: HttpRequest, anyRes: HttpResponse, invite: boolean): void => {
    // The compatibility API offers every member used past here (headers, rawHeaders, data/end/close,
    // writeHead/write/end, req); the few differences are decided on the request's class.
    const req = anyReq as IncomingMessage;
    const res = anyRes as unknown as ServerResponse;
    const turn = turnOf(res);
    if (turn === 'now') begin(req, res, invite);
    else if (turn === 'wait') waitTurn(req, res, () => begin(req, res, invite), tooDeep);
  };
  /** A refusal decided before any check runs, written on the request's turn like any answer. */
  const refuseOnTurn = (anyReq: HttpRequest, anyRes: HttpResponse, refused: Refused): void => {
    const req = anyReq as IncomingMessage;
    const res = anyRes as unknown as ServerResponse;
    const answer = (): void => {
      reportRefusal(checked.onLog, refused);
      writeRefusal(res, refused.refusal, refused.headers);
    };
    const turn = turnOf(res);
    if (turn === 'now') answer();
    else if (turn === 'wait') waitTurn(req, res, answer, tooDeep);
  };
  const handler = (req: HttpRequest, res: HttpResponse): void => run(req, res, false);
  const checkContinue = (req: HttpRequest, res: HttpResponse): void => run(req, res, true);
  const checkExpectation = (req: HttpRequest, res: HttpResponse): void =>
    refuseOnTurn(req, res, { refusal: REFUSALS.expectation });
  // HTTP/1.1 hands a CONNECT over as the bare socket, its parser already detached; HTTP/2 as a stream.
  // Refused as any method not served, so `Allow` names what this endpoint serves.
  const wrongMethod = sessions === undefined ? REFUSALS.method : REFUSALS.sessionMethod;
  const allowed = { allow: sessions === undefined ? 'POST' : SESSION_METHODS };
  const connect = (req: HttpRequest, second: Duplex | HttpResponse): void => {
    if (second instanceof Http2ServerResponse)
      refuseOnTurn(req, second, { refusal: wrongMethod, headers: allowed });
    else refuseOnSocket(second as Duplex, wrongMethod, checked.onLog, allowed);
  };
  const clientError = (error: Error, socket: Duplex): void => answerClientError(error, socket, checked.onLog);
  return Object.assign(handler, {
    checkContinue,
    clientError,
    close: (): void => sessions?.close(),
    stream: (
      stream: ServerHttp2Stream,
      headers: Http2Headers,
      _flags: number,
      rawHeaders: string[],
    ): void => {
      const req = new Http2ServerRequest(stream, headers, {}, rawHeaders);
      const res = new Http2ServerResponse(stream);
      const expect = headers['expect'];
      run(req, res, typeof expect === 'string' && asciiLowerCase(trimOws(expect)) === '100-continue');
    },
    attach: <S extends EventEmitter>(target: S): S => {
      const listeners: ReadonlyArray<readonly [string, Parameters<EventEmitter['on']>[1]]> = [
        ['checkContinue', checkContinue],
        ['checkExpectation', checkExpectation],
        ['connect', connect],
        ['clientError', clientError],
      ];
      // Two listeners would both answer: one the host (or its framework) registered stays alone.
      for (const [event, listener] of listeners)
        if (target.listenerCount(event) === 0) target.on(event, listener);
      return target;
    },
  });
}

/**
 * One request's exchange: what the checks settled so far, and each step after the first as a
 * method that runs at once when the step before it settled synchronously (a synchronous
 * `authorize`, a body already buffered, no `authorizeBody`), and from a promise only when it did
 * not. So the common request runs its checks, decode and dispatch in the turn its body arrived,
 * with no async frame and no promise per step; one object per request carries what the closures
 * of an async function would.
 */
class NodeExchange {
  // One budget for the whole exchange up to the last body byte, on the monotonic clock.
  readonly deadline: number;
  // Every header line, indexed once by lower-cased name, for every check below.
  readonly headers: HeaderIndex;
  // By the object, not `httpVersionMajor`, which an HTTP/1.1 request line may set to 2 (see isHttp2).
  readonly http2: boolean;
  request: AuthorizeRequest | undefined = undefined;
  auth: unknown = undefined;
  // Stryker disable next-line BooleanLiteral: `admit` sets it before any path that reads it
  mayStream = false;

  constructor(
    readonly server: Server,
    readonly options: CheckedHttpOptions,
    readonly cors: CorsPolicy | undefined,
    readonly sessions: SessionHost | undefined,
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly invite: boolean,
  ) {
    this.deadline = performance.now() + options.readTimeoutMs;
    this.headers = indexHeaders(req.rawHeaders);
    this.http2 = (req as unknown) instanceof Http2ServerRequest;
  }

  refuse(refusal: HttpRefusal, headers: Record<string, string> = {}, reason?: string): void {
    reportRefusal(this.options.onLog, { refusal, reason });
    writeRefusal(this.res, refusal, headers);
  }

  /** Checks 1 to 3 (and CORS), then `authorize`. */
  start(): void | Promise<void> {
    const { options, cors, req, res, headers, http2 } = this;
    if (!http2 && req.httpVersion !== '1.1' && req.httpVersion !== '1.0')
      return this.refuse(REFUSALS.httpVersion);
    const authority = req.headers[':authority'];
    const host = http2
      ? checkAuthority(typeof authority === 'string' ? authority : undefined, headers, options.allowedHosts)
      : checkHost(headers, options.allowedHosts);
    if (host === 'mismatch') return this.refuse(REFUSALS.hostAuthority);
    if (host === 'repeated') return this.refuse(REFUSALS.hostRepeated);
    if (host === 'missing' && req.httpVersion === '1.1') return this.refuse(REFUSALS.hostMissing);
    // An absolute-form target (`POST http://evil.example/mcp`) is the host the RFC says to use.
    if (!http2 && targetDisagrees(targetAuthority(req.url), headers)) return this.refuse(REFUSALS.hostTarget);
    // HTTP/1.0 may leave Host out; then only a listed name is judged, and there is none.
    if (host === 'not-allowed' || (host === 'missing' && options.allowedHosts !== undefined)) {
      const refused = http2 && typeof authority === 'string' ? authority : valuesOf(headers, 'host')[0];
      return this.refuse(REFUSALS.hostNotAllowed, {}, refusedHostReason(refused));
    }
    if (!originAllowed(headers, options.allowedOrigins)) return this.refuse(REFUSALS.originNotAllowed);
    if (cors !== undefined) {
      // The origin is ours (or absent): from here every answer, refusals and streams included, is
      // one a page may read. Set on the response, so every later writeHead merges them.
      const origin = valuesOf(headers, 'origin')[0];
      for (const [name, value] of Object.entries(corsResponseHeaders(cors, origin)))
        res.setHeader(name, name === 'vary' ? withVaryOrigin(res.getHeader('vary')) : value);
    }
    if (options.path !== undefined && !pathMatches(req.url, options.path))
      return this.refuse(REFUSALS.notFound);
    if (cors !== undefined) {
      const verdict = preflight(
        cors,
        req.method,
        valuesOf(headers, 'origin')[0],
        valuesOf(headers, 'access-control-request-method'),
      );
      if (verdict.kind === 'refuse') return this.refuse(verdict.refusal, verdict.headers);
      if (verdict.kind === 'answer') {
        // Over HTTP/2 a body is announced by HEADERS without END_STREAM, with or without a length:
        // writePreflight stops any stream the client is still sending on, and leaves a finished one.
        const bodyDeclared =
          http2 ||
          req.headers['transfer-encoding'] !== undefined ||
          (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');
        return writePreflight(res, verdict.headers, bodyDeclared);
      }
    }
    if (req.method !== 'POST') {
      // With sessions, GET opens or resumes a stream and DELETE ends a session. Without, a GET is
      // the routine probe for a stream none is offered on (its own rule), anything else a wrong method.
      if (this.sessions === undefined)
        return this.refuse(req.method === 'GET' ? REFUSALS.streamProbe : REFUSALS.method, { allow: 'POST' });
      if (req.method !== 'GET' && req.method !== 'DELETE')
        return this.refuse(REFUSALS.sessionMethod, { allow: SESSION_METHODS });
    }

    const request = authorizeRequest(req);
    this.request = request;
    // A synchronous hook's verdict comes back as is, with no deadline timer, and is judged at once.
    const verdict = runAuthorize(() => options.authorize(request), this.deadline);
    return verdict instanceof Promise ? verdict.then((settled) => this.admit(settled)) : this.admit(verdict);
  }

  /** `authorize`'s verdict, checks 5 to 7, then the body. */
  admit(verdict: Verdict): void | Promise<void> {
    const { options, req, res, headers, http2 } = this;
    const admission = judgeAuthorize(verdict, options);
    if (!admission.ok) return this.refuse(admission.refusal, admission.headers, admission.reason);
    this.auth = admission.auth;

    const accept = readAccept(headers);
    if (req.method !== 'POST') return this.bodiless(accept.eventStream);
    if (!accept.json) return this.refuse(REFUSALS.notAcceptable);
    this.mayStream = accept.eventStream;
    if (!isJsonContentType(headers)) return this.refuse(REFUSALS.mediaType);
    if (req.headers['transfer-encoding'] !== undefined) return this.refuse(REFUSALS.chunked);
    const length = req.headers['content-length'];
    // HTTP/2 frames its own DATA: an undeclared length is counted by readBody instead.
    if (length === undefined ? !http2 : !DECIMAL.test(length)) return this.refuse(REFUSALS.noLength);
    if (length !== undefined && Number(length) > MAX_MESSAGE_BYTES) return this.refuse(REFUSALS.tooLarge);

    // The client left while authorize ran: nobody to answer, no misuse to report, no body to wait for.
    if (clientGone(req)) return;
    // A body parser mounted in front of us already consumed the stream: a parse error would blame the client.
    if (req.readableEnded || Reflect.get(req, 'body') !== undefined) {
      options.onFault(BODY_CONSUMED_FAULT, undefined);
      return this.refuse(REFUSALS.misuse);
    }
    if (this.invite) res.writeContinue();

    const body = readBody(
      req,
      MAX_MESSAGE_BYTES,
      this.deadline,
      length === undefined ? undefined : Number(length),
    );
    return body instanceof Promise ? body.then((read) => this.received(read)) : this.received(body);
  }

  /** A session's GET or DELETE, admitted: no body is read, and one declared is refused unread. */
  bodiless(eventStream: boolean): void {
    const { req, res, headers, http2 } = this;
    const length = req.headers['content-length'];
    if (
      !http2 &&
      (req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0'))
    ) {
      this.refuse(REFUSALS.bodilessBody);
      return;
    }
    if (clientGone(req)) return;
    const sessions = this.sessions as SessionHost;
    const request = { headers, auth: this.auth, mayStream: eventStream, res };
    if (req.method === 'GET') sessions.get(request);
    else sessions.delete(request);
  }

  /** The body's bytes, then `authorizeBody` and the bounded JSON reader. */
  received(body: BodyRead): void | Promise<void> {
    if (!body.ok) {
      if (body.reason === 'timeout') return this.refuse(REFUSALS.readTimeout);
      if (body.reason === 'too-large') return this.refuse(REFUSALS.tooLarge);
      return; // The client went away: nobody to answer, and no fault of the host's.
    }
    // Set with the verdict before any body is read: `start` returned at every path without it.
    const request = this.request as AuthorizeRequest;
    const read = bodyMessage(this.options, request, body.bytes, this.deadline);
    return read instanceof Promise ? read.then((message) => this.decoded(message)) : this.decoded(read);
  }

  /** One decoded message: the core's answer. */
  decoded(read: MessageRead): void {
    // The client left while an asynchronous `authorizeBody` ran: nothing is run for nobody (its
    // 'close' came before the answer could listen for it, so nothing would cancel the run). A
    // request read to its end is not `aborted`; its response is destroyed with the connection.
    if (clientGone(this.req) || this.res.destroyed) return;
    if (!read.ok) {
      this.refuse(read.refusal, read.headers, read.reason);
      return;
    }
    const admitted = {
      message: read.message,
      headers: this.headers,
      auth: this.auth,
      mayStream: this.mayStream,
    };
    if (this.sessions !== undefined) {
      const { onFault, onLog } = this.options;
      const { message, headers, auth, mayStream } = admitted;
      // Literals, not spreads: a spread in the middle of a literal costs a slow copy per request.
      this.sessions.post(
        message,
        { headers, auth, mayStream, res: this.res },
        { server: this.server, message, headers, auth, mayStream, reportFault: onFault, onLog },
      );
      return;
    }
    answerAdmitted(this.server, this.options, admitted, this.res);
  }
}
