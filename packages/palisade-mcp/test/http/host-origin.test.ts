/**
 * The Host, Origin and CORS rules (host-origin.ts, node/host-allow-list.ts, cors.ts) as a host and a
 * client see them: refusals at construction with their exact code and message, and exchanges over
 * a real socket with their exact status and headers.
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, test } from 'vitest';
import { createFetchHandler } from '../../src/http/fetch/handler.js';
import { createHttpHandler, type HttpHandlerOptions } from '../../src/http/node/handler.js';
import { hostAllowList } from '../../src/http/node/host-allow-list.js';
import { type ServeOptions, serve } from '../../src/http/node/serve.js';
import { createServer, type Server } from '../../src/index.js';
import { closeAfterEach } from '../support/close-after-each.js';
import { listenFetch } from '../support/fetch-peer.js';
import { dataFrame, H2Peer, headersFrame } from '../support/h2-frames.js';
import { ADMIT_ALL, basicServer, exchange, LIST, mount, post } from '../support/http-peer.js';

const closeLater = closeAfterEach();

const ORIGIN = 'http://app.example';
const INVALID = 'PALISADE_ERR_INVALID_OPTION';
const HOST_NOT_ALLOWED = {
  jsonrpc: '2.0',
  error: { code: -32600, message: 'Invalid request: Host not allowed' },
};
/** The allowed request headers of a catalog that declares no `Mcp-Param-*` header. */
const MCP_HEADERS = 'accept, content-type, authorization, mcp-protocol-version, mcp-method, mcp-name';

/** What `build` throws, as `{ code, message }`; 'built' when it does not. */
function refusal(build: () => unknown): unknown {
  try {
    build();
    return 'built';
  } catch (error) {
    return { code: (error as { code?: unknown }).code, message: (error as Error).message };
  }
}

/** The node handler with CORS on, mounted; `before` runs ahead of it as a middleware would. */
async function mountCors(
  options: Partial<HttpHandlerOptions> = {},
  before: (res: ServerResponse) => void = () => {},
  server: Server = basicServer(),
): Promise<number> {
  const handler = createHttpHandler(server, { ...ADMIT_ALL, cors: {}, ...options });
  const mounted = await closeLater(
    mount((req, res) => {
      before(res);
      handler(req, res);
    }),
  );
  return mounted.port;
}

/** The raw bytes of a browser's preflight for a POST to /mcp. */
function preflightBytes(): string {
  return [
    'OPTIONS /mcp HTTP/1.1',
    'Host: 127.0.0.1',
    `Origin: ${ORIGIN}`,
    'Access-Control-Request-Method: POST',
    '',
    '',
  ].join('\r\n');
}

/**
 * The status of a tools/list sent over HTTP/2 (prior knowledge) to `serve()` with these request
 * fields beside the method, scheme and path: frames written by hand, so `:authority` and `host`
 * are exactly the ones given, or absent.
 */
async function h2Status(
  fields: ReadonlyArray<readonly [string, string]>,
  options: Partial<ServeOptions> = {},
): Promise<number[]> {
  const served = await closeLater(serve(basicServer(), { ...ADMIT_ALL, ...options }));
  const peer = new H2Peer(served.port);
  await peer.ready();
  const headers: Array<readonly [string, string]> = [
    [':method', 'POST'],
    [':scheme', 'http'],
    [':path', '/mcp'],
    ...fields,
    ['content-type', 'application/json'],
    ['accept', 'application/json, text/event-stream'],
    ...Object.entries(LIST.headers).map(([name, value]) => [name.toLowerCase(), String(value)] as const),
  ];
  peer.send(headersFrame(1, headers));
  peer.send(dataFrame(1, Buffer.from(LIST.body), { endStream: true }));
  await peer.streamEnd(1);
  peer.end();
  return peer.statuses(1);
}

describe('hostAllowList options, refused with their exact code and message', () => {
  test('options that are not a plain object are refused naming the hostAllowList options', () => {
    expect(refusal(() => hostAllowList(null as never))).toEqual({
      code: INVALID,
      message: 'option "hostAllowList options" must be a plain object',
    });
  });

  test("allowedHosts: 'any' is refused as a list that would admit every Host", () => {
    expect(refusal(() => hostAllowList({ allowedHosts: 'any' } as never))).toEqual({
      code: INVALID,
      message: 'option "allowedHosts" must list host names: \'any\' would admit every Host',
    });
  });

  test('options without allowedHosts admit the loopback names', async () => {
    const guard = hostAllowList({});
    const mounted = await closeLater(mount((req, res) => guard(req, res, () => res.end('app'))));
    const reply = await exchange(mounted.port, 'GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(reply.status).toBe(200);
    expect(reply.body).toBe('app');
    reply.client.end();
  });
});

describe('the Host rule', () => {
  test('an HTTP/1.0 request without Host is refused 421 when a list of hosts is set', {
    tags: ['threat-model'],
  }, async () => {
    // Node itself answers 400 to an HTTP/1.1 request without Host; an HTTP/1.0 one reaches us.
    const mounted = await closeLater(mount(createHttpHandler(basicServer(), ADMIT_ALL)));
    const bytes = post(LIST.body, LIST.headers).replace('HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'HTTP/1.0\r\n');
    const reply = await exchange(mounted.port, bytes);
    expect(reply.status).toBe(421);
    expect(JSON.parse(reply.body)).toEqual(HOST_NOT_ALLOWED);
    reply.client.end();
  });

  test('a bracketed IPv6 Host without a port is read as its address and served', async () => {
    const mounted = await closeLater(mount(createHttpHandler(basicServer(), ADMIT_ALL)));
    const reply = await exchange(mounted.port, post(LIST.body, { ...LIST.headers, Host: '[::1]' }));
    expect(reply.status).toBe(200);
    reply.client.end();
  });

  test('an unbracketed IPv6 Host is compared whole, so ::1 is served when ::1 is listed', async () => {
    // Two colons or more cannot be name:port; read as one, it is the listed address.
    const mounted = await closeLater(mount(createHttpHandler(basicServer(), ADMIT_ALL)));
    const reply = await exchange(mounted.port, post(LIST.body, { ...LIST.headers, Host: '::1' }));
    expect(reply.status).toBe(200);
    reply.client.end();
  });

  test("with allowedHosts 'any' an HTTP/1.0 absolute-form request without Host is served", async () => {
    // The target names the host (RFC 9112 §3.2.2) and no Host line is there to disagree with it.
    const mounted = await closeLater(
      mount(createHttpHandler(basicServer(), { ...ADMIT_ALL, allowedHosts: 'any' })),
    );
    const bytes = post(LIST.body, LIST.headers).replace(
      'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n',
      'POST http://127.0.0.1/mcp HTTP/1.0\r\n',
    );
    const reply = await exchange(mounted.port, bytes);
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({ id: 1, result: { tools: expect.any(Array) } });
    reply.client.end();
  });

  test('an absolute-form target with an unclosed bracket is refused 400 beside a Host naming another', {
    tags: ['threat-model'],
  }, async () => {
    // A bracket never closed is no address: each name is read whole, and the two differ.
    const mounted = await closeLater(mount(createHttpHandler(basicServer(), ADMIT_ALL)));
    const bytes = post(LIST.body, { ...LIST.headers, Host: '[::2' }).replace(
      'POST /mcp ',
      'POST http://[::1/mcp ',
    );
    const reply = await exchange(mounted.port, bytes);
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid request: Host disagrees with the request target' },
    });
    reply.client.end();
  });

  test('a Host and an absolute-form target that both carry text after the name are refused 400: a target naming no host agrees with none', async () => {
    // Neither reads as a name, each through another way of adding text after one. Two unreadable
    // names once agreed (both read as ''), and this request was then 421 under a list and served
    // under 'any'; a target naming no host now disagrees with every Host line.
    const mounted = await closeLater(mount(createHttpHandler(basicServer(), ADMIT_ALL)));
    const bytes = post(LIST.body, { ...LIST.headers, Host: '[::1]evil.example' }).replace(
      'POST /mcp ',
      'POST http://localhost:evil.example/mcp ',
    );
    const reply = await exchange(mounted.port, bytes);
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid request: Host disagrees with the request target' },
    });
    reply.client.end();
  });
});

describe('the Host rule over HTTP/2', () => {
  test('a request with a host field and no :authority is judged by that host and served', async () => {
    expect(await h2Status([['host', 'localhost']])).toEqual([200]);
  });

  test('a host field naming the :authority in another letter case is no disagreement and is served', async () => {
    expect(
      await h2Status([
        [':authority', 'LocalHost'],
        ['host', 'localhost'],
      ]),
    ).toEqual([200]);
  });

  test("with allowedHosts 'any' an :authority named nowhere is served", async () => {
    expect(await h2Status([[':authority', 'anything.example']], { allowedHosts: 'any' })).toEqual([200]);
  });
});

describe('the cors option, refused with its exact code and message', () => {
  const build = (cors: unknown, extra: Partial<HttpHandlerOptions> = {}) =>
    refusal(() => createHttpHandler(basicServer(), { ...ADMIT_ALL, ...extra, cors } as HttpHandlerOptions));

  test('credentials that are not a boolean are refused naming cors.credentials', () => {
    expect(build({ credentials: 'true' })).toEqual({
      code: INVALID,
      message: 'option "cors.credentials" must be a boolean',
    });
  });

  test("credentials with allowedOrigins 'any' is refused saying every site could use them", () => {
    expect(build({ credentials: true }, { allowedOrigins: 'any' })).toEqual({
      code: INVALID,
      message:
        "option \"cors.credentials\" cannot be true with allowedOrigins 'any': every site could call with the user's credentials",
    });
  });

  test('an allowHeaders entry that is not a string is refused by its index as no header name', () => {
    expect(build({ allowHeaders: [42] })).toEqual({
      code: INVALID,
      message: 'option "cors.allowHeaders[0]" must be a header name (an RFC 9110 token)',
    });
  });

  test('an exposeHeaders entry that is no header name is refused by its index', () => {
    expect(build({ exposeHeaders: ['x-ok', 'bad header'] })).toEqual({
      code: INVALID,
      message: 'option "cors.exposeHeaders[1]" must be a header name (an RFC 9110 token)',
    });
  });
});

describe('CORS answers', () => {
  test('a server with no tools answers a preflight with the MCP request headers alone', async () => {
    const port = await mountCors({}, () => {}, createServer({ name: 'no-tools', version: '1' }));
    const reply = await exchange(port, preflightBytes());
    expect(reply.status).toBe(204);
    expect(reply.headers['access-control-allow-headers']).toBe(MCP_HEADERS);
    reply.client.end();
  });

  describe.each([
    ['createHttpHandler', (options: HttpHandlerOptions) => mount(createHttpHandler(basicServer(), options))],
    [
      'createFetchHandler',
      (options: HttpHandlerOptions) => listenFetch(createFetchHandler(basicServer(), options)),
    ],
  ] as const)('%s', (_name, listen) => {
    test('a POST from a listed origin that carries Access-Control-Request-Method is served as a POST', {
      tags: ['threat-model'],
    }, async () => {
      const mounted = await closeLater(listen({ ...ADMIT_ALL, cors: {} }));
      const reply = await exchange(
        mounted.port,
        post(LIST.body, { ...LIST.headers, Origin: ORIGIN, 'Access-Control-Request-Method': 'POST' }),
      );
      expect(reply.status).toBe(200);
      expect(reply.headers['access-control-allow-methods']).toBeUndefined();
      expect(JSON.parse(reply.body)).toMatchObject({
        jsonrpc: '2.0',
        id: 1,
        result: { tools: expect.any(Array) },
      });
      reply.client.end();
    });
  });
});

describe('Vary set by a middleware in front of the node handler', () => {
  async function varyAfter(set: string | string[]): Promise<string | undefined> {
    const port = await mountCors({}, (res) => res.setHeader('vary', set));
    const reply = await exchange(port, post(LIST.body, { ...LIST.headers, Origin: ORIGIN }));
    reply.client.end();
    return reply.headers['vary'];
  }

  test('a Vary set as several values keeps each of them, with Origin added', async () => {
    // `setHeader` with an array is how a middleware sets one Vary per name; getHeader returns it so.
    expect(await varyAfter(['Accept-Encoding', 'Cookie'])).toBe('Accept-Encoding, Cookie, Origin');
  });

  test('the names of a Vary spaced unevenly are kept, one space apart, with Origin added', async () => {
    expect(await varyAfter('Accept-Encoding,  Cookie')).toBe('Accept-Encoding, Cookie, Origin');
  });

  test('a Vary that already names Origin, in any case, is kept without a second Origin', async () => {
    expect(await varyAfter('Accept-Encoding, origin')).toBe('Accept-Encoding, origin');
  });

  test('a Vary of * is kept as it is: it already varies by everything', async () => {
    expect(await varyAfter('*')).toBe('*');
  });
});

// Node reads header bytes as latin1, so byte 0xA0 arrives as U+00A0, which `String.prototype.trim`
// drops; HTTP's whitespace around a field value is spaces and tabs only.
describe('a no-break space is part of the value it touches', () => {
  const latin1 = (text: string): Buffer => Buffer.from(text, 'latin1');

  test('a Host of a listed name followed by a no-break space is refused 421', {
    tags: ['threat-model'],
  }, async () => {
    const mounted = await closeLater(mount(createHttpHandler(basicServer(), ADMIT_ALL)));
    const reply = await exchange(
      mounted.port,
      latin1(post(LIST.body, { ...LIST.headers, Host: '127.0.0.1\u00a0' })),
    );
    expect(reply.status).toBe(421);
  });

  test('an Origin of a listed origin followed by a no-break space is refused 403', {
    tags: ['threat-model'],
  }, async () => {
    const mounted = await closeLater(mount(createHttpHandler(basicServer(), { ...ADMIT_ALL, cors: {} })));
    const reply = await exchange(
      mounted.port,
      latin1(post(LIST.body, { ...LIST.headers, Origin: `${ORIGIN}\u00a0` })),
    );
    expect(reply.status).toBe(403);
    expect(reply.headers['access-control-allow-origin']).toBeUndefined();
  });

  test('a preflight asking for POST followed by a no-break space is refused 405', async () => {
    const mounted = await closeLater(mount(createHttpHandler(basicServer(), { ...ADMIT_ALL, cors: {} })));
    const reply = await exchange(
      mounted.port,
      latin1(
        `OPTIONS /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${ORIGIN}\r\nAccess-Control-Request-Method: POST\u00a0\r\n\r\n`,
      ),
    );
    expect(reply.status).toBe(405);
    expect(reply.headers['allow']).toBe('POST');
  });
});

// A target naming no readable host is refused whatever the Host line says, so the tests above do
// not tell apart the ways hostName reads a name: these pair each target with a Host that a
// misreading would take for the same name.
describe("an absolute-form target beside a Host line, with allowedHosts 'any'", () => {
  const HOST_TARGET = {
    jsonrpc: '2.0',
    error: { code: -32600, message: 'Invalid request: Host disagrees with the request target' },
  };

  /** The reply to a tools/list whose request line names `target`, beside `Host: host`. */
  async function absolute(target: string, host: string) {
    const mounted = await closeLater(
      mount(createHttpHandler(basicServer(), { ...ADMIT_ALL, allowedHosts: 'any' })),
    );
    const bytes = post(LIST.body, { ...LIST.headers, Host: host }).replace('POST /mcp ', `POST ${target} `);
    return exchange(mounted.port, bytes);
  }

  test('a target and a Host that each add other text after a bracketed address are refused 400', async () => {
    // Neither is a name; were both read as the same stand-in, they would agree and be served.
    const reply = await absolute('http://[::1]evil.example/mcp', '[::1]other.example');
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toEqual(HOST_TARGET);
    reply.client.end();
  });

  test('a target and a Host that each add other text after a name and a colon are refused 400', async () => {
    const reply = await absolute('http://localhost:evil.example/mcp', 'localhost:other.example');
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toEqual(HOST_TARGET);
    reply.client.end();
  });

  test('a target and a Host with the same unclosed bracket are each read whole, agree, and are served', async () => {
    // An unclosed bracket is compared as it is written (hostName); it is not the '' of a name
    // followed by other text, which would disagree with every Host line.
    const reply = await absolute('http://[::1/mcp', '[::1');
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({ id: 1, result: { tools: expect.any(Array) } });
    reply.client.end();
  });
});

describe.each([
  ['createHttpHandler', (options: HttpHandlerOptions) => mount(createHttpHandler(basicServer(), options))],
  [
    'createFetchHandler',
    (options: HttpHandlerOptions) => listenFetch(createFetchHandler(basicServer(), options)),
  ],
] as const)('%s with cors on', (_name, listen) => {
  test('an OPTIONS request without Origin is no preflight, even asking for POST, and is refused 405', async () => {
    // Only a page sends a preflight, and a page always sends Origin: without one this is a plain
    // OPTIONS request, refused by the method rule, not by the Origin rule's 403.
    const mounted = await closeLater(listen({ ...ADMIT_ALL, cors: {} }));
    const reply = await exchange(
      mounted.port,
      'OPTIONS /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccess-Control-Request-Method: POST\r\n\r\n',
    );
    expect(reply.status).toBe(405);
    expect(reply.headers['allow']).toBe('POST');
    expect(reply.headers['access-control-allow-origin']).toBeUndefined();
    expect(JSON.parse(reply.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid request: only POST is served here' },
    });
    reply.client.end();
  });
});
