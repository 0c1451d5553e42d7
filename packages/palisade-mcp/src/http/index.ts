/**
 * `palisade-mcp/http`: stateless Streamable HTTP. `createHttpHandler` is a `(req, res)` listener for
 * `node:http`, `node:https` and the `node:http2` compatibility API, mountable at any path;
 * `serve()` builds the listening server with every server-level setting chosen.
 */
export {
  createHttpHandler,
  HTTP_REFUSAL_CHANNEL,
  type HttpHandler,
  type HttpRequest,
  type HttpResponse,
} from './handler.js';
export type {
  Authorize,
  AuthorizeAdmit,
  AuthorizeBody,
  AuthorizeRefusal,
  AuthorizeRequest,
  AuthorizeResult,
  HttpHandlerOptions,
  HttpLogEvent,
} from './http-options.js';
export { type ServeOptions, type Serving, serve } from './serve.js';
