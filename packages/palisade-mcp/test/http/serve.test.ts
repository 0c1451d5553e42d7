/**
 * `serve()`: one port, HTTP/1.1 and HTTP/2 by prior knowledge, through real sockets on 127.0.0.1
 * and a real `node:http2` client, so frames, SETTINGS and resets are seen as a client sees them.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { once } from 'node:events';
import { type ClientHttp2Session, connect, constants, type IncomingHttpHeaders } from 'node:http2';
import { connect as tcpConnect } from 'node:net';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type ServeOptions, type Serving, serve } from '../../src/http/node/serve.js';
import { dataFrame, H2Peer, headersFrame, postFields, rstStreamFrame } from '../support/h2-frames.js';
import { ADMIT_ALL, basicServer, exchange, modernRequest, post, RawClient } from '../support/http-peer.js';

const { allowedHosts: _unused, ...ADMIT } = ADMIT_ALL;
const ECHO = modernRequest(7, 'tools/call', { name: 'echo', arguments: { text: 'hi' } });
const PREFACE = 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n';

interface H2Reply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** RST_STREAM code the stream closed with: 0 is NO_ERROR. */
  readonly rstCode: number | undefined;
}

async function h2Session(port: number): Promise<ClientHttp2Session> {
  const session = connect(`http://127.0.0.1:${port}`);
  session.on('error', () => {});
  await once(session, 'remoteSettings');
  return session;
}

/** One POST; a list body is written chunk by chunk. Resolves when the stream closes. */
function h2Request(
  session: ClientHttp2Session,
  extra: Record<string, string | number> = {},
  body: string | readonly Buffer[] = ECHO.body,
): Promise<H2Reply> {
  return new Promise((resolve) => {
    const stream = session.request({
      ':method': 'POST',
      ':path': '/mcp',
      ':authority': '127.0.0.1',
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'echo',
      ...extra,
    });
    let status = 0;
    let headers: IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    stream.on('response', (received) => {
      headers = received;
      status = Number(received[':status']);
    });
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('error', () => {});
    stream.on('close', () =>
      resolve({ status, headers, body: Buffer.concat(chunks).toString('utf8'), rstCode: stream.rstCode }),
    );
    // The client ends a GET itself, with its HEADERS.
    if (stream.writableEnded) return;
    if (typeof body === 'string') stream.end(body);
    else {
      for (const chunk of body) stream.write(chunk);
      stream.end();
    }
  });
}

async function serving(options: Partial<ServeOptions> = {}): Promise<Serving> {
  return serve(basicServer(), { ...ADMIT, ...options });
}

async function closedAfter(client: RawClient): Promise<number> {
  const start = performance.now();
  await client.closed;
  return performance.now() - start;
}

describe('serve() on its defaults', () => {
  let served: Serving;
  beforeAll(async () => {
    served = await serving();
  });
  afterAll(async () => {
    await served.close();
  });

  test('it binds 127.0.0.1 and reports its url and port', { tags: ['threat-model'] }, () => {
    expect(served.url).toBe(`http://127.0.0.1:${served.port}`);
  });

  test('an HTTP/1.1 tools/call is answered on the port', async () => {
    const reply = await exchange(served.port, post(ECHO.body, ECHO.headers));
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({ id: 7, result: { content: [{ text: 'hi' }] } });
    reply.client.end();
  });

  test('an HTTP/2 tools/call by prior knowledge, without content-length, is answered on the same port', {
    tags: ['threat-model'],
  }, async () => {
    const session = await h2Session(served.port);
    const reply = await h2Request(session);
    expect(reply.status).toBe(200);
    expect(reply.headers['connection']).toBeUndefined();
    expect(JSON.parse(reply.body)).toMatchObject({ id: 7, result: { content: [{ text: 'hi' }] } });
    session.close();
  });

  test('the server advertises 100 concurrent streams in its HTTP/2 SETTINGS', {
    tags: ['threat-model'],
  }, async () => {
    const session = await h2Session(served.port);
    expect(session.remoteSettings.maxConcurrentStreams).toBe(100);
    expect(session.remoteSettings.maxHeaderListSize).toBe(16_384);
    session.close();
  });

  test('an HTTP/2 body of exactly 1,048,576 undeclared bytes is read (and then refused as JSON, 400)', {
    tags: ['threat-model'],
  }, async () => {
    const session = await h2Session(served.port);
    const chunks = Array.from({ length: 16 }, () => Buffer.alloc(65_536, 0x20));
    const reply = await h2Request(session, {}, chunks);
    expect(reply.status).toBe(400);
    session.close();
  });

  test('an HTTP/2 body one byte over 1,048,576 with no content-length is refused 413', {
    tags: ['threat-model'],
  }, async () => {
    const session = await h2Session(served.port);
    const chunks = [...Array.from({ length: 16 }, () => Buffer.alloc(65_536, 0x20)), Buffer.from(' ')];
    const reply = await h2Request(session, {}, chunks);
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.body)).toMatchObject({ error: { code: -32600 } });
    session.close();
  });

  test('an HTTP/2 upload still open at the byte past 1,048,576 is answered 413 and stopped with NO_ERROR', {
    tags: ['threat-model'],
  }, async () => {
    const session = await h2Session(served.port);
    const stream = session.request({
      ':method': 'POST',
      ':path': '/mcp',
      ':authority': '127.0.0.1',
      'content-type': 'application/json',
      accept: 'application/json',
    });
    stream.on('error', () => {});
    for (let index = 0; index < 16; index += 1) stream.write(Buffer.alloc(65_536, 0x20));
    stream.write(Buffer.from(' ')); // never ended: only the server can close this stream
    const [headers] = (await once(stream, 'response')) as [IncomingHttpHeaders];
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    await once(stream, 'close');
    expect(headers[':status']).toBe(413);
    expect(JSON.parse(Buffer.concat(chunks).toString('utf8'))).toMatchObject({ error: { code: -32600 } });
    expect(stream.rstCode).toBe(0);
    session.close();
  });

  test('an HTTP/2 refusal before the body (405) is a response that ends the stream, not a reset', {
    tags: ['threat-model'],
  }, async () => {
    const session = await h2Session(served.port);
    const reply = await h2Request(session, { ':method': 'GET' }, '');
    expect(reply.status).toBe(405);
    expect(reply.headers['allow']).toBe('POST');
    expect(reply.rstCode).toBe(0);
    expect(JSON.parse(reply.body)).toMatchObject({ error: { code: -32600 } });
    session.close();
  });

  test('an HTTP/2 Origin not on the list is answered 403 and the session goes on serving', {
    tags: ['threat-model'],
  }, async () => {
    const session = await h2Session(served.port);
    const refused = await h2Request(session, { origin: 'http://evil.example' });
    expect(refused.status).toBe(403);
    expect(refused.rstCode).toBe(0);
    expect(JSON.parse(refused.body)).toMatchObject({ error: { code: -32600 } });
    const next = await h2Request(session);
    expect(next.status).toBe(200);
    session.close();
  });

  test('an HTTP/2 refusal while the client is still sending is readable, then stops the upload with NO_ERROR', {
    tags: ['threat-model'],
  }, async () => {
    const session = await h2Session(served.port);
    const stream = session.request({
      ':method': 'POST',
      ':path': '/mcp',
      ':authority': '127.0.0.1',
      origin: 'http://evil.example',
      'content-type': 'application/json',
    });
    stream.on('error', () => {});
    // More than the 65,535-byte stream window: the client is still blocked sending when refused.
    for (let index = 0; index < 4; index += 1) stream.write(Buffer.alloc(65_536, 0x20));
    const [headers] = (await once(stream, 'response')) as [IncomingHttpHeaders];
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    // 'aborted': a RST_STREAM arrived while this side still had bytes to send; the writes it holds
    // keep the client's own stream from 'close', so the test ends it.
    await Promise.all([once(stream, 'end'), once(stream, 'aborted')]);
    expect(headers[':status']).toBe(403);
    expect(JSON.parse(Buffer.concat(chunks).toString('utf8'))).toMatchObject({ error: { code: -32600 } });
    expect(stream.rstCode).toBe(0);
    stream.destroy();
    session.close();
  });

  test('an HTTP/2 host field that disagrees with :authority is answered 400', {
    tags: ['threat-model'],
  }, async () => {
    const session = await h2Session(served.port);
    const reply = await h2Request(session, { host: 'localhost' });
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toMatchObject({
      error: { message: 'Invalid request: Host disagrees with :authority' },
    });
    session.close();
  });

  test('an HTTP/2 :authority outside the loopback names is answered 421', {
    tags: ['threat-model'],
  }, async () => {
    const session = await h2Session(served.port);
    const reply = await h2Request(session, { ':authority': 'evil.example' });
    expect(reply.status).toBe(421);
    session.close();
  });

  test('an HTTP/1.1 Host outside the loopback names is answered 421', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await exchange(served.port, post(ECHO.body, { ...ECHO.headers, Host: 'evil.example' }));
    expect(reply.status).toBe(421);
    reply.client.end();
  });

  test('Expect: 100-continue with a refused Host gets no 100 Continue before the 421', {
    tags: ['threat-model'],
  }, async () => {
    const client = new RawClient(served.port);
    client.send(
      post('', { ...ECHO.headers, Host: 'evil.example', Expect: '100-continue', 'Content-Length': 10 }),
    );
    const reply = await client.response();
    expect(reply.status).toBe(421);
    expect(client.text()).not.toContain('100 Continue');
    client.end();
  });

  test('an HTTP/1.1 request whose first byte arrives alone (a prefix of the preface) is served whole', {
    tags: ['threat-model'],
  }, async () => {
    const client = new RawClient(served.port);
    const bytes = post(ECHO.body, ECHO.headers);
    client.send(bytes.slice(0, 1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    client.send(bytes.slice(1));
    const reply = await client.response();
    expect(reply.status).toBe(200);
    client.end();
  });

  test('bytes that are neither HTTP/1.1 nor the preface close the connection unanswered', {
    tags: ['threat-model'],
  }, async () => {
    const client = new RawClient(served.port);
    client.send(Buffer.from([0x16, 0x03, 0x01]));
    await client.closed;
    expect(client.text()).toBe('');
  });

  test('a head of 2,100 lines keeps its last line: a repeated Mcp-Method at the end is refused 400', {
    tags: ['threat-model'],
  }, async () => {
    const filler: Record<string, unknown> = {};
    for (let index = 0; index < 2_100; index += 1) filler[`x${index}`] = '1';
    const reply = await exchange(
      served.port,
      // A second key differing in case only: a second Mcp-Method line, after the 2,100.
      post(ECHO.body, { ...ECHO.headers, ...filler, 'mcp-method': 'tools/call' }),
    );
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toMatchObject({ error: { code: -32020 } });
    reply.client.end();
  });

  test('a request head over 16,384 bytes is refused 431 and one under it is served', {
    tags: ['threat-model'],
  }, async () => {
    const over = await exchange(
      served.port,
      post(ECHO.body, { ...ECHO.headers, 'X-Pad': 'a'.repeat(16_400) }),
    );
    expect(over.status).toBe(431);
    over.client.end();
    const under = await exchange(
      served.port,
      post(ECHO.body, { ...ECHO.headers, 'X-Pad': 'a'.repeat(15_000) }),
    );
    expect(under.status).toBe(200);
    under.client.end();
  });
});

describe('serve() settings', () => {
  test('a POST to a path other than /mcp is answered 404 naming no endpoint, and the connection is closed', {
    tags: ['threat-model'],
  }, async () => {
    const served = await serving();
    const reply = await exchange(
      served.port,
      post(ECHO.body, ECHO.headers).replace('POST /mcp ', 'POST /other '),
    );
    expect(reply.statusLine).toBe('HTTP/1.1 404 Not Found');
    expect(JSON.parse(reply.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid request: no MCP endpoint at this path' },
    });
    await reply.client.closed;
    await served.close();
  });

  test.each(['/mcp/', '/MCP', '/mcp/x'])(
    'the path %s is not /mcp and is answered 404',
    { tags: ['threat-model'] },
    async (path) => {
      const served = await serving();
      const reply = await exchange(
        served.port,
        post(ECHO.body, ECHO.headers).replace('POST /mcp ', `POST ${path} `),
      );
      expect(reply.status).toBe(404);
      reply.client.end();
      await served.close();
    },
  );

  test('a query after /mcp is ignored and the request is served', { tags: ['threat-model'] }, async () => {
    const served = await serving();
    const reply = await exchange(
      served.port,
      post(ECHO.body, ECHO.headers).replace('POST /mcp ', 'POST /mcp?x=1 '),
    );
    expect(reply.status).toBe(200);
    reply.client.end();
    await served.close();
  });

  test("path: '/rpc' moves the endpoint, and path: 'any' serves every path", {
    tags: ['threat-model'],
  }, async () => {
    const moved = await serving({ path: '/rpc' });
    const atRpc = await exchange(
      moved.port,
      post(ECHO.body, ECHO.headers).replace('POST /mcp ', 'POST /rpc '),
    );
    const atMcp = await exchange(moved.port, post(ECHO.body, ECHO.headers));
    expect([atRpc.status, atMcp.status]).toEqual([200, 404]);
    atRpc.client.end();
    await moved.close();
    const anywhere = await serving({ path: 'any' });
    const atOther = await exchange(
      anywhere.port,
      post(ECHO.body, ECHO.headers).replace('POST /mcp ', 'POST /x/y '),
    );
    expect(atOther.status).toBe(200);
    atOther.client.end();
    await anywhere.close();
  });

  test('an HTTP/2 :path other than /mcp is answered 404 and the session goes on serving', {
    tags: ['threat-model'],
  }, async () => {
    const served = await serving();
    const session = await h2Session(served.port);
    const other = await h2Request(session, { ':path': '/' });
    const right = await h2Request(session);
    expect([other.status, right.status]).toEqual([404, 200]);
    session.close();
    await served.close();
  });

  test('http2: false closes a connection that sends the preface, and HTTP/1.1 is still served', {
    tags: ['threat-model'],
  }, async () => {
    const served = await serving({ http2: false });
    const client = new RawClient(served.port);
    client.send(PREFACE);
    await client.closed;
    expect(client.text()).toBe('');
    const reply = await exchange(served.port, post(ECHO.body, ECHO.headers));
    expect(reply.status).toBe(200);
    reply.client.end();
    await served.close();
  });

  test('a connection that sends nothing is closed at the 300 ms sniff deadline', {
    tags: ['threat-model'],
  }, async () => {
    const served = await serving({ sniffTimeoutMs: 300 });
    const client = new RawClient(served.port);
    const elapsed = await closedAfter(client);
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(2_000);
    await served.close();
  });

  test('maxConcurrentStreams: 7 is what the HTTP/2 SETTINGS advertise', {
    tags: ['threat-model'],
  }, async () => {
    const served = await serving({ maxConcurrentStreams: 7 });
    const session = await h2Session(served.port);
    expect(session.remoteSettings.maxConcurrentStreams).toBe(7);
    session.close();
    await served.close();
  });

  test('maxHeaderSize: 4,096 refuses a 5,000-byte head 431 over HTTP/1.1 and is advertised over HTTP/2', {
    tags: ['threat-model'],
  }, async () => {
    const served = await serving({ maxHeaderSize: 4_096 });
    const reply = await exchange(
      served.port,
      post(ECHO.body, { ...ECHO.headers, 'X-Pad': 'a'.repeat(5_000) }),
    );
    expect(reply.status).toBe(431);
    reply.client.end();
    const session = await h2Session(served.port);
    expect(session.remoteSettings.maxHeaderListSize).toBe(4_096);
    session.close();
    await served.close();
  });

  test('an HTTP/1.1 head not complete within headersTimeoutMs: 500 is answered 408', {
    tags: ['threat-model'],
  }, async () => {
    const served = await serving({ headersTimeoutMs: 500, requestTimeoutMs: 10_000 });
    const client = new RawClient(served.port);
    client.send('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const elapsed = await closedAfter(client);
    expect(client.text()).toContain('408');
    expect(elapsed).toBeLessThan(3_000);
    await served.close();
  });

  test('an idle kept-alive HTTP/1.1 connection is closed at keepAliveTimeoutMs: 300', {
    tags: ['threat-model'],
  }, async () => {
    const served = await serving({ keepAliveTimeoutMs: 300 });
    const reply = await exchange(served.port, post(ECHO.body, ECHO.headers));
    expect(reply.status).toBe(200);
    const elapsed = await closedAfter(reply.client);
    expect(elapsed).toBeLessThan(2_000);
    await served.close();
  });

  test('an idle HTTP/2 session is sent GOAWAY at keepAliveTimeoutMs: 300', {
    tags: ['threat-model'],
  }, async () => {
    const served = await serving({ keepAliveTimeoutMs: 300 });
    const session = await h2Session(served.port);
    const start = performance.now();
    await once(session, 'goaway');
    expect(performance.now() - start).toBeLessThan(2_000);
    session.destroy();
    await served.close();
  });

  test('maxConnections: 1 closes a second connection while the first is open', {
    tags: ['threat-model'],
  }, async () => {
    const served = await serving({ maxConnections: 1 });
    const first = new RawClient(served.port);
    await once(first.socket, 'connect');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = new RawClient(served.port);
    second.send(post(ECHO.body, ECHO.headers));
    await second.closed;
    expect(second.text()).toBe('');
    first.end();
    await served.close();
  });

  test('a non-loopback host without allowedHosts is refused, naming allowedHosts', {
    tags: ['threat-model'],
  }, async () => {
    await expect(serving({ host: '0.0.0.0' })).rejects.toThrow(/allowedHosts/);
  });

  test('a non-loopback host with allowedHosts binds', { tags: ['threat-model'] }, async () => {
    const served = await serving({ host: '0.0.0.0', allowedHosts: ['mcp.example'] });
    expect(served.server.address()).toMatchObject({ address: '0.0.0.0', port: served.port });
    // Its URL names the allowed host rather than 0.0.0.0 (serve-url.test.ts).
    expect(served.url).toBe(`http://mcp.example:${served.port}`);
    await served.close();
  });

  test('an unknown option is refused by name', { tags: ['threat-model'] }, async () => {
    await expect(serve(basicServer(), { ...ADMIT, maxStreams: 1 } as ServeOptions)).rejects.toThrow(
      /unknown option "maxStreams"/,
    );
  });

  test('a requestTimeoutMs under headersTimeoutMs is refused', { tags: ['threat-model'] }, async () => {
    await expect(serving({ headersTimeoutMs: 1_000, requestTimeoutMs: 999 })).rejects.toThrow(
      /requestTimeoutMs/,
    );
  });

  test('maxSessionMemory: 0 is refused as out of range', { tags: ['threat-model'] }, async () => {
    await expect(serving({ maxSessionMemory: 0 })).rejects.toThrow(/maxSessionMemory/);
  });
});

describe("what Node's HTTP/1.1 parser refuses before the handler", () => {
  /** Every refusal event published while `action` runs, and the log events `serve()` was given. */
  async function observed(
    options: Partial<ServeOptions>,
    action: (port: number) => Promise<void>,
  ): Promise<{ published: unknown[]; logged: unknown[] }> {
    const published: unknown[] = [];
    const logged: unknown[] = [];
    const listener = (message: unknown): void => {
      published.push(message);
    };
    subscribe('palisade:http-refusal', listener);
    const served = await serving({ ...options, onLog: (event) => logged.push(event) });
    try {
      await action(served.port);
    } finally {
      unsubscribe('palisade:http-refusal', listener);
      await served.close();
    }
    return { published, logged };
  }

  test('a malformed request line is answered 400 with a JSON-RPC refusal, published as malformed-request', {
    tags: ['threat-model'],
  }, async () => {
    let reply = '';
    const { published, logged } = await observed({}, async (port) => {
      const client = new RawClient(port);
      client.send('POST /mcp HTTP/1.1 EXTRA\r\nHost: 127.0.0.1\r\n\r\n');
      await client.closed;
      reply = client.text();
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(reply).toContain('connection: close');
    expect(reply.slice(reply.indexOf('\r\n\r\n') + 4)).toBe(
      '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request: malformed HTTP request"}}',
    );
    expect(published).toEqual([{ rule: 'malformed-request', status: 400, code: -32600 }]);
    expect(logged).toEqual([{ kind: 'refusal', rule: 'malformed-request', status: 400 }]);
  });

  test('a head over maxHeaderSize is published as head-too-large with 431', {
    tags: ['threat-model'],
  }, async () => {
    const { published } = await observed({ maxHeaderSize: 4_096 }, async (port) => {
      const reply = await exchange(port, post(ECHO.body, { ...ECHO.headers, 'X-Pad': 'a'.repeat(5_000) }));
      expect(reply.status).toBe(431);
      reply.client.end();
    });
    expect(published).toEqual([{ rule: 'head-too-large', status: 431, code: -32600 }]);
  });

  test('a head not complete within headersTimeoutMs is published as head-timeout with 408', {
    tags: ['threat-model'],
  }, async () => {
    const { published } = await observed(
      { headersTimeoutMs: 300, requestTimeoutMs: 10_000 },
      async (port) => {
        const client = new RawClient(port);
        client.send('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n');
        await client.closed;
        expect(client.text()).toMatch(/^HTTP\/1\.1 408 /);
      },
    );
    expect(published).toEqual([{ rule: 'head-timeout', status: 408, code: -32600 }]);
  });

  test('a client that resets its connection mid-head is leaving, not refused: nothing is published', {
    tags: ['threat-model'],
  }, async () => {
    const { published, logged } = await observed({}, async (port) => {
      const socket = tcpConnect(port, '127.0.0.1');
      socket.on('error', () => {});
      await once(socket, 'connect');
      socket.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      await new Promise((resolve) => setTimeout(resolve, 50));
      socket.resetAndDestroy();
      await new Promise((resolve) => setTimeout(resolve, 200));
    });
    expect(published).toEqual([]);
    expect(logged).toEqual([]);
  });
});

describe('an HTTP/2 client that resets its stream', () => {
  test('mid-body, is no host fault and no refusal, and a whole JSON body sent before the reset is never run', {
    tags: ['threat-model'],
  }, async () => {
    const faults: string[] = [];
    const logged: unknown[] = [];
    // authorizeBody runs once a body is read whole, before it is decoded or run: it sees what would run.
    const bodiesRead: string[] = [];
    const served = await serving({
      onFault: (description) => faults.push(description),
      onLog: (event) => logged.push(event),
      authorizeBody: (_request, bytes) => {
        bodiesRead.push(Buffer.from(bytes).toString('utf8'));
        return { ok: true };
      },
    });
    const peer = new H2Peer(served.port);
    await peer.ready();
    const fields = postFields(
      Object.entries(ECHO.headers).map(([name, value]) => [name.toLowerCase(), String(value)]),
    );
    // The whole message, but no END_STREAM: the client never finished its request, then cancels it.
    peer.send(headersFrame(1, fields));
    peer.send(dataFrame(1, Buffer.from(ECHO.body)));
    await new Promise((resolve) => setTimeout(resolve, 100));
    peer.send(rstStreamFrame(1, constants.NGHTTP2_CANCEL));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(faults).toEqual([]);
    expect(logged).toEqual([]);
    expect(peer.statuses(1)).toEqual([]);
    expect(bodiesRead).toEqual([]);
    peer.send(headersFrame(3, fields));
    peer.send(dataFrame(3, Buffer.from(ECHO.body), { endStream: true }));
    await peer.streamEnd(3);
    expect(peer.statuses(3)).toEqual([200]);
    expect(bodiesRead).toEqual([ECHO.body]);
    peer.end();
    await served.close();
  });
});

describe('a client that leaves while an async authorize runs', () => {
  const slowAdmit = () => new Promise<{ ok: true }>((resolve) => setTimeout(() => resolve({ ok: true }), 50));

  test('over HTTP/1.1 holds nothing until the read deadline and is logged as nothing', {
    tags: ['threat-model'],
  }, async () => {
    const logged: unknown[] = [];
    const served = await serving({
      authorize: slowAdmit,
      readTimeoutMs: 1_000,
      onLog: (event) => logged.push(event),
    });
    const client = new RawClient(served.port);
    const whole = post(ECHO.body, ECHO.headers);
    client.send(whole.slice(0, whole.length - 5));
    await new Promise((resolve) => setTimeout(resolve, 10));
    client.socket.destroy();
    // Past the 1,000 ms deadline: a request still held would have been logged as read-timeout by now.
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    expect(logged).toEqual([]);
    await served.close();
  });

  test('over HTTP/2 by resetting its stream is no host fault: no body-parser misuse is reported', {
    tags: ['threat-model'],
  }, async () => {
    const faults: string[] = [];
    const served = await serving({
      authorize: slowAdmit,
      onFault: (description) => faults.push(description),
    });
    const peer = new H2Peer(served.port);
    await peer.ready();
    const fields = postFields(
      Object.entries(ECHO.headers).map(([name, value]) => [name.toLowerCase(), String(value)]),
    );
    peer.send(headersFrame(1, fields));
    peer.send(rstStreamFrame(1, constants.NGHTTP2_CANCEL));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(faults).toEqual([]);
    peer.end();
    await served.close();
  });
});
