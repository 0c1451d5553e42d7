/**
 * Streamable HTTP (HTTP/1.1), stateless, for `node:http`: `http.createServer(createHttpHandler(server, options))`,
 * mountable at any path (the URL is not read). Checks run in a fixed order, each before the next
 * costs anything, and everything decided before the body is read closes the connection without
 * reading it:
 *
 *   1. Host (421; two Host lines 400)     5. Accept admits application/json (406)
 *   2. Origin (403)                       6. Content-Type application/json (415)
 *   3. method POST (405, Allow: POST)     7. Content-Length present, no Transfer-Encoding (411), ≤ 1 MiB (413)
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
 * HTTP/2 (`node:http2` compatibility API, as `serve()` mounts it): the Host check reads
 * `:authority` (a disagreeing `host` field is 400); a Content-Length may be absent (DATA frames
 * carry the length), the bytes are then counted as they arrive and the one past 1 MiB is 413.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type IncomingHttpHeaders as Http2Headers,
  Http2ServerRequest,
  Http2ServerResponse,
  type ServerHttp2Stream,
} from 'node:http2';
import { performance } from 'node:perf_hooks';
import { MAX_MESSAGE_BYTES } from '../limits.js';
import type { Server } from '../server.js';
import { authorizeRequest, runAuthorize } from './authorize.js';
import { type CorsPolicy, corsPolicy, corsResponseHeaders, preflight, withVaryOrigin } from './cors.js';
import {
  answerAdmitted,
  BODY_CONSUMED_FAULT,
  bodyMessage,
  judgeAuthorize,
  reportRefusal,
} from './exchange-steps.js';
import { trimOws } from './header-text.js';
import { asciiLowerCase, indexHeaders, valuesOf } from './header-values.js';
import {
  checkAuthority,
  checkHost,
  originAllowed,
  targetAuthority,
  targetDisagrees,
  targetPath,
} from './host-origin.js';
import { type CheckedHttpOptions, checkHttpOptions, type HttpHandlerOptions } from './http-options.js';
import { isJsonContentType, readAccept } from './media.js';
import { clientGone, readBody } from './read-body.js';
import { type HttpRefusal, REFUSALS } from './refusals.js';
import { writePreflight, writeRefusal } from './respond.js';

export type { AuthorizeRequest, AuthorizeResult, HttpHandlerOptions, HttpLogEvent } from './http-options.js';
export { HTTP_REFUSAL_CHANNEL } from './refusals.js';

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
  const cors =
    checked.cors === undefined ? undefined : corsPolicy(checked.cors, checked.allowedOrigins, server);
  const run = (anyReq: HttpRequest, anyRes: HttpResponse, invite: boolean): void => {
    // The compatibility API offers every member used past here (headers, rawHeaders, data/end/close,
    // writeHead/write/end, req); the few differences are decided on the request's class.
    const req = anyReq as IncomingMessage;
    const res = anyRes as unknown as ServerResponse;
    serve(server, checked, cors, req, res, invite).catch((cause: unknown) => {
      // A bug of ours must not become an unhandled rejection and a request left hanging.
      checked.onFault('the HTTP transport failed while answering', cause);
      if (res.headersSent) res.destroy();
      else writeRefusal(res, REFUSALS.transportFault);
    });
  };
  const handler = (req: HttpRequest, res: HttpResponse): void => run(req, res, false);
  return Object.assign(handler, {
    checkContinue: (req: HttpRequest, res: HttpResponse): void => run(req, res, true),
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
  });
}

async function serve(
  server: Server,
  options: CheckedHttpOptions,
  cors: CorsPolicy | undefined,
  req: IncomingMessage,
  res: ServerResponse,
  invite: boolean,
): Promise<void> {
  // One budget for the whole exchange up to the last body byte, on the monotonic clock.
  const deadline = performance.now() + options.readTimeoutMs;
  // Every header line, indexed once by lower-cased name, for every check below.
  const headers = indexHeaders(req.rawHeaders);
  const refuse = (refusal: HttpRefusal, headers: Record<string, string> = {}, reason?: string): void => {
    reportRefusal(options.onLog, { refusal, reason });
    writeRefusal(res, refusal, headers);
  };

  // By the object, not `httpVersionMajor`, which an HTTP/1.1 request line may set to 2 (see isHttp2).
  const http2 = (req as unknown) instanceof Http2ServerRequest;
  if (!http2 && req.httpVersion !== '1.1' && req.httpVersion !== '1.0') return refuse(REFUSALS.httpVersion);
  const authority = req.headers[':authority'];
  const host = http2
    ? checkAuthority(typeof authority === 'string' ? authority : undefined, headers, options.allowedHosts)
    : checkHost(headers, options.allowedHosts);
  if (host === 'mismatch') return refuse(REFUSALS.hostAuthority);
  if (host === 'repeated') return refuse(REFUSALS.hostRepeated);
  // An absolute-form target (`POST http://evil.example/mcp`) is the host the RFC says to use.
  if (!http2 && targetDisagrees(targetAuthority(req.url), headers)) return refuse(REFUSALS.hostTarget);
  if (host === 'not-allowed') return refuse(REFUSALS.hostNotAllowed);
  if (!originAllowed(headers, options.allowedOrigins)) return refuse(REFUSALS.originNotAllowed);
  if (cors !== undefined) {
    // The origin is ours (or absent): from here every answer, refusals and streams included, is
    // one a page may read. Set on the response, so every later writeHead merges them.
    const origin = valuesOf(headers, 'origin')[0];
    for (const [name, value] of Object.entries(corsResponseHeaders(cors, origin)))
      res.setHeader(name, name === 'vary' ? withVaryOrigin(res.getHeader('vary')) : value);
  }
  if (options.path !== undefined && !pathMatches(req.url, options.path)) return refuse(REFUSALS.notFound);
  if (cors !== undefined) {
    const verdict = preflight(
      cors,
      req.method,
      valuesOf(headers, 'origin')[0],
      valuesOf(headers, 'access-control-request-method'),
    );
    if (verdict.kind === 'refuse') return refuse(verdict.refusal, verdict.headers);
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
  if (req.method !== 'POST') return refuse(REFUSALS.method, { allow: 'POST' });

  const request = authorizeRequest(req);
  // A synchronous hook's verdict comes back as is, with no deadline timer; awaiting it is one microtask.
  const admission = judgeAuthorize(await runAuthorize(() => options.authorize(request), deadline), options);
  if (!admission.ok) return refuse(admission.refusal, admission.headers, admission.reason);

  const accept = readAccept(headers);
  if (!accept.json) return refuse(REFUSALS.notAcceptable);
  if (!isJsonContentType(headers)) return refuse(REFUSALS.mediaType);
  if (req.headers['transfer-encoding'] !== undefined) return refuse(REFUSALS.chunked);
  const length = req.headers['content-length'];
  // HTTP/2 frames its own DATA: an undeclared length is counted by readBody instead.
  if (length === undefined ? !http2 : !DECIMAL.test(length)) return refuse(REFUSALS.noLength);
  if (length !== undefined && Number(length) > MAX_MESSAGE_BYTES) return refuse(REFUSALS.tooLarge);

  // The client left while authorize ran: nobody to answer, no misuse to report, no body to wait for.
  if (clientGone(req)) return;
  // A body parser mounted in front of us already consumed the stream: a parse error would blame the client.
  if (req.readableEnded || Reflect.get(req, 'body') !== undefined) {
    options.onFault(BODY_CONSUMED_FAULT, undefined);
    return refuse(REFUSALS.misuse);
  }
  if (invite) res.writeContinue();

  const body = await readBody(req, MAX_MESSAGE_BYTES, deadline);
  if (!body.ok) {
    if (body.reason === 'timeout') return refuse(REFUSALS.readTimeout);
    if (body.reason === 'too-large') return refuse(REFUSALS.tooLarge);
    return; // The client went away: nobody to answer, and no fault of the host's.
  }

  const read = await bodyMessage(options, request, body.bytes, deadline);
  if (!read.ok) return refuse(read.refusal, {}, read.reason);

  answerAdmitted(
    server,
    options,
    { message: read.message, headers, auth: admission.auth, mayStream: accept.eventStream },
    res,
  );
}
