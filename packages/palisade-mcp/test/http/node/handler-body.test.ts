/**
 * How the node handler reads a request body over a real socket: the bounds it holds, what Node
 * frames before the handler sees it, what a CORS preflight declares about a body, and
 * `Expect: 100-continue`, answered only for a caller that asked and passes every check first.
 */

import { describe, expect, test } from 'vitest';
import { createHttpHandler, type HttpHandlerOptions } from '../../../src/http/node/handler.js';
import { closeAfterEach } from '../../support/close-after-each.js';
import {
  ADMIT_ALL,
  basicServer,
  exchange,
  LIST,
  modernRequest,
  mount,
  mountHandler,
  post,
  RawClient,
} from '../../support/http-peer.js';

const closeLater = closeAfterEach();

async function serveWith(options: Partial<HttpHandlerOptions> = {}, checkContinue = false): Promise<number> {
  const mounted = await closeLater(mountHandler(options, { checkContinue }));
  return mounted.port;
}

/** A tools/call of `echo` whose body is exactly `size` bytes. */
function echoOfSize(size: number): { body: string; headers: Record<string, unknown> } {
  const skeleton = modernRequest(7, 'tools/call', { name: 'echo', arguments: { text: '' } });
  const body = skeleton.body.replace('"text":""', `"text":"${'a'.repeat(size - skeleton.body.length)}"`);
  expect(Buffer.byteLength(body)).toBe(size);
  return { body, headers: skeleton.headers };
}

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

describe('reading the body', () => {
  test('a body of exactly 1,048,576 bytes is read and answered', { tags: ['threat-model'] }, async () => {
    const port = await serveWith();
    const request = echoOfSize(1_048_576);
    const reply = await exchange(port, post(request.body, request.headers));
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({ id: 7, result: {} });
    reply.client.end();
  });

  test('a body that stops arriving is answered 408 naming the deadline, and the connection is closed', {
    tags: ['threat-model'],
  }, async () => {
    const port = await serveWith({ readTimeoutMs: 300 });
    const reply = await exchange(port, post(LIST.body, LIST.headers).slice(0, -10));
    expect(reply.statusLine).toBe('HTTP/1.1 408 Request Timeout');
    expect(reply.headers['connection']).toBe('close');
    expect(JSON.parse(reply.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid request: the body did not arrive within the read deadline' },
    });
    await reply.client.closed;
  });

  test('the deadline covers the whole body however it is split: steady small chunks still lapse', {
    tags: ['threat-model'],
  }, async () => {
    const port = await serveWith({ readTimeoutMs: 300 });
    const bytes = post(LIST.body, LIST.headers);
    const headEnd = bytes.indexOf('\r\n\r\n') + 4;
    const client = new RawClient(port);
    client.send(bytes.slice(0, headEnd));
    // One byte every 50 ms: each gap is far inside the deadline, the total (~6 s) far beyond it.
    const body = bytes.slice(headEnd);
    let sent = 0;
    const drip = setInterval(() => {
      if (sent < body.length && !client.socket.destroyed) client.send(body[sent++] ?? '');
    }, 50);
    const reply = await client.response();
    clearInterval(drip);
    expect(reply.status).toBe(408);
    expect(sent).toBeLessThan(body.length);
    client.end();
  });

  test('a body that is not JSON is answered 400 with the reader’s code and message, and the connection stays open', {
    tags: ['threat-model'],
  }, async () => {
    const port = await serveWith();
    const client = new RawClient(port);
    client.send(post('{"jsonrpc":', LIST.headers));
    const first = await client.response();
    expect(first.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(first.headers['connection']).not.toBe('close');
    expect(JSON.parse(first.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32700, message: 'Parse error: message is not valid JSON' },
    });
    client.send(post(LIST.body, LIST.headers));
    const second = await client.response();
    expect(second.status).toBe(200);
    client.end();
  });

  test('a batch is answered 400 with -32600', { tags: ['threat-model'] }, async () => {
    const port = await serveWith();
    const reply = await exchange(port, post(`[${LIST.body}]`, LIST.headers));
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid request: batch (array) messages are not supported' },
    });
    reply.client.end();
  });

  test('authorizeBody sees the exact bytes, and its refusal is 403 on a connection that stays open', {
    tags: ['threat-model'],
  }, async () => {
    const seen: string[] = [];
    const port = await serveWith({
      authorizeBody: (_request, bytes) => {
        seen.push(Buffer.from(bytes).toString('utf8'));
        return seen.length === 1 ? { ok: false, reason: 'not this one' } : { ok: true };
      },
    });
    const client = new RawClient(port);
    client.send(post(LIST.body, LIST.headers));
    const first = await client.response();
    expect(first.statusLine).toBe('HTTP/1.1 403 Forbidden');
    expect(first.headers['connection']).not.toBe('close');
    expect(seen).toEqual([LIST.body]);
    client.send(post(LIST.body, LIST.headers));
    expect((await client.response()).status).toBe(200);
    client.end();
  });

  test('an authorizeBody that throws is answered 500 with -32603 and reported as a fault', {
    tags: ['threat-model'],
  }, async () => {
    const faults: string[] = [];
    const port = await serveWith({
      authorizeBody: () => {
        throw new Error('signature store offline');
      },
      onFault: (description) => faults.push(description),
    });
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.status).toBe(500);
    expect(JSON.parse(reply.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32603, message: 'Internal error' },
    });
    expect(reply.body).not.toContain('signature store');
    expect(faults).toEqual(['authorizeBody threw or rejected']);
    reply.client.end();
  });

  test('an authorizeBody still pending at the read deadline is refused 403', {
    tags: ['threat-model'],
  }, async () => {
    const port = await serveWith({ authorizeBody: () => new Promise(() => {}), readTimeoutMs: 300 });
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.statusLine).toBe('HTTP/1.1 403 Forbidden');
    reply.client.end();
  });

  test('an authorizeBody refusal naming 401 or 429 is still answered 403, without the hook headers', {
    tags: ['threat-model'],
  }, async () => {
    const port = await serveWith({
      authorizeBody: (request) =>
        request.headers['x-status'] === '429'
          ? { ok: false, status: 429, headers: { 'retry-after': '5' } }
          : { ok: false, status: 401, headers: { 'www-authenticate': 'Bearer' } },
    });
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.status).toBe(403);
    expect(reply.headers['www-authenticate']).toBeUndefined();
    const limited = await exchange(port, post(LIST.body, { ...LIST.headers, 'X-Status': '429' }));
    expect(limited.status).toBe(403);
    expect(limited.headers['retry-after']).toBeUndefined();
    reply.client.end();
    limited.client.end();
  });

  test('an authorizeBody 403 carries its WWW-Authenticate and rule name, on a connection that stays open', {
    tags: ['threat-model'],
  }, async () => {
    const events: unknown[] = [];
    const challenge = 'Bearer error="insufficient_scope", scope="tools:admin"';
    const port = await serveWith({
      authorizeBody: () => ({
        ok: false,
        status: 403,
        headers: { 'www-authenticate': challenge },
        rule: 'bearer-insufficient-scope',
      }),
      onLog: (event) => events.push(event),
    });
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.statusLine).toBe('HTTP/1.1 403 Forbidden');
    expect(reply.headers['www-authenticate']).toBe(challenge);
    expect(reply.headers['connection']).not.toBe('close');
    expect(events).toEqual([{ kind: 'refusal', rule: 'bearer-insufficient-scope', status: 403 }]);
    reply.client.end();
  });

  test('a client that leaves mid-body gets no answer and is no host fault', {
    tags: ['threat-model'],
  }, async () => {
    const faults: string[] = [];
    const logged: unknown[] = [];
    const port = await serveWith({
      onFault: (description) => faults.push(description),
      onLog: (event) => logged.push(event),
    });
    const client = new RawClient(port);
    const whole = post(LIST.body, LIST.headers);
    client.send(whole.slice(0, whole.length - 10));
    await new Promise((resolve) => setTimeout(resolve, 100));
    client.end();
    await client.closed;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(client.text()).toBe('');
    expect(faults).toEqual([]);
    expect(logged).toEqual([]);
  });

  test('a refusal before the read closes the connection: a second request on it is not answered', {
    tags: ['threat-model'],
  }, async () => {
    const port = await serveWith();
    const client = new RawClient(port);
    client.send(
      post(LIST.body, { ...LIST.headers, Origin: 'http://evil.example' }) + post(LIST.body, LIST.headers),
    );
    const first = await client.response();
    expect(first.status).toBe(403);
    await client.closed;
    expect(client.text().match(/HTTP\/1\.1 /g)).toHaveLength(1);
  });
});

describe('how Node frames what the handler never sees', () => {
  test.each([
    ['a non-numeric Content-Length', { 'Content-Length': 'abc' }],
    ['two Content-Length lines that disagree', { 'Content-Length': ['64', '5'] }],
    ['two Content-Length lines that agree', { 'Content-Length': ['64', '64'] }],
    ['a signed Content-Length', { 'Content-Length': '+64' }],
    ['Content-Length with Transfer-Encoding', { 'Transfer-Encoding': 'chunked' }],
  ])(
    '%s is refused 400 by Node’s parser before the handler runs',
    { tags: ['threat-model'] },
    async (_name, headers) => {
      let called = false;
      const port = await serveWith({
        authorize: () => {
          called = true;
          return { ok: true };
        },
      });
      const client = new RawClient(port);
      client.send(post(LIST.body, { ...LIST.headers, ...headers }));
      await client.closed;
      expect(client.text()).toBe('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
      expect(called).toBe(false);
    },
  );
});

describe('Expect: 100-continue', () => {
  const expecting = (extra: Record<string, unknown> = {}) =>
    post('', {
      ...LIST.headers,
      Expect: '100-continue',
      'Content-Length': Buffer.byteLength(LIST.body),
      ...extra,
    });

  test('mounted plainly, Node writes 100 Continue before the handler can refuse', {
    tags: ['threat-model'],
  }, async () => {
    const port = await serveWith();
    const client = new RawClient(port);
    client.send(expecting({ Origin: 'http://evil.example' }));
    const reply = await client.response();
    expect(reply.status).toBe(403);
    expect(client.text().startsWith('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 403 Forbidden\r\n')).toBe(true);
    client.end();
  });

  test('with checkContinue, a caller about to be refused is never invited to send its body', {
    tags: ['threat-model'],
  }, async () => {
    const port = await serveWith({}, true);
    const client = new RawClient(port);
    client.send(expecting({ Origin: 'http://evil.example' }));
    const reply = await client.response();
    expect(reply.status).toBe(403);
    await client.closed;
    expect(client.text()).not.toContain('100 Continue');
  });

  test('with checkContinue, an oversized Content-Length is refused 413 without 100 Continue', {
    tags: ['threat-model'],
  }, async () => {
    const port = await serveWith({}, true);
    const client = new RawClient(port);
    client.send(expecting({ 'Content-Length': 1_048_577 }));
    expect((await client.response()).status).toBe(413);
    await client.closed;
    expect(client.text()).not.toContain('100 Continue');
  });

  test('with checkContinue, an admitted caller gets 100 Continue and then its answer', {
    tags: ['threat-model'],
  }, async () => {
    const port = await serveWith({}, true);
    const client = new RawClient(port);
    client.send(expecting());
    await client.until((text) => text.includes('\r\n\r\n'));
    expect(client.text()).toBe('HTTP/1.1 100 Continue\r\n\r\n');
    client.send(LIST.body);
    const reply = await client.response();
    expect(reply.status).toBe(200);
    client.end();
  });
});

describe('a CORS preflight and the body it declares', () => {
  test('a preflight with Content-Length: 0 declares no body: answered 204 on a connection that stays open', async () => {
    const mounted = await closeLater(mount(createHttpHandler(basicServer(), { ...ADMIT_ALL, cors: {} })));
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
    const mounted = await closeLater(mount(createHttpHandler(basicServer(), { ...ADMIT_ALL, cors: {} })));
    const reply = await exchange(mounted.port, preflightBytes(['Transfer-Encoding: chunked']));
    expect(reply.status).toBe(204);
    expect(reply.headers['connection']).toBe('close');
    await reply.client.closed;
  });
});

describe('100 Continue is sent only to a caller that asked', () => {
  test('with checkContinue, a request without Expect gets its answer and no 100 Continue', async () => {
    const handler = createHttpHandler(basicServer(), ADMIT_ALL);
    const mounted = await closeLater(
      mount(handler, (server) => server.on('checkContinue', handler.checkContinue)),
    );
    const reply = await exchange(mounted.port, post(LIST.body, LIST.headers));
    expect(reply.status).toBe(200);
    expect(reply.client.text().startsWith('HTTP/1.1 200 OK\r\n')).toBe(true);
    reply.client.end();
  });
});
