import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { describe, expect, test } from 'vitest';
import {
  createHttpHandler,
  type HttpHandlerOptions,
  type HttpLogEvent,
} from '../../../src/http/node/handler.js';
import { createServer, defineTool, HTTP_REFUSAL_CHANNEL } from '../../../src/index.js';
import { closeAfterEach } from '../../support/close-after-each.js';
import { ADMIT_ALL, exchange, modernRequest, mount, mountHandler, post } from '../../support/http-peer.js';

const closeLater = closeAfterEach();

const ECHO = modernRequest(1, 'tools/call', { name: 'inspect', arguments: {} });
const LIST = modernRequest(2, 'tools/list');

async function serveWith(options: Partial<HttpHandlerOptions>): Promise<number> {
  const mounted = await closeLater(mountHandler(options));
  return mounted.port;
}

describe('authorize', () => {
  test('a repeated header reaches it as a frozen array, so authorizeBody sees what the client sent', async () => {
    let pushed = true;
    let seenByBody: unknown;
    const port = await serveWith({
      authorize: (request) => {
        try {
          (request.headers['set-cookie'] as string[]).push('planted=1');
        } catch {
          pushed = false;
        }
        return { ok: true };
      },
      authorizeBody: (request) => {
        seenByBody = [...(request.headers['set-cookie'] ?? [])];
        return { ok: true };
      },
    });
    const reply = await exchange(port, post(LIST.body, { ...LIST.headers, 'Set-Cookie': ['a=1', 'b=2'] }));
    expect(reply.status).toBe(200);
    expect(pushed).toBe(false);
    expect(seenByBody).toEqual(['a=1', 'b=2']);
    reply.client.end();
  });

  test('only an awaited { ok: true } admits', { tags: ['threat-model'] }, async () => {
    const port = await serveWith({ authorize: async () => ({ ok: true }) });
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.status).toBe(200);
    reply.client.end();
  });

  test.each([
    ['undefined', () => undefined],
    ['true', () => true],
    ['{ ok: "yes" }', () => ({ ok: 'yes' })],
    ['a promise of true', async () => true],
  ])('%s is a refusal answered 403', { tags: ['threat-model'] }, async (_name, hook) => {
    const port = await serveWith({ authorize: hook as unknown as HttpHandlerOptions['authorize'] });
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.statusLine).toBe('HTTP/1.1 403 Forbidden');
    expect(reply.headers['connection']).toBe('close');
    expect(JSON.parse(reply.body)).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: 'Forbidden' } });
    reply.client.end();
  });

  test('a 401 refusal carries the hook’s WWW-Authenticate and not its reason', {
    tags: ['threat-model'],
  }, async () => {
    const events: HttpLogEvent[] = [];
    const port = await serveWith({
      authorize: () => ({
        ok: false,
        status: 401,
        headers: { 'www-authenticate': 'Bearer resource_metadata="https://a.example/.well-known"' },
        reason: 'token expired SECRET-REASON',
      }),
      onLog: (event) => events.push(event),
    });
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.statusLine).toBe('HTTP/1.1 401 Unauthorized');
    expect(reply.headers['www-authenticate']).toBe(
      'Bearer resource_metadata="https://a.example/.well-known"',
    );
    expect(reply.client.text()).not.toContain('SECRET-REASON');
    expect(events).toEqual([
      { kind: 'refusal', rule: 'authorize', status: 401, reason: 'token expired SECRET-REASON' },
    ]);
    reply.client.end();
  });

  test('a hook header value holding CR LF is left out, not written', { tags: ['threat-model'] }, async () => {
    const port = await serveWith({
      authorize: () => ({
        ok: false,
        status: 401,
        headers: { 'www-authenticate': 'Bearer\r\nX-Injected: 1' },
      }),
    });
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.statusLine).toBe('HTTP/1.1 401 Unauthorized');
    expect(reply.headers['www-authenticate']).toBeUndefined();
    expect(reply.headers['x-injected']).toBeUndefined();
    reply.client.end();
  });

  test('a 429 refusal carries Retry-After', { tags: ['threat-model'] }, async () => {
    const port = await serveWith({
      authorize: () => ({ ok: false, status: 429, headers: { 'retry-after': '30' } }),
    });
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.statusLine).toBe('HTTP/1.1 429 Too Many Requests');
    expect(reply.headers['retry-after']).toBe('30');
    reply.client.end();
  });

  test('a 403 refusal carries the hook’s WWW-Authenticate, as an insufficient_scope challenge needs', {
    tags: ['threat-model'],
  }, async () => {
    const challenge = 'Bearer error="insufficient_scope", scope="files:write"';
    const port = await serveWith({
      authorize: () => ({ ok: false, status: 403, headers: { 'www-authenticate': challenge } }),
    });
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.statusLine).toBe('HTTP/1.1 403 Forbidden');
    expect(reply.headers['www-authenticate']).toBe(challenge);
    reply.client.end();
  });

  test('a 400 refusal carries its WWW-Authenticate and the fixed body "Bad request"', {
    tags: ['threat-model'],
  }, async () => {
    const challenge = 'Bearer error="invalid_request"';
    const port = await serveWith({
      authorize: () => ({ ok: false, status: 400, headers: { 'www-authenticate': challenge } }),
    });
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(reply.headers['www-authenticate']).toBe(challenge);
    expect(JSON.parse(reply.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Bad request' },
    });
    reply.client.end();
  });

  test('a 503 refusal carries Retry-After and no WWW-Authenticate, with -32603 "Service unavailable"', {
    tags: ['threat-model'],
  }, async () => {
    const port = await serveWith({
      authorize: () => ({
        ok: false,
        status: 503,
        headers: { 'retry-after': '5', 'www-authenticate': 'Bearer' },
      }),
    });
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.statusLine).toBe('HTTP/1.1 503 Service Unavailable');
    expect(reply.headers['retry-after']).toBe('5');
    expect(reply.headers['www-authenticate']).toBeUndefined();
    expect(JSON.parse(reply.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32603, message: 'Service unavailable' },
    });
    reply.client.end();
  });

  test('a 429 refusal sends no WWW-Authenticate and a 401 no Retry-After', {
    tags: ['threat-model'],
  }, async () => {
    const both = { 'www-authenticate': 'Bearer', 'retry-after': '30' };
    const port = await serveWith({
      authorize: (request) =>
        request.headers['x-status'] === '429'
          ? { ok: false, status: 429, headers: both }
          : { ok: false, status: 401, headers: both },
    });
    const limited = await exchange(port, post(LIST.body, { ...LIST.headers, 'X-Status': '429' }));
    expect(limited.status).toBe(429);
    expect(limited.headers['www-authenticate']).toBeUndefined();
    limited.client.end();
    const unauthorized = await exchange(port, post(LIST.body, LIST.headers));
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers['retry-after']).toBeUndefined();
    unauthorized.client.end();
  });

  test.each([
    ['500', 500],
    ['418', 418],
    ['"401"', '401'],
  ])('a refusal naming status %s is answered 403', { tags: ['threat-model'] }, async (_name, status) => {
    const port = await serveWith({
      authorize: () => ({ ok: false, status }) as unknown as { ok: false },
    });
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.status).toBe(403);
    reply.client.end();
  });

  test('a refusal’s rule name is logged and published in place of authorize; a malformed one is not', {
    tags: ['threat-model'],
  }, async () => {
    const events: HttpLogEvent[] = [];
    const published: unknown[] = [];
    const listener = (message: unknown): void => {
      published.push(message);
    };
    subscribe(HTTP_REFUSAL_CHANNEL, listener);
    try {
      const port = await serveWith({
        authorize: (request) => ({
          ok: false,
          status: 401,
          rule: request.headers['x-rule'] as string,
        }),
        onLog: (event) => events.push(event),
      });
      for (const rule of ['bearer-expired', 'Bearer Expired', `a${'b'.repeat(64)}`]) {
        const reply = await exchange(port, post(LIST.body, { ...LIST.headers, 'X-Rule': rule }));
        expect(reply.status).toBe(401);
        reply.client.end();
      }
    } finally {
      unsubscribe(HTTP_REFUSAL_CHANNEL, listener);
    }
    expect(events.map((event) => event.rule)).toEqual(['bearer-expired', 'authorize', 'authorize']);
    expect(published).toEqual([
      { rule: 'bearer-expired', status: 401, code: -32600 },
      { rule: 'authorize', status: 401, code: -32600 },
      { rule: 'authorize', status: 401, code: -32600 },
    ]);
  });

  test('a hook that throws is answered 500 with -32603 and reported as a fault', {
    tags: ['threat-model'],
  }, async () => {
    const faults: string[] = [];
    const port = await serveWith({
      authorize: () => {
        throw new Error('hook bug');
      },
      onFault: (description) => faults.push(description),
    });
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.statusLine).toBe('HTTP/1.1 500 Internal Server Error');
    expect(JSON.parse(reply.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32603, message: 'Internal error' },
    });
    expect(reply.body).not.toContain('hook bug');
    expect(faults).toEqual(['authorize threw or rejected']);
    reply.client.end();
  });

  test('a hook that rejects is answered 500', { tags: ['threat-model'] }, async () => {
    const port = await serveWith({ authorize: () => Promise.reject(new Error('nope')) });
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.status).toBe(500);
    reply.client.end();
  });

  test('a hook that never settles is refused 403 once the read deadline passes', {
    tags: ['threat-model'],
  }, async () => {
    const port = await serveWith({ authorize: () => new Promise(() => {}), readTimeoutMs: 200 });
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.status).toBe(403);
    reply.client.end();
  });

  test('the hook sees method, the target with its query, a null-prototype header copy, raw headers and the peer address', {
    tags: ['threat-model'],
  }, async () => {
    let seen: unknown;
    const port = await serveWith({
      authorize: (request) => {
        seen = request;
        return { ok: true };
      },
    });
    const reply = await exchange(
      port,
      post(LIST.body, { ...LIST.headers, Authorization: 'Bearer t' }).replace(
        'POST /mcp ',
        'POST /mcp?access_token=t ',
      ),
    );
    expect(reply.status).toBe(200);
    const request = seen as {
      method: string;
      target: string;
      headers: object;
      rawHeaders: string[];
      remoteAddress: string;
    };
    expect(request.method).toBe('POST');
    expect(request.target).toBe('/mcp?access_token=t');
    expect(Object.getPrototypeOf(request.headers)).toBeNull();
    expect((request.headers as Record<string, string>)['authorization']).toBe('Bearer t');
    expect(request.rawHeaders).toContain('Authorization');
    expect(request.remoteAddress).toBe('127.0.0.1');
    expect(Object.keys(request).sort()).toEqual([
      'headers',
      'method',
      'rawHeaders',
      'remoteAddress',
      'target',
    ]);
    reply.client.end();
  });

  test('what auth carries reaches the handler as ctx.auth', { tags: ['threat-model'] }, async () => {
    let reached: unknown;
    const server = createServer({
      name: 'auth',
      version: '1',
      tools: [
        defineTool({
          name: 'whoami',
          inputSchema: { type: 'object' },
          handler: (_args, ctx) => {
            reached = ctx.auth;
            return { content: [] };
          },
        }),
      ],
    });
    const mounted = await closeLater(
      mount(
        createHttpHandler(server, {
          ...ADMIT_ALL,
          authorize: () => ({ ok: true, auth: { subject: 'alice' } }),
        }),
      ),
    );
    const call = modernRequest(3, 'tools/call', { name: 'whoami', arguments: {} });
    const reply = await exchange(mounted.port, post(call.body, call.headers));
    expect(reply.status).toBe(200);
    expect(reached).toEqual({ subject: 'alice' });
    reply.client.end();
  });

  test('authorize runs before the body is read: a refused caller that never sends its body is answered', {
    tags: ['threat-model'],
  }, async () => {
    const port = await serveWith({ authorize: () => ({ ok: false }) });
    const reply = await exchange(port, post('', { ...ECHO.headers, 'Content-Length': 1_000 }));
    expect(reply.status).toBe(403);
    await reply.client.closed;
  });
});
