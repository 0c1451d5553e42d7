/**
 * Streamable HTTP for fetch runtimes: `createFetchHandler(server, options)` is a
 * `(request: Request) => Promise<Response>` for Hono, Next.js route handlers, Bun and Deno. The
 * options are createHttpHandler's, checked once the same way, and the checks run in its order with
 * its statuses and bodies (handler.ts): Host (421), Origin (403), path (404), method (405, Allow:
 * POST, or GET, POST, DELETE with sessions), authorize, Accept (406), Content-Type (415), framing (411/413), the body read under the
 * cap and the deadline (413/408), authorizeBody, the JSON reader (400), the header–body match (400
 * -32020) and the core. Answers come from the same code (answer.ts through fetch/response.ts):
 * JSON, 202 for a notification, or an SSE stream when the client accepts one and the request
 * emits notifications first.
 *
 * With `cors`, the decisions are cors.ts's, taken at the node handler's points: every response
 * from the path check on carries the CORS headers (refusals, SSE and a fault of ours included),
 * a preflight is answered 204 after the path check and before the method rule and `authorize`,
 * and the Host and Origin refusals carry none.
 *
 * Where a Request hides what `node:http` shows, the rule is as close as the runtime allows:
 * - Two `Host` lines arrive joined into one value; a host name never holds a comma, so a comma is
 *   refused as two lines (400). A runtime that keeps only one of them leaves nothing to see.
 * - A runtime has already undone the body's framing, so a body with no Content-Length (chunked,
 *   or HTTP/2 DATA) is counted as it arrives, the byte past 1 MiB refused; Content-Length and
 *   Transfer-Encoding together (the smuggling pattern) is 411, a Content-Length over 1 MiB 413.
 * - An early refusal cannot close the connection or refuse to drain the body: both are the
 *   runtime's (docs/mounts.md, "What a fetch runtime cannot promise").
 */
import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { MAX_MESSAGE_BYTES } from '../../limits.js';
import type { Server } from '../../server.js';
import { errorResponse } from '../../wire/jsonrpc.js';
import { runAuthorize } from '../authorize.js';
import { type CorsPolicy, corsPolicy, corsResponseHeaders, preflight } from '../cors.js';
import {
  answerAdmitted,
  BODY_CONSUMED_FAULT,
  bodyMessage,
  judgeAuthorize,
  reportRefusal,
} from '../exchange-steps.js';
import { valuesOf } from '../headers/index.js';
import { checkHost, originAllowed, refusedHostReason, targetDisagrees, targetPath } from '../host-origin.js';
import { type CheckedHttpOptions, checkHttpOptions, type HttpHandlerOptions } from '../http-options.js';
import { isJsonContentType, readAccept } from '../media.js';
import { type HttpRefusal, REFUSALS } from '../refusals.js';
import { SESSION_METHODS, SessionHost } from '../sessions/session-host.js';
import { readStreamBody } from './read-body.js';
import { fetchAuthorizeRequest, fetchHeaderIndex } from './request.js';
import { StreamResponse } from './response.js';

export interface FetchHandler {
  (request: Request): Promise<Response>;
  /**
   * For shutdown, once the runtime stops handing requests over: with `sessions`, every call
   * running on a session is aborted, every session stream ended and the idle sweep stopped; the
   * in-memory stores it built are emptied, a store that was given is left as it is. Without
   * sessions this does nothing.
   */
  readonly close: () => void;
}

/** createHttpHandler's options, `cors` included. */
export type FetchHandlerOptions = HttpHandlerOptions;

const DECIMAL = /^[0-9]+$/;

/**
 * The CORS headers this request's responses carry, once the Host and Origin rules have passed.
 * Kept outside the exchange so the answer to a fault of ours carries them too, as the node
 * handler's does (it sets them on the response object itself).
 */
interface Carried {
  headers: Readonly<Record<string, string>>;
}

export function createFetchHandler(server: Server, options: FetchHandlerOptions): FetchHandler {
  const checked = checkHttpOptions(options);
  const sessions =
    checked.sessions === undefined
      ? undefined
      : new SessionHost(server, checked.sessions, { onFault: checked.onFault, onLog: checked.onLog });
  const cors =
    checked.cors === undefined
      ? undefined
      : corsPolicy(checked.cors, checked.allowedOrigins, server, sessions !== undefined);
  const handler = async (request: Request): Promise<Response> => {
    const carried: Carried = { headers: {} };
    try {
      return await serveFetch(server, checked, cors, sessions, carried, request);
    } catch (cause) {
      // A bug of ours must not become a rejected promise the runtime answers in its own words.
      checked.onFault('the fetch handler failed while answering', cause);
      return refusalResponse(REFUSALS.transportFault, carried.headers);
    }
  };
  return Object.assign(handler, { close: (): void => sessions?.close() });
}

/** For a client that went away: nobody reads it, but a fetch handler must still return a Response. */
function gone(): Response {
  return new Response(null, { status: 400 });
}

function refusalResponse(refusal: HttpRefusal, headers: Readonly<Record<string, string>> = {}): Response {
  const text = JSON.stringify(errorResponse(undefined, refusal.code, refusal.message));
  return new Response(text, {
    status: refusal.status,
    headers: { ...headers, 'content-type': 'application/json' },
  });
}

async function serveFetch(
  server: Server,
  options: CheckedHttpOptions,
  cors: CorsPolicy | undefined,
  sessions: SessionHost | undefined,
  carried: Carried,
  request: Request,
): Promise<Response> {
  // One budget for the whole exchange up to the last body byte, on the monotonic clock.
  const deadline = performance.now() + options.readTimeoutMs;
  const url = new URL(request.url);
  const refuse = (
    refusal: HttpRefusal,
    extra: Readonly<Record<string, string>> = {},
    reason?: string,
  ): Response => {
    reportRefusal(options.onLog, { refusal, reason });
    return refusalResponse(refusal, { ...carried.headers, ...extra });
  };
  // Userinfo in an http(s) target is an error (RFC 9110 §4.2.4). A runtime that built the URL
  // from an absolute-form target carrying one (`http://a@127.0.0.1/mcp`) throws as soon as the
  // Request is read (@hono/node-server does), which was answered 500 as a fault of ours, with the
  // client's URL in the cause handed to onFault. Its authority is not the Host's name, so it is
  // refused as the node handler refuses it, and before the headers are read.
  if (url.username !== '' || url.password !== '') return refuse(REFUSALS.hostTarget);
  const headers = fetchHeaderIndex(request.headers, url);

  // Stryker disable next-line MethodExpression: a Headers object gives host one value, so some and every agree
  if (valuesOf(headers, 'host').some((value) => value.includes(','))) return refuse(REFUSALS.hostRepeated);
  const host = checkHost(headers, options.allowedHosts);
  // Stryker disable next-line StringLiteral: one Host value is never judged repeated
  if (host === 'repeated') return refuse(REFUSALS.hostRepeated);
  // A runtime builds the URL from an absolute-form target when there is one (@hono/node-server
  // does), else from Host: a URL naming another host than Host is that target (handler.ts).
  if (targetDisagrees(url.host, headers)) return refuse(REFUSALS.hostTarget);
  // No Host at all: a Request names its host in its URL, so only a listed name is judged.
  if (host === 'not-allowed' || (host === 'missing' && options.allowedHosts !== undefined))
    return refuse(REFUSALS.hostNotAllowed, {}, refusedHostReason(valuesOf(headers, 'host')[0]));
  if (!originAllowed(headers, options.allowedOrigins)) return refuse(REFUSALS.originNotAllowed);
  const origin = valuesOf(headers, 'origin')[0];
  // The origin is ours (or absent): from here every answer is one a page may read.
  if (cors !== undefined) carried.headers = corsResponseHeaders(cors, origin);
  // The path as the runtime was handed it: `url.pathname` resolves `%2e` and dot segments, which
  // @hono/node-server passes through as sent, and the node handler does not resolve either.
  if (options.path !== undefined && targetPath(request.url) !== options.path)
    return refuse(REFUSALS.notFound);
  if (cors !== undefined) {
    // `Headers` joins repeated Access-Control-Request-Method lines into one value holding a comma,
    // which is no method, so two lines are refused here as the node handler refuses them.
    const verdict = preflight(
      cors,
      request.method,
      origin,
      valuesOf(headers, 'access-control-request-method'),
    );
    if (verdict.kind === 'refuse') return refuse(verdict.refusal, verdict.headers);
    // A body the preflight declares is left unread, as every early refusal leaves it (the runtime's).
    if (verdict.kind === 'answer') return new Response(null, { status: 204, headers: verdict.headers });
  }
  if (request.method !== 'POST') {
    // With sessions, GET opens or resumes a stream and DELETE ends a session. Without, a GET is
    // the routine probe for a stream none is offered on (its own rule), anything else a wrong method.
    if (sessions === undefined)
      return refuse(request.method === 'GET' ? REFUSALS.streamProbe : REFUSALS.method, { allow: 'POST' });
    if (request.method !== 'GET' && request.method !== 'DELETE')
      return refuse(REFUSALS.sessionMethod, { allow: SESSION_METHODS });
  }

  const seen = fetchAuthorizeRequest(request, headers);
  const admission = judgeAuthorize(await runAuthorize(() => options.authorize(seen), deadline), options);
  if (!admission.ok) return refuse(admission.refusal, admission.headers, admission.reason);
  // The client left while authorize ran: nobody to answer, no body to wait for, nothing to run.
  if (request.signal.aborted) return gone();

  const accept = readAccept(headers);
  if (request.method !== 'POST') {
    // A session's GET or DELETE: no body is read, and one declared is refused unread.
    // Judged by its declaration: a runtime may hand a DELETE an empty body stream (@hono/node-server
    // does), and a body undeclared is never read.
    const declared = valuesOf(headers, 'content-length');
    if (
      valuesOf(headers, 'transfer-encoding').length > 0 ||
      declared.length > 1 ||
      (declared.length === 1 && declared[0] !== '0')
    )
      return refuse(REFUSALS.bodilessBody);
    const sink = sinkWith(carried);
    const held = {
      headers,
      auth: admission.auth,
      mayStream: accept.eventStream,
      res: sink as unknown as ServerResponse,
    };
    if (request.method === 'GET') (sessions as SessionHost).get(held);
    else (sessions as SessionHost).delete(held);
    return watched(sink, request);
  }
  if (!accept.json) return refuse(REFUSALS.notAcceptable);
  if (!isJsonContentType(headers)) return refuse(REFUSALS.mediaType);
  const length = valuesOf(headers, 'content-length')[0];
  if (length !== undefined && valuesOf(headers, 'transfer-encoding').length > 0)
    return refuse(REFUSALS.chunked);
  if (length !== undefined && !DECIMAL.test(length)) return refuse(REFUSALS.noLength);
  if (length !== undefined && Number(length) > MAX_MESSAGE_BYTES) return refuse(REFUSALS.tooLarge);

  // The framework in front already read the body (`await c.req.json()`): a parse error would blame the client.
  if (request.bodyUsed || request.body?.locked === true) {
    options.onFault(BODY_CONSUMED_FAULT, undefined);
    return refuse(REFUSALS.misuse);
  }
  const body = await readStreamBody(
    request.body,
    MAX_MESSAGE_BYTES,
    deadline,
    length === undefined ? undefined : Number(length),
  );
  if (!body.ok) {
    if (body.reason === 'timeout') return refuse(REFUSALS.readTimeout);
    if (body.reason === 'too-large') return refuse(REFUSALS.tooLarge);
    return gone();
  }

  const read = await bodyMessage(options, seen, body.bytes, deadline);
  if (!read.ok) return refuse(read.refusal, read.headers, read.reason);
  // Gone while the body was read or judged (a runtime may hand over the bytes it had): not run.
  if (request.signal.aborted) return gone();

  const sink = sinkWith(carried);
  const admitted = { message: read.message, headers, auth: admission.auth, mayStream: accept.eventStream };
  // The answer path uses only the members StreamResponse offers (fetch/response.ts).
  const res = sink as unknown as ServerResponse;
  if (sessions !== undefined)
    sessions.post(
      read.message,
      { ...admitted, res },
      { server, ...admitted, reportFault: options.onFault, onLog: options.onLog },
    );
  else answerAdmitted(server, options, admitted, res);
  return watched(sink, request);
}

/** The response the answer path writes to, with the CORS headers merged into whatever head it writes. */
function sinkWith(carried: Carried): StreamResponse {
  const sink = new StreamResponse();
  for (const [name, value] of Object.entries(carried.headers)) sink.setHeader(name, value);
  return sink;
}

/** The sink's Response, abandoned when the client goes away. */
function watched(sink: StreamResponse, request: Request): Promise<Response> {
  // After the answer path listens for 'close', so a client already gone still cancels the request.
  // Stryker disable ConditionalExpression,ObjectLiteral,BooleanLiteral: an AbortSignal dispatches abort once; nothing aborts it between the check above and here
  if (request.signal.aborted) sink.abandon();
  else request.signal.addEventListener('abort', () => sink.abandon(), { once: true });
  // Stryker restore ConditionalExpression,ObjectLiteral,BooleanLiteral: a range, not next-line, as biome moves a comment off `else`
  return sink.response;
}
