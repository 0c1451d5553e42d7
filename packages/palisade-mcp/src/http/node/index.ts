/**
 * `palisade-mcp/http`: stateless Streamable HTTP. `createHttpHandler` is a `(req, res)` listener for
 * `node:http`, `node:https` and the `node:http2` compatibility API, mountable at any path;
 * `serve()` builds the listening server with every server-level setting chosen; `hostAllowList()`
 * puts the Host rule in front of an Express/Connect app's other routes.
 */
export type { CorsOptions } from '../cors.js';
export type {
  Authorize,
  AuthorizeAdmit,
  AuthorizeBody,
  AuthorizeRefusal,
  AuthorizeRequest,
  AuthorizeResult,
  HttpHandlerOptions,
  HttpLogEvent,
  SessionsOptions,
} from '../http-options.js';
export {
  createHttpHandler,
  type HttpHandler,
  type HttpRequest,
  type HttpResponse,
} from './handler.js';
export {
  type HostAllowListMiddleware,
  type HostAllowListOptions,
  hostAllowList,
} from './host-allow-list.js';
export {
  type RouteAnswer,
  type RouteRequest,
  type ServeOptions,
  type ServeRoute,
  type ServeTlsOptions,
  type Serving,
  serve,
} from './serve.js';
export type { Pem } from './serve-tls.js';
