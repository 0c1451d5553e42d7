/**
 * CORS (cors.ts) through real sockets: exact request bytes in, exact header lines out, as a
 * browser's network stack would see them. One table runs against both handlers: the node handler
 * on `node:http`, and the fetch handler behind @hono/node-server, which turns the same bytes into
 * a Web Request. What only one of them can do (close the connection, HTTP/2, a Vary set by a
 * middleware in front) is tested for that one below the table. The browser itself is in
 * cors-browser.test.ts.
 */
import { once } from 'node:events';
import { connect, type IncomingHttpHeaders } from 'node:http2';
import { describe, expect, test } from 'vitest';
import { createFetchHandler } from '../../src/http/fetch/handler.js';
import { createHttpHandler, type HttpHandlerOptions } from '../../src/http/node/handler.js';
import { serve } from '../../src/http/node/serve.js';
import { createServer, defineTool, type Server } from '../../src/index.js';
import { closeAfterEach } from '../support/close-after-each.js';
import { listenFetch } from '../support/fetch-peer.js';
import {
  ADMIT_ALL,
  basicServer,
  exchange,
  LIST,
  modernRequest,
  mount,
  type Parsed,
  post,
  RawClient,
} from '../support/http-peer.js';

const closeLater = closeAfterEach();

const ORIGIN = 'http://app.example';
/** The allowed request headers of a catalog that declares no `Mcp-Param-*` header. */
const MCP_HEADERS = 'accept, content-type, authorization, mcp-protocol-version, mcp-method, mcp-name';

/** The two handlers the table runs against, each built from the same options and listening on port 0. */
const HANDLERS = [
  {
    name: 'createHttpHandler',
    build: (server: Server, options: HttpHandlerOptions): unknown => createHttpHandler(server, options),
    listen: (server: Server, options: HttpHandlerOptions) => mount(createHttpHandler(server, options)),
  },
  {
    name: 'createFetchHandler',
    build: (server: Server, options: HttpHandlerOptions): unknown => createFetchHandler(server, options),
    listen: (server: Server, options: HttpHandlerOptions) => listenFetch(createFetchHandler(server, options)),
  },
] as const;

/** The raw bytes of a browser's preflight for a POST to /mcp. */
function preflightBytes(headers: Record<string, string | undefined> = {}): string {
  const fields: Record<string, string | undefined> = {
    Host: '127.0.0.1',
    Origin: ORIGIN,
    'Access-Control-Request-Method': 'POST',
    'Access-Control-Request-Headers': 'content-type,mcp-method,mcp-protocol-version',
    ...headers,
  };
  const lines = ['OPTIONS /mcp HTTP/1.1'];
  for (const [name, value] of Object.entries(fields))
    if (value !== undefined) lines.push(`${name}: ${value}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** Every CORS-related header line of a reply (`access-control-*` and `vary`). */
function corsOf(reply: Parsed): Record<string, string> {
  return Object.fromEntries(
    Object.entries(reply.headers).filter(([name]) => name.startsWith('access-control-') || name === 'vary'),
  );
}

const ON_A_RESPONSE = {
  'access-control-allow-origin': ORIGIN,
  'access-control-expose-headers': 'www-authenticate, retry-after',
  vary: 'Origin',
};

interface RefusalCase {
  readonly name: string;
  readonly options: Partial<HttpHandlerOptions>;
  readonly bytes: () => string;
  readonly status: number;
  /** Left out for the handler that cannot see it (the fetch runtime has undone the framing). */
  readonly only?: (typeof HANDLERS)[number]['name'];
}

const REFUSAL_CASES: readonly RefusalCase[] = [
  {
    name: '401 from authorize',
    options: { authorize: () => ({ ok: false, status: 401, headers: { 'www-authenticate': 'Bearer' } }) },
    bytes: () => post(LIST.body, { ...LIST.headers, Origin: ORIGIN }),
    status: 401,
  },
  {
    name: '403 from authorize',
    options: { authorize: () => ({ ok: false }) },
    bytes: () => post(LIST.body, { ...LIST.headers, Origin: ORIGIN }),
    status: 403,
  },
  {
    name: '429 from authorize',
    options: { authorize: () => ({ ok: false, status: 429, headers: { 'retry-after': '5' } }) },
    bytes: () => post(LIST.body, { ...LIST.headers, Origin: ORIGIN }),
    status: 429,
  },
  {
    name: '415 for a Content-Type other than JSON',
    options: {},
    bytes: () => post(LIST.body, { ...LIST.headers, Origin: ORIGIN, 'Content-Type': 'text/plain' }),
    status: 415,
  },
  {
    name: '413 for a body past the cap',
    options: {},
    bytes: () => post('', { ...LIST.headers, Origin: ORIGIN, 'Content-Length': 2_000_000 }),
    status: 413,
  },
  {
    name: '405 for a GET',
    options: {},
    bytes: () => post('', { Origin: ORIGIN }, 'GET'),
    status: 405,
  },
  {
    name: '406 for an Accept without JSON',
    options: {},
    bytes: () => post(LIST.body, { ...LIST.headers, Origin: ORIGIN, Accept: 'text/html' }),
    status: 406,
  },
  {
    // Under fetch a POST without Content-Length is a body of zero bytes: 400 from the JSON reader.
    name: '411 for a POST without Content-Length',
    options: {},
    bytes: () => post('', { ...LIST.headers, Origin: ORIGIN, 'Content-Length': undefined }),
    status: 411,
    only: 'createHttpHandler',
  },
  {
    name: '408 for a body that does not arrive in time',
    options: { readTimeoutMs: 200 },
    bytes: () => post('', { ...LIST.headers, Origin: ORIGIN, 'Content-Length': 10 }),
    status: 408,
  },
  {
    name: '404 for another path',
    options: { path: '/elsewhere' },
    bytes: () => post(LIST.body, { ...LIST.headers, Origin: ORIGIN }),
    status: 404,
  },
  {
    name: '403 from authorizeBody',
    options: { authorizeBody: () => ({ ok: false }) },
    bytes: () => post(LIST.body, { ...LIST.headers, Origin: ORIGIN }),
    status: 403,
  },
  {
    name: '400 for a body that is no JSON',
    options: {},
    bytes: () => post('{"jsonrpc":', { ...LIST.headers, Origin: ORIGIN }),
    status: 400,
  },
  {
    name: '400 -32020 for a header that disagrees with the body',
    options: {},
    bytes: () => post(LIST.body, { ...LIST.headers, Origin: ORIGIN, 'Mcp-Method': 'tools/call' }),
    status: 400,
  },
  {
    // A host hook that fails is a 500 the page can still read. (A throwing onLog once reached the
    // transport's last-resort catch this way; the hooks are guarded now, so it is authorize.)
    name: '500 for an authorize that throws',
    options: {
      authorize: () => {
        throw new Error('the token service is down');
      },
    },
    bytes: () => post(LIST.body, { ...LIST.headers, Origin: ORIGIN }),
    status: 500,
  },
];

describe.each(HANDLERS)('$name', (handler) => {
  async function mountCors(
    options: Partial<HttpHandlerOptions> = {},
    server: Server = basicServer(),
  ): Promise<number> {
    const mounted = await closeLater(handler.listen(server, { ...ADMIT_ALL, cors: {}, ...options }));
    return mounted.port;
  }

  describe('CORS off (the default)', () => {
    test('a preflight from a listed origin is answered 405 with Allow: POST and no CORS header', {
      tags: ['threat-model'],
    }, async () => {
      const mounted = await closeLater(handler.listen(basicServer(), ADMIT_ALL));
      const reply = await exchange(mounted.port, preflightBytes());
      expect(reply.statusLine).toBe('HTTP/1.1 405 Method Not Allowed');
      expect(reply.headers['allow']).toBe('POST');
      expect(corsOf(reply)).toEqual({});
      reply.client.end();
    });
  });

  describe('preflights', () => {
    test('a preflight from a listed origin is answered 204 with that origin, POST, the MCP request headers and a max-age', {
      tags: ['threat-model'],
    }, async () => {
      const port = await mountCors();
      const reply = await exchange(port, preflightBytes());
      expect(reply.statusLine).toBe('HTTP/1.1 204 No Content');
      expect(corsOf(reply)).toEqual({
        ...ON_A_RESPONSE,
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers': MCP_HEADERS,
        'access-control-max-age': '600',
      });
      expect(reply.headers['content-length']).toBeUndefined();
      expect(reply.headers['connection']).not.toBe('close');
      reply.client.end();
    });

    test('the allowed request headers name every Mcp-Param-* header the catalog declares', {
      tags: ['threat-model'],
    }, async () => {
      const server = createServer({
        name: 'params',
        version: '1',
        tools: [
          defineTool({
            name: 'weather',
            inputSchema: {
              type: 'object',
              properties: {
                region: { type: 'string', 'x-mcp-header': 'Region' },
                days: { type: 'integer', 'x-mcp-header': 'Days' },
              },
            },
            handler: () => ({ content: [] }),
          }),
          defineTool({
            name: 'tenant',
            inputSchema: {
              type: 'object',
              properties: { id: { type: 'string', 'x-mcp-header': 'Tenant-Id' } },
            },
            handler: () => ({ content: [] }),
          }),
        ],
      });
      const port = await mountCors({}, server);
      const reply = await exchange(port, preflightBytes());
      expect(reply.headers['access-control-allow-headers']).toBe(
        `${MCP_HEADERS}, mcp-param-region, mcp-param-days, mcp-param-tenant-id`,
      );
      reply.client.end();
    });

    test('a preflight from an origin not on the list is refused 403 with no CORS header', {
      tags: ['threat-model'],
    }, async () => {
      const logged: unknown[] = [];
      const port = await mountCors({ onLog: (event) => logged.push(event) });
      const reply = await exchange(port, preflightBytes({ Origin: 'http://evil.example' }));
      expect(reply.statusLine).toBe('HTTP/1.1 403 Forbidden');
      expect(JSON.parse(reply.body)).toEqual({
        jsonrpc: '2.0',
        error: { code: -32600, message: 'Invalid request: Origin not allowed' },
      });
      expect(corsOf(reply)).toEqual({});
      expect(logged).toEqual([{ kind: 'refusal', rule: 'origin-not-allowed', status: 403 }]);
      reply.client.end();
    });

    test('a preflight is answered without calling authorize', { tags: ['threat-model'] }, async () => {
      let calls = 0;
      const port = await mountCors({
        authorize: () => {
          calls += 1;
          return { ok: false, status: 401 };
        },
      });
      const reply = await exchange(port, preflightBytes());
      expect(reply.status).toBe(204);
      expect(calls).toBe(0);
      reply.client.end();
    });

    test('a preflight to a Host not on the list is refused 421 with no CORS header', {
      tags: ['threat-model'],
    }, async () => {
      const port = await mountCors();
      const reply = await exchange(port, preflightBytes({ Host: 'rebound.example' }));
      expect(reply.statusLine).toBe('HTTP/1.1 421 Misdirected Request');
      expect(corsOf(reply)).toEqual({});
      reply.client.end();
    });

    test('a preflight to another path is refused 404 with the CORS headers, before the preflight is answered', async () => {
      const port = await mountCors({ path: '/elsewhere' });
      const reply = await exchange(port, preflightBytes());
      expect(reply.status).toBe(404);
      expect(corsOf(reply)).toEqual(ON_A_RESPONSE);
      reply.client.end();
    });

    test('a preflight asking for a method other than POST is refused 405, named, with Allow: POST', {
      tags: ['threat-model'],
    }, async () => {
      const logged: unknown[] = [];
      const port = await mountCors({ onLog: (event) => logged.push(event) });
      const reply = await exchange(port, preflightBytes({ 'Access-Control-Request-Method': 'PUT' }));
      expect(reply.statusLine).toBe('HTTP/1.1 405 Method Not Allowed');
      expect(reply.headers['allow']).toBe('POST');
      expect(reply.headers['access-control-allow-methods']).toBeUndefined();
      expect(JSON.parse(reply.body)).toEqual({
        jsonrpc: '2.0',
        error: { code: -32600, message: 'Invalid request: a preflight may only ask for POST' },
      });
      expect(logged).toEqual([{ kind: 'refusal', rule: 'preflight-method-not-allowed', status: 405 }]);
      reply.client.end();
    });

    test('a preflight with two Access-Control-Request-Method lines is refused 405', async () => {
      const port = await mountCors();
      const bytes = preflightBytes().replace(
        'Access-Control-Request-Method: POST\r\n',
        'Access-Control-Request-Method: POST\r\nAccess-Control-Request-Method: POST\r\n',
      );
      const reply = await exchange(port, bytes);
      expect(reply.status).toBe(405);
      expect(reply.headers['access-control-allow-methods']).toBeUndefined();
      reply.client.end();
    });

    test('an OPTIONS without Access-Control-Request-Method is no preflight: 405 as any method but POST', async () => {
      const port = await mountCors();
      const reply = await exchange(port, preflightBytes({ 'Access-Control-Request-Method': undefined }));
      expect(reply.statusLine).toBe('HTTP/1.1 405 Method Not Allowed');
      expect(reply.headers['access-control-allow-methods']).toBeUndefined();
      expect(JSON.parse(reply.body)).toEqual({
        jsonrpc: '2.0',
        error: { code: -32600, message: 'Invalid request: only POST is served here' },
      });
      reply.client.end();
    });

    test('a preflight declaring a body is answered 204 before any byte of that body is sent', async () => {
      const port = await mountCors();
      const client = new RawClient(port);
      client.send(preflightBytes({ 'Content-Length': '1000' }));
      const reply = await client.response();
      expect(reply.status).toBe(204);
      client.end();
    });

    test('maxAgeSeconds sets the preflight max-age', async () => {
      const port = await mountCors({ cors: { maxAgeSeconds: 60 } });
      const reply = await exchange(port, preflightBytes());
      expect(reply.headers['access-control-max-age']).toBe('60');
      reply.client.end();
    });

    test('allowHeaders and exposeHeaders extend the lists, lower-cased', async () => {
      const port = await mountCors({
        cors: { allowHeaders: ['X-Api-Key'], exposeHeaders: ['X-Request-Id'] },
      });
      const reply = await exchange(port, preflightBytes());
      expect(reply.headers['access-control-allow-headers']).toBe(`${MCP_HEADERS}, x-api-key`);
      expect(reply.headers['access-control-expose-headers']).toBe(
        'www-authenticate, retry-after, x-request-id',
      );
      reply.client.end();
    });
  });

  describe('CORS headers on every response to a listed origin', () => {
    test('a POST answered 200 carries Allow-Origin, Vary and Expose-Headers, and no credentials', {
      tags: ['threat-model'],
    }, async () => {
      const port = await mountCors();
      const reply = await exchange(port, post(LIST.body, { ...LIST.headers, Origin: ORIGIN }));
      expect(reply.status).toBe(200);
      expect(corsOf(reply)).toEqual(ON_A_RESPONSE);
      reply.client.end();
    });

    test('a notification answered 202 carries the CORS headers', async () => {
      const port = await mountCors();
      const body = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
      const reply = await exchange(
        port,
        post(body, { 'MCP-Protocol-Version': '2025-11-25', Origin: ORIGIN }),
      );
      expect(reply.status).toBe(202);
      expect(corsOf(reply)).toEqual(ON_A_RESPONSE);
      reply.client.end();
    });

    test.each(
      REFUSAL_CASES.filter((refusal) => refusal.only === undefined || refusal.only === handler.name).map(
        (refusal) => [refusal.name, refusal] as const,
      ),
    )('a %s carries the CORS headers', { tags: ['threat-model'] }, async (_name, refusal) => {
      const port = await mountCors(refusal.options);
      const reply = await exchange(port, refusal.bytes());
      expect(reply.status).toBe(refusal.status);
      expect(corsOf(reply)).toEqual(ON_A_RESPONSE);
      reply.client.end();
    });

    test('a -32020 refusal body is sent whole beside the CORS headers', async () => {
      const port = await mountCors();
      const reply = await exchange(
        port,
        post(LIST.body, { ...LIST.headers, Origin: ORIGIN, 'Mcp-Method': 'x' }),
      );
      expect(reply.headers['access-control-allow-origin']).toBe(ORIGIN);
      expect(JSON.parse(reply.body)).toMatchObject({ error: { code: -32020 } });
      reply.client.end();
    });

    test('an SSE answer carries the CORS headers', { tags: ['threat-model'] }, async () => {
      const progress = modernRequest(2, 'tools/call', {
        name: 'progress',
        arguments: {},
        _meta: { progressToken: 'p' },
      });
      const port = await mountCors();
      // The stream is chunked: Connection: close lets the reply be framed by the server's close.
      const reply = await exchange(
        port,
        post(progress.body, { ...progress.headers, Origin: ORIGIN, Connection: 'close' }),
      );
      expect(reply.headers['content-type']).toBe('text/event-stream');
      expect(corsOf(reply)).toEqual(ON_A_RESPONSE);
    });

    test('with credentials: true the preflight and the answer both carry Allow-Credentials', {
      tags: ['threat-model'],
    }, async () => {
      const port = await mountCors({ cors: { credentials: true } });
      const pre = await exchange(port, preflightBytes());
      expect(pre.headers['access-control-allow-credentials']).toBe('true');
      pre.client.end();
      const reply = await exchange(port, post(LIST.body, { ...LIST.headers, Origin: ORIGIN }));
      expect(reply.headers['access-control-allow-credentials']).toBe('true');
      expect(reply.headers['access-control-allow-origin']).toBe(ORIGIN);
      reply.client.end();
    });

    test('a request without Origin gets Vary: Origin and no Allow-Origin', async () => {
      const port = await mountCors();
      const reply = await exchange(port, post(LIST.body, LIST.headers));
      expect(reply.status).toBe(200);
      expect(corsOf(reply)).toEqual({ vary: 'Origin' });
      reply.client.end();
    });

    test("with allowedOrigins 'any' Allow-Origin is * and nothing varies by Origin", async () => {
      const port = await mountCors({ allowedOrigins: 'any' });
      const reply = await exchange(
        port,
        post(LIST.body, { ...LIST.headers, Origin: 'http://other.example' }),
      );
      expect(corsOf(reply)).toEqual({
        'access-control-allow-origin': '*',
        'access-control-expose-headers': 'www-authenticate, retry-after',
      });
      reply.client.end();
    });
  });

  describe('the cors option', () => {
    const make =
      (cors: unknown, extra: Partial<HttpHandlerOptions> = {}) =>
      () =>
        handler.build(basicServer(), { ...ADMIT_ALL, ...extra, cors } as HttpHandlerOptions);

    test('an unknown key is refused by name', () => {
      expect(make({ maxAge: 60 })).toThrow(/unknown option "cors\.maxAge"/);
    });

    test("credentials with allowedOrigins 'any' is refused at construction", {
      tags: ['threat-model'],
    }, () => {
      expect(make({ credentials: true }, { allowedOrigins: 'any' })).toThrow(/option "cors\.credentials"/);
    });

    test('a maxAgeSeconds past 7,200 is refused', () => {
      expect(make({ maxAgeSeconds: 7_201 })).toThrow(
        /option "cors\.maxAgeSeconds" must be an integer from 0 to 7200/,
      );
    });

    test('an allowHeaders entry that is no header name is refused', () => {
      expect(make({ allowHeaders: ['x-ok', 'bad header'] })).toThrow(/option "cors\.allowHeaders\[1\]"/);
    });

    test('cors must be an object', () => {
      expect(make(true)).toThrow(/option "cors" must be a plain object/);
    });
  });
});

describe('the node handler only', () => {
  test('a preflight declaring a body is answered 204 and the connection closed without reading it', {
    tags: ['threat-model'],
  }, async () => {
    const mounted = await closeLater(mount(createHttpHandler(basicServer(), { ...ADMIT_ALL, cors: {} })));
    const reply = await exchange(mounted.port, preflightBytes({ 'Content-Length': '1000' }));
    expect(reply.status).toBe(204);
    expect(reply.headers['connection']).toBe('close');
    await reply.client.closed;
  });

  test('a Vary set by a middleware in front is kept, with Origin added', async () => {
    const handler = createHttpHandler(basicServer(), { ...ADMIT_ALL, cors: {} });
    const mounted = await closeLater(
      mount((req, res) => {
        res.setHeader('vary', 'Accept-Encoding');
        handler(req, res);
      }),
    );
    const reply = await exchange(mounted.port, post(LIST.body, { ...LIST.headers, Origin: ORIGIN }));
    expect(reply.headers['vary']).toBe('Accept-Encoding, Origin');
    reply.client.end();
  });

  test('over HTTP/2 through serve() a preflight is answered 204 with the CORS headers', async () => {
    const { allowedHosts: _hosts, ...options } = ADMIT_ALL;
    const served = await serve(basicServer(), { ...options, cors: {} });
    try {
      const session = connect(served.url);
      session.on('error', () => {});
      const stream = session.request({
        ':method': 'OPTIONS',
        ':path': '/mcp',
        ':authority': '127.0.0.1',
        origin: ORIGIN,
        'access-control-request-method': 'POST',
      });
      stream.on('error', () => {});
      const [headers] = (await once(stream, 'response')) as [IncomingHttpHeaders];
      expect(headers[':status']).toBe(204);
      expect(headers['access-control-allow-origin']).toBe(ORIGIN);
      expect(headers['access-control-allow-headers']).toBe(MCP_HEADERS);
      session.close();
    } finally {
      await served.close();
    }
  });

  test('a preflight declaring a body is answered 204 and its stream stopped with NO_ERROR while the session goes on', {
    tags: ['threat-model'],
  }, async () => {
    const { allowedHosts: _hosts, ...options } = ADMIT_ALL;
    const served = await serve(basicServer(), { ...options, cors: {} });
    try {
      const session = connect(served.url);
      session.on('error', () => {});
      const stream = session.request(
        {
          ':method': 'OPTIONS',
          ':path': '/mcp',
          ':authority': '127.0.0.1',
          origin: ORIGIN,
          'access-control-request-method': 'POST',
          'content-length': '1000',
        },
        { endStream: false },
      );
      stream.on('error', () => {});
      stream.resume();
      const [headers] = (await once(stream, 'response')) as [IncomingHttpHeaders];
      expect(headers[':status']).toBe(204);
      await once(stream, 'close');
      expect(stream.rstCode).toBe(0);
      const again = session.request({
        ':method': 'OPTIONS',
        ':path': '/mcp',
        ':authority': '127.0.0.1',
        origin: ORIGIN,
        'access-control-request-method': 'POST',
      });
      again.on('error', () => {});
      const [second] = (await once(again, 'response')) as [IncomingHttpHeaders];
      expect(second[':status']).toBe(204);
      session.close();
    } finally {
      await served.close();
    }
  });
});
