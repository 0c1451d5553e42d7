/**
 * `serve({ routes })`: exact paths beside the MCP endpoint answered by a host function, over real
 * sockets on HTTP/1.1 (fetch, and raw bytes where fetch would not send them) and HTTP/2 (a
 * `node:http2` client) on the one port. The server keeps its guards (Host, Origin unless the route
 * is public, methods, framing), and an answer it cannot send is never sent.
 */
import { once } from 'node:events';
import { type ClientHttp2Session, connect, type IncomingHttpHeaders } from 'node:http2';
import { afterEach, describe, expect, test } from 'vitest';
import type { HttpLogEvent } from '../../src/http/http-options.js';
import type { RouteAnswer, RouteRequest, ServeRoute } from '../../src/http/node/routes.js';
import { type ServeOptions, type Serving, serve } from '../../src/http/node/serve.js';
import { H2Peer, headersFrame } from '../support/h2-frames.js';
import { ADMIT_ALL, basicServer, exchange, modernRequest } from '../support/http-peer.js';

const { allowedHosts: _unused, ...ADMIT } = ADMIT_ALL;
const DOCUMENT = JSON.stringify({ status: 'ok' });

let served: Serving | undefined;
const faults: string[] = [];
const events: HttpLogEvent[] = [];
const seen: RouteRequest[] = [];

afterEach(async () => {
  await served?.close();
  served = undefined;
  faults.length = 0;
  events.length = 0;
  seen.length = 0;
});

function documentRoute(extra: Partial<ServeRoute> = {}, answer: Partial<RouteAnswer> = {}): ServeRoute {
  return {
    get: (request) => {
      seen.push(request);
      return {
        headers: { 'content-type': 'application/json', 'cache-control': 'public, max-age=60' },
        body: DOCUMENT,
        ...answer,
      };
    },
    ...extra,
  };
}

async function start(
  routes: NonNullable<ServeOptions['routes']>,
  options: Partial<ServeOptions> = {},
): Promise<Serving> {
  served = await serve(basicServer(), {
    ...ADMIT,
    onFault: (description) => faults.push(description),
    onLog: (event) => events.push(event),
    routes,
    ...options,
  });
  return served;
}

async function h2Session(port: number): Promise<ClientHttp2Session> {
  const session = connect(`http://127.0.0.1:${port}`);
  session.on('error', () => {});
  await once(session, 'remoteSettings');
  return session;
}

function h2Get(
  session: ClientHttp2Session,
  headers: Record<string, string>,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve) => {
    const stream = session.request({ ':method': 'GET', ':authority': '127.0.0.1', ...headers });
    let status = 0;
    let received: IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    stream.on('response', (head) => {
      received = head;
      status = Number(head[':status']);
    });
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('error', () => {});
    stream.on('close', () =>
      resolve({ status, headers: received, body: Buffer.concat(chunks).toString('utf8') }),
    );
  });
}

describe('a route on HTTP/1.1', () => {
  test('GET on its exact path is the host function’s answer, with a Content-Length the server counted', {
    tags: ['threat-model'],
  }, async () => {
    const { url } = await start({ '/health': documentRoute() });
    const response = await fetch(`${url}/health`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('cache-control')).toBe('public, max-age=60');
    expect(response.headers.get('content-length')).toBe(String(DOCUMENT.length));
    expect(await response.text()).toBe(DOCUMENT);
    expect(seen[0]?.method).toBe('GET');
  });

  test('HEAD is the GET answer without its body', async () => {
    const { url } = await start({ '/health': documentRoute() });
    const response = await fetch(`${url}/health`, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(DOCUMENT.length));
    expect(await response.text()).toBe('');
    expect(seen[0]?.method).toBe('HEAD');
  });

  test('the query is the route’s to read: the path alone is matched', async () => {
    const { url } = await start({ '/health': documentRoute() });
    expect((await fetch(`${url}/health?verbose=1`)).status).toBe(200);
    expect(seen[0]?.target).toBe('/health?verbose=1');
  });

  test.each(['/health/', '/HEALTH', '/%68ealth', '/health/..', '/x/../health'])(
    '%s is not the route: the MCP side answers 404',
    { tags: ['threat-model'] },
    async (path) => {
      const { port } = await start({ '/health': documentRoute() });
      const answer = await exchange(port, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      expect(answer.status).toBe(404);
      expect(seen).toEqual([]);
    },
  );

  test('the MCP endpoint is served beside the routes, on the same port', async () => {
    const { url } = await start({ '/health': documentRoute() });
    const call = modernRequest(1, 'tools/list');
    const response = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(call.headers as Record<string, string>),
      },
      body: call.body,
    });
    expect(response.status).toBe(200);
  });

  test('a Host not allowed is refused 421 before the host function runs', {
    tags: ['threat-model'],
  }, async () => {
    const { port } = await start({ '/health': documentRoute({ origins: 'any' }) });
    const answer = await exchange(port, 'GET /health HTTP/1.1\r\nHost: rebound.example\r\n\r\n');
    expect(answer.status).toBe(421);
    expect(events.at(-1)?.rule).toBe('host-not-allowed');
    expect(seen).toEqual([]);
  });

  test('an absolute-form target naming another host than Host is refused 400', {
    tags: ['threat-model'],
  }, async () => {
    const { port } = await start({ '/health': documentRoute({ origins: 'any' }) });
    const answer = await exchange(
      port,
      'GET http://rebound.example/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
    );
    expect(answer.status).toBe(400);
    expect(events.at(-1)?.rule).toBe('host-target-mismatch');
    expect(seen).toEqual([]);
  });

  test('a route the server’s origins guard refuses 403 to a page on another origin, and admits its own', {
    tags: ['threat-model'],
  }, async () => {
    const { url } = await start({ '/health': documentRoute() });
    const foreign = await fetch(`${url}/health`, { headers: { origin: 'http://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    expect(seen).toEqual([]);
    const own = await fetch(`${url}/health`, { headers: { origin: 'http://app.example' } });
    expect(own.status).toBe(200);
    expect(own.headers.get('access-control-allow-origin')).toBeNull();
  });

  test('a public route (origins any) is read from any origin with Access-Control-Allow-Origin *', {
    tags: ['threat-model'],
  }, async () => {
    const { url } = await start({ '/health': documentRoute({ origins: 'any' }) });
    const response = await fetch(`${url}/health`, { headers: { origin: 'http://elsewhere.example' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  test('a public route’s preflight is 204 allowing GET, HEAD and its declared headers; one asking for POST is 405', {
    tags: ['threat-model'],
  }, async () => {
    const route = documentRoute({ origins: 'any', allowHeaders: ['MCP-Protocol-Version'] });
    const { url } = await start({ '/health': route });
    const preflight = await fetch(`${url}/health`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://elsewhere.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'mcp-protocol-version',
      },
    });
    expect(preflight.status).toBe(204);
    expect(
      Object.fromEntries([...preflight.headers].filter(([name]) => name.startsWith('access-control-'))),
    ).toEqual({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, HEAD',
      'access-control-allow-headers': 'mcp-protocol-version',
      'access-control-max-age': '600',
    });
    const post = await fetch(`${url}/health`, {
      method: 'OPTIONS',
      headers: { origin: 'http://elsewhere.example', 'access-control-request-method': 'POST' },
    });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(seen).toEqual([]);
  });

  test.each(['POST', 'PUT', 'DELETE', 'OPTIONS'])(
    '%s on a route is refused 405 naming GET and HEAD',
    { tags: ['threat-model'] },
    async (method) => {
      const { url } = await start({ '/health': documentRoute() });
      const response = await fetch(`${url}/health`, {
        method,
        ...(method === 'OPTIONS' ? {} : { body: '{}' }),
      });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
      expect(events.at(-1)?.rule).toBe('route-method-not-allowed');
      expect(seen).toEqual([]);
    },
  );

  test.each([
    ['a Content-Length', 'Content-Length: 5\r\n\r\nhello'],
    ['Transfer-Encoding: chunked', 'Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n'],
  ])(
    'a GET declaring a body with %s is refused 400 unread, the connection closed',
    {
      tags: ['threat-model'],
    },
    async (_how, rest) => {
      const { port } = await start({ '/health': documentRoute() });
      const answer = await exchange(port, `GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n${rest}`);
      expect(answer.status).toBe(400);
      expect(answer.headers['connection']).toBe('close');
      expect(events.at(-1)?.rule).toBe('route-body');
      await answer.client.closed;
      expect(seen).toEqual([]);
    },
  );
});

describe('what a route may answer', () => {
  test.each<[string, () => unknown, string]>([
    [
      'a Content-Length of its own',
      () => ({ headers: { 'content-length': '1' }, body: 'x' }),
      'answered content-length, which the server writes itself',
    ],
    [
      'a Connection header',
      () => ({ headers: { Connection: 'close' } }),
      'answered connection, which the server writes itself',
    ],
    [
      'a CORS header',
      () => ({ headers: { 'access-control-allow-origin': '*' } }),
      'answered access-control-allow-origin, which the server writes itself',
    ],
    [
      'a header value holding CR LF',
      () => ({ headers: { 'x-a': 'b\r\nset-cookie: c=d' } }),
      'answered a header that cannot be sent',
    ],
    [
      'a header name that is no token',
      () => ({ headers: { 'x a': 'b' } }),
      'answered a header that cannot be sent',
    ],
    [
      'a redirect',
      () => ({ status: 302, headers: { location: 'http://evil.example' } }),
      'answered a status other than 200, 203, 204, 404, 410 or 503',
    ],
    ['65,537 bytes', () => ({ body: 'x'.repeat(65_537) }), 'answered more than 65536 bytes'],
    ['204 with a body', () => ({ status: 204, body: 'x' }), 'answered 204 with a body'],
    ['a body that is an object', () => ({ body: { a: 1 } }), 'answered a body that is not a string or bytes'],
    ['nothing', () => undefined, 'answered no { status?, headers?, body? } object'],
    [
      'a throw',
      () => {
        throw new Error('boom');
      },
      'threw',
    ],
    ['a rejected promise', () => Promise.reject(new Error('boom')), 'threw'],
  ])(
    '%s is the host’s fault: 500, named to onFault, never sent',
    { tags: ['threat-model'] },
    async (_what, get, fault) => {
      const { url } = await start({ '/health': { get: get as ServeRoute['get'] } });
      const response = await fetch(`${url}/health`);
      expect(response.status).toBe(500);
      const text = await response.text();
      expect(text).not.toContain('evil.example');
      expect(text).not.toContain('boom');
      expect(faults).toEqual([`the route /health ${fault}`]);
      expect(events.at(-1)?.rule).toBe('route-fault');
    },
  );

  test('bytes and a 404 are answered as given', async () => {
    const { url } = await start({
      '/gone': { get: () => ({ status: 404, body: new Uint8Array([104, 105]) }) },
    });
    const response = await fetch(`${url}/gone`);
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('hi');
  });

  test('a promise is answered when it settles', async () => {
    const { url } = await start({
      '/slow': { get: () => new Promise((resolve) => setTimeout(() => resolve({ body: 'late' }), 100)) },
    });
    expect(await (await fetch(`${url}/slow`)).text()).toBe('late');
  });

  test('a route that has not answered by readTimeoutMs is 503, and onFault says so', {
    tags: ['threat-model'],
  }, async () => {
    const { url } = await start({ '/stuck': { get: () => new Promise(() => {}) } }, { readTimeoutMs: 200 });
    const response = await fetch(`${url}/stuck`);
    expect(response.status).toBe(503);
    expect(faults).toEqual(['the route /stuck did not answer within 200 ms']);
  });
});

describe('a route on HTTP/2, on the same port', () => {
  test('GET is the host function’s answer, and a public route carries Access-Control-Allow-Origin *', {
    tags: ['threat-model'],
  }, async () => {
    const { port } = await start({ '/health': documentRoute({ origins: 'any' }) });
    const session = await h2Session(port);
    try {
      const answer = await h2Get(session, { ':path': '/health', origin: 'http://elsewhere.example' });
      expect(answer.status).toBe(200);
      expect(answer.body).toBe(DOCUMENT);
      expect(answer.headers['content-length']).toBe(String(DOCUMENT.length));
      expect(answer.headers['access-control-allow-origin']).toBe('*');
      const head = await h2Get(session, { ':path': '/health', ':method': 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.body).toBe('');
    } finally {
      session.close();
    }
  });

  test('an :authority not allowed is refused 421, and a foreign Origin 403 on a guarded route', {
    tags: ['threat-model'],
  }, async () => {
    const { port } = await start({ '/health': documentRoute() });
    const session = await h2Session(port);
    try {
      expect((await h2Get(session, { ':path': '/health', ':authority': 'rebound.example' })).status).toBe(
        421,
      );
      expect((await h2Get(session, { ':path': '/health', origin: 'http://evil.example' })).status).toBe(403);
      expect(seen).toEqual([]);
      expect((await h2Get(session, { ':path': '/health' })).status).toBe(200);
    } finally {
      session.close();
    }
  });
});

describe('a route on HTTP/2, frame by frame', () => {
  test('a GET whose stream the client leaves open is answered, then the stream is stopped with NO_ERROR', async () => {
    const { port } = await start({ '/health': documentRoute() });
    const peer = new H2Peer(port);
    try {
      await peer.ready();
      const fields: Array<[string, string]> = [
        [':method', 'GET'],
        [':scheme', 'http'],
        [':path', '/health'],
        [':authority', '127.0.0.1'],
      ];
      peer.send(headersFrame(1, fields));
      await peer.streamEnd(1);
      expect(peer.statuses(1)).toEqual([200]);
      expect(peer.body(1)).toBe(DOCUMENT);
      await peer.waitFor((frame) => frame.streamId === 1 && frame.type === 3, 2_000);
      expect(peer.rstCode(1)).toBe(0);
    } finally {
      peer.end();
    }
  });

  test('a GET declaring a body over HTTP/2 is refused 400 without reading it', async () => {
    const { port } = await start({ '/health': documentRoute() });
    const peer = new H2Peer(port);
    try {
      await peer.ready();
      peer.send(
        headersFrame(1, [
          [':method', 'GET'],
          [':scheme', 'http'],
          [':path', '/health'],
          [':authority', '127.0.0.1'],
          ['content-length', '5'],
        ]),
      );
      await peer.streamEnd(1);
      expect(peer.statuses(1)).toEqual([400]);
      expect(events.at(-1)?.rule).toBe('route-body');
      expect(seen).toEqual([]);
    } finally {
      peer.end();
    }
  });
});

describe('routes are checked once, at construction', () => {
  test.each<[string, unknown, string]>([
    ['a path without its slash', { health: { get: () => ({}) } }, 'option "routes["health"]" must be a path'],
    [
      'a path with a query',
      { '/health?x': { get: () => ({}) } },
      'option "routes["/health?x"]" must be a path',
    ],
    [
      'a dot segment',
      { '/a/../health': { get: () => ({}) } },
      'must hold no dot segment and no empty segment',
    ],
    [
      'an empty segment',
      { '//health': { get: () => ({}) } },
      'must hold no dot segment and no empty segment',
    ],
    [
      'lower-case percent-encoding',
      { '/a%2fb': { get: () => ({}) } },
      'must percent-encode in upper-case hex',
    ],
    ['the MCP endpoint’s path', { '/mcp': { get: () => ({}) } }, 'is the MCP endpoint’s path'],
    ['a route without get', { '/health': {} }, 'option "routes["/health"].get" must be a function'],
    [
      'an unknown route option',
      { '/health': { get: () => ({}), post: () => ({}) } },
      'option "routes["/health"].post" is not a route option',
    ],
    [
      'origins of another value',
      { '/health': { get: () => ({}), origins: '*' } },
      "must be 'allowed' or 'any'",
    ],
    [
      'allowHeaders on a guarded route',
      { '/health': { get: () => ({}), allowHeaders: ['x'] } },
      "applies to origins: 'any' only",
    ],
    [
      'an allowed header that is no name',
      { '/health': { get: () => ({}), origins: 'any', allowHeaders: ['a b'] } },
      'must be a header name',
    ],
    [
      '17 paths',
      Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`/r${i}`, { get: () => ({}) }])),
      'must hold at most 16 paths',
    ],
  ])('%s throws naming the route', { tags: ['threat-model'] }, async (_what, routes, message) => {
    await expect(start(routes as NonNullable<ServeOptions['routes']>)).rejects.toThrow(message);
  });
});
