/**
 * The fetch handler behind a real listening server: `@hono/node-server` turns each `node:http`
 * request into a Web `Request` and writes the returned `Response` back, as it does for a Hono app
 * in production. Requests are written as raw bytes (http-peer.ts's RawClient), so framing the
 * fetch API would hide (chunked bodies, two Host lines, a body dripped slowly) is sent exactly.
 */
import { once } from 'node:events';
import type { Server as NodeHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { createFetchHandler } from '../../src/http/fetch/handler.js';
import type { HttpHandlerOptions } from '../../src/http/node/handler.js';
import { ADMIT_ALL, basicServer, LIST, type Mounted } from './http-peer.js';

export async function listenFetch(
  fetch: (request: Request) => Response | Promise<Response>,
): Promise<Mounted> {
  const server = createAdaptorServer({ fetch }) as NodeHttpServer;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    port,
    server,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** The URL the in-process fetch tests send their Web `Request`s to. */
export const FETCH_URL = 'http://127.0.0.1/mcp';

/** The fetch handler of the basic catalog, every caller admitted unless `options` say otherwise. */
export function fetchHandlerWith(
  options: Partial<HttpHandlerOptions> = {},
): (request: Request) => Promise<Response> {
  return createFetchHandler(basicServer(), { ...ADMIT_ALL, ...options });
}

export function mountFetchHandler(options: Partial<HttpHandlerOptions> = {}): Promise<Mounted> {
  return listenFetch(fetchHandlerWith(options));
}

/** LIST's headers with JSON Content-Type and Accept, as a Request's header record. */
export function listHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...(LIST.headers as Record<string, string>),
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...extra,
  };
}
