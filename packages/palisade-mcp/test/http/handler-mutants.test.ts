/**
 * The node handler (handler.ts, exchange-steps.ts, refusals.ts) as a host and a client see it:
 * exchanges over a real socket with their exact status, headers and body, and what the host's
 * hooks receive. Written for the mutants the `http-handler` group left alive
 * (docs/mutation-testing.md).
 */
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect, createServer as createHttp2Server, type Http2Server } from 'node:http2';
import { afterEach, describe, expect, test } from 'vitest';
import {
  createHttpHandler,
  type HttpHandlerOptions,
  type HttpLogEvent,
} from '../../src/http/node/handler.js';
import { type Serving, serve } from '../../src/http/node/serve.js';
import { dataFrame, H2Peer, headersFrame, postFields } from '../support/h2-frames.js';
import {
  ADMIT_ALL,
  basicServer,
  exchange,
  type Mounted,
  modernRequest,
  mount,
  post,
  RawClient,
  recordingServer,
} from '../support/http-peer.js';

const LIST = modernRequest(1, 'tools/list');
const ORIGIN = 'http://app.example';
const INTERNAL = { jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' } };

let mounted: Mounted | undefined;
afterEach(async () => {
  await mounted?.close();
  mounted = undefined;
});

/** The node handler mounted behind `before`, which runs first as a middleware would. */
async function mountBehind(
  options: Partial<HttpHandlerOptions>,
  before: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<number> {
  const handler = createHttpHandler(basicServer(), { ...ADMIT_ALL, ...options });
  mounted = await mount((req, res) => {
    before(req, res);
    handler(req, res);
  });
  return mounted.port;
}

/** As mountBehind, for a middleware that calls the handler only once it is `done`. */
async function mountBehindAsync(
  options: Partial<HttpHandlerOptions>,
  before: (req: IncomingMessage, done: () => void) => void,
): Promise<number> {
  const handler = createHttpHandler(basicServer(), { ...ADMIT_ALL, ...options });
  mounted = await mount((req, res) => before(req, () => handler(req, res)));
  return mounted.port;
}

describe('a failure inside the transport', () => {
  test('is answered 500 with -32603 and reported to onFault with its cause', async () => {
    const faults: Array<[string, unknown]> = [];
    const broken = new Error('a body getter that throws');
    const port = await mountBehind(
      { onFault: (description, cause) => faults.push([description, cause]) },
      (req) => {
        Object.defineProperty(req, 'body', {
          get: () => {
            throw broken;
          },
        });
      },
    );
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.status).toBe(500);
    expect(reply.headers['connection']).toBe('close');
    expect(JSON.parse(reply.body)).toEqual(INTERNAL);
    expect(faults).toEqual([['the HTTP transport failed while answering', broken]]);
    reply.client.end();
  });

  test('after the response has begun, cuts the connection instead of answering again', async () => {
    const port = await mountBehind({}, (req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('begun');
      Object.defineProperty(req, 'body', {
        get: () => {
          throw new Error('a body getter that throws');
        },
      });
    });
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.status).toBe(200);
    await reply.client.closed;
    expect(reply.client.text()).not.toContain('Internal error');
  });
});

/** The raw bytes of a browser's preflight for a POST to /mcp, with these extra header lines. */
function preflightBytes(extra: readonly string[] = []): string {
  return [
    'OPTIONS /mcp HTTP/1.1',
    'Host: 127.0.0.1',
    `Origin: ${ORIGIN}`,
    'Access-Control-Request-Method: POST',
    ...extra,
    '',
    '',
  ].join('\r\n');
}

describe('a CORS preflight and the body it declares', () => {
  test('a preflight with Content-Length: 0 declares no body: answered 204 on a connection that stays open', async () => {
    mounted = await mount(createHttpHandler(basicServer(), { ...ADMIT_ALL, cors: {} }));
    const client = new RawClient(mounted.port);
    client.send(preflightBytes(['Content-Length: 0']));
    const first = await client.response();
    expect(first.status).toBe(204);
    expect(first.headers['connection']).not.toBe('close');
    client.send(preflightBytes());
    const second = await client.response();
    expect(second.status).toBe(204);
    client.end();
  });

  test('a preflight sent chunked declares a body: answered 204 and the connection closed', async () => {
    mounted = await mount(createHttpHandler(basicServer(), { ...ADMIT_ALL, cors: {} }));
    const reply = await exchange(mounted.port, preflightBytes(['Transfer-Encoding: chunked']));
    expect(reply.status).toBe(204);
    expect(reply.headers['connection']).toBe('close');
    await reply.client.closed;
  });
});

describe('the node:http2 core API (handler.stream)', () => {
  let h2: Http2Server | undefined;
  afterEach(async () => {
    if (h2 === undefined) return;
    h2.close();
    await once(h2, 'close');
    h2 = undefined;
  });

  /** A tools/list with these extra fields; the body goes only once `100 Continue` arrives. */
  async function expectingContinue(
    fields: Record<string, string>,
    { sendAtOnce = false } = {},
  ): Promise<{ status: number; invited: boolean; body: string }> {
    const handler = createHttpHandler(basicServer(), { ...ADMIT_ALL, readTimeoutMs: 1_000 });
    h2 = createHttp2Server();
    h2.on('stream', handler.stream);
    h2.listen(0, '127.0.0.1');
    await once(h2, 'listening');
    const address = h2.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    const session = connect(`http://127.0.0.1:${address.port}`);
    session.on('error', () => {});
    try {
      return await new Promise((resolve) => {
        const stream = session.request({
          ':method': 'POST',
          ':path': '/mcp',
          ':authority': '127.0.0.1',
          'content-type': 'application/json',
          accept: 'application/json',
          ...(LIST.headers as Record<string, string>),
          ...fields,
        });
        let status = 0;
        let invited = false;
        const chunks: Buffer[] = [];
        stream.on('continue', () => {
          invited = true;
          if (!sendAtOnce) stream.end(LIST.body);
        });
        stream.on('response', (headers) => {
          status = Number(headers[':status']);
        });
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('error', () => {});
        stream.on('close', () => resolve({ status, invited, body: Buffer.concat(chunks).toString('utf8') }));
        if (sendAtOnce) stream.end(LIST.body);
      });
    } finally {
      session.close();
    }
  }

  test('an Expect of 100-Continue in another letter case is invited, then answered', async () => {
    const reply = await expectingContinue({ expect: '100-Continue' });
    expect(reply).toMatchObject({ status: 200, invited: true });
    expect(JSON.parse(reply.body)).toMatchObject({ id: 1, result: { tools: expect.any(Array) } });
  });

  test('an Expect of 100-continue followed by a no-break space is not invited: the body sent at once is answered', async () => {
    // Only spaces and tabs are trimmed from a field (RFC 9110 §5.5), not U+00A0 as String#trim does.
    const reply = await expectingContinue({ expect: '100-continue\u00a0' }, { sendAtOnce: true });
    expect(reply).toMatchObject({ status: 200, invited: false });
  });

  test('an Expect of anything but 100-continue is not invited: the body sent at once is answered', async () => {
    const reply = await expectingContinue({ expect: 'x-other' }, { sendAtOnce: true });
    expect(reply).toMatchObject({ status: 200, invited: false });
  });
});

describe('what onLog receives for a refusal', () => {
  test('a refusal with no reason is logged without a reason key', async () => {
    const events: HttpLogEvent[] = [];
    mounted = await mount(
      createHttpHandler(basicServer(), { ...ADMIT_ALL, onLog: (event) => events.push(event) }),
    );
    const reply = await exchange(mounted.port, post(LIST.body, LIST.headers, 'PUT'));
    expect(reply.status).toBe(405);
    expect(events).toStrictEqual([{ kind: 'refusal', rule: 'method-not-allowed', status: 405 }]);
    expect(Object.keys(events[0] ?? {})).toEqual(['kind', 'rule', 'status']);
    reply.client.end();
  });

  test('an authorizeBody still pending at the read deadline is logged as authorize-body, saying it did not settle', async () => {
    const events: HttpLogEvent[] = [];
    mounted = await mount(
      createHttpHandler(basicServer(), {
        ...ADMIT_ALL,
        authorizeBody: () => new Promise(() => {}),
        readTimeoutMs: 300,
        onLog: (event) => events.push(event),
      }),
    );
    const reply = await exchange(mounted.port, post(LIST.body, LIST.headers));
    expect(reply.status).toBe(403);
    expect(events).toStrictEqual([
      { kind: 'refusal', rule: 'authorize-body', status: 403, reason: 'authorizeBody did not settle' },
    ]);
    reply.client.end();
  });
});

describe('a body taken before the handler saw it', () => {
  const CONSUMED =
    'the request body was consumed before palisade saw it: mount palisade before any body parser';

  test('a stream read to its end with no req.body left behind is answered 500 and reported', async () => {
    const faults: string[] = [];
    // A raw-body reader that keeps the bytes under a name of its own.
    const port = await mountBehindAsync(
      { onFault: (description) => faults.push(description), readTimeoutMs: 1_000 },
      (req, done) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          Object.assign(req, { rawBody: Buffer.concat(chunks) });
          done();
        });
      },
    );
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.status).toBe(500);
    expect(JSON.parse(reply.body)).toEqual(INTERNAL);
    expect(faults).toEqual([CONSUMED]);
    reply.client.end();
  });

  test('a req.body set by a parser that left the stream unread is answered 500 and reported', async () => {
    const faults: string[] = [];
    // What a JSON body parser does to a request it skips: sets req.body to {} and reads nothing.
    const events: HttpLogEvent[] = [];
    const hooks = {
      onFault: (description: string) => faults.push(description),
      onLog: (event: HttpLogEvent) => events.push(event),
    };
    const port = await mountBehind(hooks, (req) => {
      Object.assign(req, { body: {} });
    });
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.status).toBe(500);
    expect(JSON.parse(reply.body)).toEqual(INTERNAL);
    expect(faults).toEqual([CONSUMED]);
    expect(events).toEqual([{ kind: 'refusal', rule: 'body-already-read', status: 500 }]);
    reply.client.end();
  });
});

describe('100 Continue is sent only to a caller that asked', () => {
  test('with checkContinue, a request without Expect gets its answer and no 100 Continue', async () => {
    const handler = createHttpHandler(basicServer(), ADMIT_ALL);
    mounted = await mount(handler, (server) => server.on('checkContinue', handler.checkContinue));
    const reply = await exchange(mounted.port, post(LIST.body, LIST.headers));
    expect(reply.status).toBe(200);
    expect(reply.client.text().startsWith('HTTP/1.1 200 OK\r\n')).toBe(true);
    reply.client.end();
  });
});

describe('a late refusal keeps the connection', () => {
  test('an authorizeBody that throws is answered 500 on a connection that stays open', async () => {
    let calls = 0;
    mounted = await mount(
      createHttpHandler(basicServer(), {
        ...ADMIT_ALL,
        authorizeBody: () => {
          calls += 1;
          if (calls === 1) throw new Error('signature store offline');
          return { ok: true };
        },
      }),
    );
    const client = new RawClient(mounted.port);
    client.send(post(LIST.body, LIST.headers));
    const first = await client.response();
    expect(first.status).toBe(500);
    expect(first.headers['connection']).not.toBe('close');
    client.send(post(LIST.body, LIST.headers));
    expect((await client.response()).status).toBe(200);
    client.end();
  });
});

interface RefusalCase {
  readonly bytes: string;
  readonly options?: Partial<HttpHandlerOptions>;
  readonly status: number;
  readonly rule: string;
  readonly code?: number;
  readonly message: string;
  /** The `reason` onLog is given, when the refusal has one. */
  readonly reason?: string;
}

const WITH_BODY = post(LIST.body, LIST.headers);

describe('every refusal, as the client and the host log see it', () => {
  test.each<[string, RefusalCase]>([
    [
      'two Host lines',
      {
        bytes: post(LIST.body, { ...LIST.headers, Host: ['127.0.0.1', '127.0.0.1'] }),
        status: 400,
        rule: 'host-repeated',
        message: 'Invalid request: more than one Host header',
      },
    ],
    [
      'an absolute-form target naming another host',
      {
        bytes: WITH_BODY.replace('POST /mcp ', 'POST http://localhost/mcp '),
        status: 400,
        rule: 'host-target-mismatch',
        message: 'Invalid request: Host disagrees with the request target',
      },
    ],
    [
      'a Host not listed',
      {
        bytes: post(LIST.body, { ...LIST.headers, Host: 'evil.example' }),
        status: 421,
        rule: 'host-not-allowed',
        message: 'Invalid request: Host not allowed',
        reason: 'Host "evil.example" is not in allowedHosts',
      },
    ],
    [
      'an Origin not listed',
      {
        bytes: post(LIST.body, { ...LIST.headers, Origin: 'http://evil.example' }),
        status: 403,
        rule: 'origin-not-allowed',
        message: 'Invalid request: Origin not allowed',
      },
    ],
    [
      'a request line claiming HTTP/2.0',
      {
        bytes: WITH_BODY.replace('POST /mcp HTTP/1.1', 'POST /mcp HTTP/2.0'),
        status: 505,
        rule: 'http-version',
        message: 'Invalid request: HTTP version not supported',
      },
    ],
    [
      'another path than the one set',
      {
        bytes: WITH_BODY.replace('POST /mcp ', 'POST /other '),
        options: { path: '/mcp' },
        status: 404,
        rule: 'path-not-found',
        message: 'Invalid request: no MCP endpoint at this path',
      },
    ],
    [
      'a PUT',
      {
        bytes: post(LIST.body, LIST.headers, 'PUT'),
        status: 405,
        rule: 'method-not-allowed',
        message: 'Invalid request: only POST is served here',
      },
    ],
    [
      'an authorize refusal naming 429',
      {
        bytes: WITH_BODY,
        options: { authorize: () => ({ ok: false, status: 429 }) },
        status: 429,
        rule: 'authorize',
        message: 'Too many requests',
      },
    ],
    [
      'an authorize that throws',
      {
        bytes: WITH_BODY,
        options: {
          authorize: () => {
            throw new Error('token store offline');
          },
        },
        status: 500,
        rule: 'authorize-fault',
        code: -32603,
        message: 'Internal error',
      },
    ],
    [
      'an Accept without JSON',
      {
        bytes: post(LIST.body, { ...LIST.headers, Accept: 'text/html' }),
        status: 406,
        rule: 'not-acceptable',
        message: 'Invalid request: Accept must admit application/json',
      },
    ],
    [
      'a Content-Type that is not JSON',
      {
        bytes: post(LIST.body, { ...LIST.headers, 'Content-Type': 'text/plain' }),
        status: 415,
        rule: 'unsupported-media-type',
        message: 'Invalid request: Content-Type must be application/json',
      },
    ],
    [
      'a chunked body',
      {
        bytes: post('', { ...LIST.headers, 'Content-Length': undefined, 'Transfer-Encoding': 'chunked' }),
        status: 411,
        rule: 'length-required',
        message: 'Invalid request: Transfer-Encoding is not accepted; send Content-Length',
      },
    ],
    [
      'no Content-Length',
      {
        bytes: post('', { ...LIST.headers, 'Content-Length': undefined }),
        status: 411,
        rule: 'length-required',
        message: 'Invalid request: Content-Length is required',
      },
    ],
    [
      'a Content-Length past 1 MiB',
      {
        bytes: post('', { ...LIST.headers, 'Content-Length': 1_048_577 }),
        status: 413,
        rule: 'too-large',
        message: 'Invalid request: message exceeds 1048576 bytes',
      },
    ],
    [
      'a body that stops arriving',
      {
        bytes: WITH_BODY.slice(0, WITH_BODY.length - 10),
        options: { readTimeoutMs: 300 },
        status: 408,
        rule: 'read-timeout',
        message: 'Invalid request: the body did not arrive within the read deadline',
      },
    ],
    [
      'an authorizeBody that throws',
      {
        bytes: WITH_BODY,
        options: {
          authorizeBody: () => {
            throw new Error('signature store offline');
          },
        },
        status: 500,
        rule: 'authorize-body-fault',
        code: -32603,
        message: 'Internal error',
      },
    ],
    [
      'an authorize refusal naming 401',
      {
        bytes: WITH_BODY,
        options: { authorize: () => ({ ok: false, status: 401 }) },
        status: 401,
        rule: 'authorize',
        message: 'Unauthorized',
      },
    ],
    [
      'an authorize still pending at the read deadline',
      {
        bytes: WITH_BODY,
        options: { authorize: () => new Promise(() => {}), readTimeoutMs: 300 },
        status: 403,
        rule: 'authorize-timeout',
        message: 'Forbidden',
      },
    ],
    [
      'a preflight asking for PUT',
      {
        bytes: preflightBytes().replace(
          'Access-Control-Request-Method: POST',
          'Access-Control-Request-Method: PUT',
        ),
        options: { cors: {} },
        status: 405,
        rule: 'preflight-method-not-allowed',
        message: 'Invalid request: a preflight may only ask for POST',
      },
    ],
  ])('%s is answered with its status and message and logged by its rule', async (_name, refused) => {
    const events: HttpLogEvent[] = [];
    mounted = await mount(
      createHttpHandler(basicServer(), {
        ...ADMIT_ALL,
        ...refused.options,
        onLog: (event) => events.push(event),
      }),
    );
    const reply = await exchange(mounted.port, refused.bytes);
    expect(reply.status).toBe(refused.status);
    expect(JSON.parse(reply.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: refused.code ?? -32600, message: refused.message },
    });
    expect(events).toEqual([
      refused.reason !== undefined
        ? { kind: 'refusal', rule: refused.rule, status: refused.status, reason: refused.reason }
        : refused.rule === 'authorize-timeout'
          ? {
              kind: 'refusal',
              rule: refused.rule,
              status: refused.status,
              reason: 'authorize did not settle before the read deadline',
            }
          : { kind: 'refusal', rule: refused.rule, status: refused.status },
    ]);
    reply.client.end();
  });
});

test('over HTTP/2 a host field naming another authority is answered 400 and logged as host-authority-mismatch', async () => {
  const events: HttpLogEvent[] = [];
  const served: Serving = await serve(basicServer(), { ...ADMIT_ALL, onLog: (event) => events.push(event) });
  try {
    const peer = new H2Peer(served.port);
    await peer.ready();
    const fields = postFields([
      ['host', 'localhost'],
      ...Object.entries(LIST.headers).map(([name, value]): [string, string] => [
        name.toLowerCase(),
        String(value),
      ]),
    ]);
    peer.send(headersFrame(1, fields));
    peer.send(dataFrame(1, Buffer.from(LIST.body), { endStream: true }));
    await peer.streamEnd(1);
    peer.end();
    expect(peer.statuses(1)).toEqual([400]);
    expect(JSON.parse(peer.body(1))).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid request: Host disagrees with :authority' },
    });
    expect(events).toEqual([{ kind: 'refusal', rule: 'host-authority-mismatch', status: 400 }]);
  } finally {
    await served.close();
  }
});

test('on the HTTP/2 core API a CONNECT, which has no path, is answered 404 by a handler serving one path', async () => {
  const handler = createHttpHandler(basicServer(), { ...ADMIT_ALL, path: '/mcp' });
  const h2 = createHttp2Server();
  h2.on('stream', handler.stream);
  h2.listen(0, '127.0.0.1');
  await once(h2, 'listening');
  const address = h2.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  try {
    const peer = new H2Peer(address.port);
    await peer.ready();
    peer.send(
      headersFrame(1, [
        [':method', 'CONNECT'],
        [':authority', '127.0.0.1'],
      ]),
    );
    await peer.streamEnd(1);
    peer.end();
    expect(peer.statuses(1)).toEqual([404]);
  } finally {
    h2.close();
    await once(h2, 'close');
  }
});

describe('a client that leaves while an asynchronous authorizeBody judges its body', () => {
  test('has its tool never run', async () => {
    const { server, calls } = recordingServer();
    let judged: () => void = () => {};
    const judging = new Promise<void>((resolve) => {
      judged = resolve;
    });
    let leave: () => void = () => {};
    const left = new Promise<void>((resolve) => {
      leave = resolve;
    });
    const handler = createHttpHandler(server, {
      ...ADMIT_ALL,
      // Admits only once the client has gone.
      authorizeBody: async () => {
        judged();
        await left;
        return { ok: true };
      },
    });
    mounted = await mount((req, res) => {
      req.once('close', () => setTimeout(leave, 20));
      handler(req, res);
    });
    const call = modernRequest(1, 'tools/call', { name: 'record', arguments: {} });
    const client = new RawClient(mounted.port);
    client.send(post(call.body, call.headers));
    await judging;
    client.end();
    await left;
    // Given a turn of the loop, a tool dispatched after the client left would have run by now.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toEqual([]);
  });
});
