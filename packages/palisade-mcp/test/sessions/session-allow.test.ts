/**
 * The 405 for a method an endpoint does not serve names, in `Allow`, the methods it does: POST
 * alone when stateless, GET, POST and DELETE with sessions. Every place an answer is written: the
 * node handler, the fetch handler, serve(), and CONNECT, which Node hands over without calling a
 * handler (a bare socket over HTTP/1.1, a stream over HTTP/2).
 */
import { once } from 'node:events';
import { createServer as createHttpServer } from 'node:http';
import { connect as h2Connect } from 'node:http2';
import { type AddressInfo, connect } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { createHttpHandler, type HttpHandlerOptions } from '../../src/http/node/handler.js';
import { serve } from '../../src/http/node/serve.js';
import type { Server } from '../../src/index.js';
import {
  type Endpoint,
  type EndpointOptions,
  fetchEndpoint,
  nodeEndpoint,
  SESSION_OPTIONS,
} from '../support/session-peer.js';
import { sessionServer } from './session-server.js';

async function serveEndpoint(
  server: Server,
  options: EndpointOptions = {},
): Promise<Endpoint & { port: number }> {
  const serving = await serve(server, { ...SESSION_OPTIONS, sessions: {}, ...options } as never);
  return { url: `${serving.url}/mcp`, port: serving.port, close: () => serving.close() };
}

/** createHttpHandler on node:http with `handler.attach`, so CONNECT is answered by Palisade. */
async function attachedEndpoint(
  server: Server,
  options: EndpointOptions = {},
): Promise<Endpoint & { port: number }> {
  const handler = createHttpHandler(server, {
    ...SESSION_OPTIONS,
    sessions: {},
    ...options,
  } as HttpHandlerOptions);
  const http = handler.attach(createHttpServer(handler));
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    close: async () => {
      http.closeAllConnections();
      http.close();
      await once(http, 'close');
    },
  };
}

let endpoint: Endpoint | undefined;
afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
});

const MODES = [
  ['with sessions', {}, 'GET, POST, DELETE'],
  ['without sessions', { sessions: undefined }, 'POST'],
] as const;

const RUNTIMES = [
  ['the node handler', nodeEndpoint],
  ['the fetch handler', fetchEndpoint],
  ['serve()', serveEndpoint],
] as const;

describe.each(MODES)('%s', (_mode, options, allow) => {
  test.each(RUNTIMES)(`a PUT to %s is 405 with Allow: ${allow}`, async (_name, start) => {
    endpoint = await start(sessionServer(), options);
    const response = await fetch(endpoint.url, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(allow);
    await response.body?.cancel();
  });

  test.each([
    ['serve()', serveEndpoint],
    ['node:http with handler.attach', attachedEndpoint],
  ] as const)(`a CONNECT over HTTP/1.1 to %s is 405 with Allow: ${allow}`, async (_name, start) => {
    const served = await start(sessionServer(), options);
    endpoint = served;
    const socket = connect(served.port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.write('CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n');
    await once(socket, 'close');
    expect(text.startsWith('HTTP/1.1 405 Method Not Allowed\r\n')).toBe(true);
    expect(text).toContain(`\r\nallow: ${allow}\r\n`);
  });

  test(`a CONNECT over HTTP/2 to serve() is 405 with Allow: ${allow}`, async () => {
    const served = await serveEndpoint(sessionServer(), options);
    endpoint = served;
    const session = h2Connect(`http://127.0.0.1:${served.port}`);
    session.on('error', () => {});
    const stream = session.request({ ':method': 'CONNECT', ':authority': '127.0.0.1:443' });
    stream.on('error', () => {});
    const [headers] = (await once(stream, 'response')) as [Record<string, string | number>];
    stream.resume();
    await once(stream, 'close');
    session.close();
    expect(headers[':status']).toBe(405);
    expect(headers['allow']).toBe(allow);
  });
});
