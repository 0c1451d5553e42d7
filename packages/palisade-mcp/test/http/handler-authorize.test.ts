import { afterEach, describe, expect, test } from 'vitest';
import {
  createHttpHandler,
  type HttpHandlerOptions,
  type HttpLogEvent,
} from '../../src/http/node/handler.js';
import { createServer, defineTool } from '../../src/index.js';
import {
  ADMIT_ALL,
  exchange,
  type Mounted,
  modernRequest,
  mount,
  mountHandler,
  post,
} from '../support/http-peer.js';

const ECHO = modernRequest(1, 'tools/call', { name: 'inspect', arguments: {} });
const LIST = modernRequest(2, 'tools/list');

let mounted: Mounted | undefined;
afterEach(async () => {
  await mounted?.close();
  mounted = undefined;
});

async function serveWith(options: Partial<HttpHandlerOptions>): Promise<number> {
  mounted = await mountHandler(options);
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

  test('a refusal with WWW-Authenticate on a 403 sends no WWW-Authenticate', {
    tags: ['threat-model'],
  }, async () => {
    const port = await serveWith({
      authorize: () => ({ ok: false, headers: { 'www-authenticate': 'Bearer' } }),
    });
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.status).toBe(403);
    expect(reply.headers['www-authenticate']).toBeUndefined();
    reply.client.end();
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

  test('the hook sees method, a null-prototype header copy, raw headers and the peer address', {
    tags: ['threat-model'],
  }, async () => {
    let seen: unknown;
    const port = await serveWith({
      authorize: (request) => {
        seen = request;
        return { ok: true };
      },
    });
    const reply = await exchange(port, post(LIST.body, { ...LIST.headers, Authorization: 'Bearer t' }));
    expect(reply.status).toBe(200);
    const request = seen as { method: string; headers: object; rawHeaders: string[]; remoteAddress: string };
    expect(request.method).toBe('POST');
    expect(Object.getPrototypeOf(request.headers)).toBeNull();
    expect((request.headers as Record<string, string>)['authorization']).toBe('Bearer t');
    expect(request.rawHeaders).toContain('Authorization');
    expect(request.remoteAddress).toBe('127.0.0.1');
    expect(Object.keys(request).sort()).toEqual(['headers', 'method', 'rawHeaders', 'remoteAddress']);
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
    mounted = await mount(
      createHttpHandler(server, {
        ...ADMIT_ALL,
        authorize: () => ({ ok: true, auth: { subject: 'alice' } }),
      }),
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
