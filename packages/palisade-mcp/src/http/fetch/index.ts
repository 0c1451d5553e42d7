/**
 * `palisade-mcp/fetch`: the Web-standard handler, `(request: Request) => Promise<Response>`, for
 * Hono, Next.js route handlers, Bun and Deno. It runs on Node's built-ins (`node:events`,
 * `node:perf_hooks`, `node:diagnostics_channel`), which those runtimes offer; an edge runtime
 * without them cannot load it.
 */

export type {
  AuthorizeRequest,
  AuthorizeResult,
  HttpLogEvent,
  SessionsOptions,
} from '../http-options.js';
export { createFetchHandler, type FetchHandler, type FetchHandlerOptions } from './handler.js';
