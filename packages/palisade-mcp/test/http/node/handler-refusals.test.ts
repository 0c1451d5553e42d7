/**
 * Every refusal of the node handler as the client and the host's log see it: the status, headers
 * and exact body on the wire, the onLog record with its rule, status and reason (never sent to the
 * client), a late refusal that keeps the connection, and a client leaving while authorizeBody
 * judges its body, whose tool never runs.
 */
import { describe, expect, test } from 'vitest';
import {
  createHttpHandler,
  type HttpHandlerOptions,
  type HttpLogEvent,
} from '../../../src/http/node/handler.js';
import { type Serving, serve } from '../../../src/http/node/serve.js';
import { closeAfterEach } from '../../support/close-after-each.js';
import { dataFrame, H2Peer, headersFrame, postFields } from '../../support/h2-frames.js';
import {
  ADMIT_ALL,
  basicServer,
  exchange,
  LIST,
  modernRequest,
  mount,
  post,
  RawClient,
  recordingServer,
} from '../../support/http-peer.js';

const closeLater = closeAfterEach();

const ORIGIN = 'http://app.example';

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

describe('what onLog receives for a refusal', () => {
  test('a refusal with no reason is logged without a reason key', async () => {
    const events: HttpLogEvent[] = [];
    const mounted = await closeLater(
      mount(createHttpHandler(basicServer(), { ...ADMIT_ALL, onLog: (event) => events.push(event) })),
    );
    const reply = await exchange(mounted.port, post(LIST.body, LIST.headers, 'PUT'));
    expect(reply.status).toBe(405);
    expect(events).toStrictEqual([{ kind: 'refusal', rule: 'method-not-allowed', status: 405 }]);
    expect(Object.keys(events[0] ?? {})).toEqual(['kind', 'rule', 'status']);
    reply.client.end();
  });

  test('an authorizeBody still pending at the read deadline is logged as authorize-body, saying it did not settle', async () => {
    const events: HttpLogEvent[] = [];
    const mounted = await closeLater(
      mount(
        createHttpHandler(basicServer(), {
          ...ADMIT_ALL,
          authorizeBody: () => new Promise(() => {}),
          readTimeoutMs: 300,
          onLog: (event) => events.push(event),
        }),
      ),
    );
    const reply = await exchange(mounted.port, post(LIST.body, LIST.headers));
    expect(reply.status).toBe(403);
    expect(events).toStrictEqual([
      { kind: 'refusal', rule: 'authorize-body', status: 403, reason: 'authorizeBody did not settle' },
    ]);
    reply.client.end();
  });
});

describe('a late refusal keeps the connection', () => {
  test('an authorizeBody that throws is answered 500 on a connection that stays open', async () => {
    let calls = 0;
    const mounted = await closeLater(
      mount(
        createHttpHandler(basicServer(), {
          ...ADMIT_ALL,
          authorizeBody: () => {
            calls += 1;
            if (calls === 1) throw new Error('signature store offline');
            return { ok: true };
          },
        }),
      ),
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
    const mounted = await closeLater(
      mount(
        createHttpHandler(basicServer(), {
          ...ADMIT_ALL,
          ...refused.options,
          onLog: (event) => events.push(event),
        }),
      ),
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
    const mounted = await closeLater(
      mount((req, res) => {
        req.socket.once('close', () => setTimeout(leave, 20));
        handler(req, res);
      }),
    );
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
