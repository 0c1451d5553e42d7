/**
 * A Palisade server behind `bearer()`, served for real: over `node:http` on a loopback port, or
 * through the fetch handler in process. Requests are built as MCP clients send them, for both
 * revisions. Everything is imported from the server's public entry points.
 */
import { once } from 'node:events';
import { createServer as createNodeServer, type Server as NodeServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer, defineTool, type Server } from 'palisade-mcp';
import { createFetchHandler } from 'palisade-mcp/fetch';
import { createHttpHandler, type HttpLogEvent } from 'palisade-mcp/http';
import type { BearerHooks } from '../../src/index.js';

/** Tools, a resource and a prompt whose names the scope tests key on; `whoami` returns ctx.auth. */
export function guardedCatalog(seen: unknown[] = []): Server {
  return createServer({
    name: 'guarded',
    version: '1.0.0',
    tools: [
      defineTool({
        name: 'whoami',
        description: 'Says who the server thinks is calling.',
        inputSchema: { type: 'object', additionalProperties: false },
        handler: (_args, ctx) => {
          seen.push(ctx.auth);
          return { content: [{ type: 'text', text: JSON.stringify(ctx.auth) }] };
        },
      }),
      defineTool({
        name: 'delete_everything',
        description: 'Needs the admin scope.',
        inputSchema: { type: 'object', additionalProperties: false },
        handler: () => ({ content: [{ type: 'text', text: 'deleted' }] }),
      }),
    ],
    resources: [
      {
        uri: 'file:///public.txt',
        name: 'public',
        read: () => [{ uri: 'file:///public.txt', text: 'public' }],
      },
      {
        uri: 'file:///secret.txt',
        name: 'secret',
        read: () => [{ uri: 'file:///secret.txt', text: 'secret' }],
      },
    ],
    prompts: [
      { name: 'hello', description: 'Greets.', get: () => ({ messages: [] }) },
      { name: 'audit', description: 'Needs a scope.', get: () => ({ messages: [] }) },
    ],
  });
}

export interface Served {
  readonly url: URL;
  readonly events: HttpLogEvent[];
  close(): Promise<void>;
}

export const LOOPBACK = ['127.0.0.1', 'localhost', '::1'];

/** The server behind `hooks` on a loopback port, its refusals collected from `onLog`. */
export async function serveNode(
  hooks: BearerHooks,
  server: Server = guardedCatalog(),
  maxHeaderSize?: number,
): Promise<Served> {
  const events: HttpLogEvent[] = [];
  const handler = createHttpHandler(server, {
    ...hooks,
    allowedOrigins: [],
    allowedHosts: LOOPBACK,
    path: '/mcp',
    onLog: (event) => events.push(event),
    onFault: () => {},
  });
  const http: NodeServer =
    maxHeaderSize === undefined ? createNodeServer(handler) : createNodeServer({ maxHeaderSize }, handler);
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  const { port } = http.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    events,
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

/** The same server through the fetch handler, called in process: no socket, the real handler. */
export function fetchHandlerOf(
  hooks: BearerHooks,
  server: Server = guardedCatalog(),
): { handle: (request: Request) => Promise<Response>; events: HttpLogEvent[] } {
  const events: HttpLogEvent[] = [];
  const handler = createFetchHandler(server, {
    ...hooks,
    allowedOrigins: [],
    allowedHosts: LOOPBACK,
    onLog: (event) => events.push(event),
    onFault: () => {},
  });
  // Each answer is read whole here, as a runtime serving it would: a body left unread is a client
  // that does not read, cut 15 s later and published as json-drain-timeout on the process-wide
  // channel, where it lands in another test file's window.
  const handle = async (request: Request): Promise<Response> => {
    const response = await handler(request);
    const body = await response.arrayBuffer();
    return new Response(response.status === 204 || response.status === 304 ? null : body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
  return { handle, events };
}

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** A 2026-07-28 request as a client sends it: `_meta` in the body, `Mcp-Method` and `Mcp-Name` headers. */
export function modern(
  method: string,
  params: Record<string, unknown> = {},
  id = 1,
): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: META } });
  const headers: Record<string, string> = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method };
  const name = params['name'] ?? params['uri'];
  if (typeof name === 'string') headers['mcp-name'] = name;
  return { body, headers };
}

/** A 2025-11-25 request after `initialize`: only `MCP-Protocol-Version`, the method in the body alone. */
export function legacy(
  method: string,
  params: Record<string, unknown> = {},
  id = 1,
): { body: string; headers: Record<string, string> } {
  return {
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
    headers: { 'mcp-protocol-version': '2025-11-25' },
  };
}

/** A POST to `url` with `authorization` (when given) and the request's headers. */
export function post(
  url: URL | string,
  request: { body: string; headers: Record<string, string> },
  authorization?: string,
  extra: Record<string, string> = {},
): Request {
  return new Request(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...request.headers,
      ...(authorization === undefined ? {} : { authorization }),
      ...extra,
    },
    body: request.body,
  });
}

/** `tools/call whoami` on 2026-07-28 with the token. */
export function whoami(url: URL | string, token: string | undefined): Request {
  return post(
    url,
    modern('tools/call', { name: 'whoami', arguments: {} }),
    token === undefined ? undefined : `Bearer ${token}`,
  );
}
