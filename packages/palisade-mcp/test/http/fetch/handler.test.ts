/**
 * createFetchHandler behind a real listening server (@hono/node-server converts each node request
 * to a Web Request), driven by raw bytes so every rule is observed as a client sees it.
 */
import { describe, expect, test } from 'vitest';
import { createFetchHandler } from '../../../src/http/fetch/handler.js';
import type { HttpHandlerOptions } from '../../../src/http/node/handler.js';
import { createServer, defineTool } from '../../../src/index.js';
import { closeAfterEach } from '../../support/close-after-each.js';
import { abortOf, deferred } from '../../support/deferred.js';
import { listenFetch, mountFetchHandler } from '../../support/fetch-peer.js';
import {
  ADMIT_ALL,
  basicServer,
  exchange,
  LIST,
  modernRequest,
  post,
  RawClient,
  refusalBody,
} from '../../support/http-peer.js';
import { BODY_CONSUMED, expectEchoAnswered } from '../../support/mount-checks.js';

const closeLater = closeAfterEach();

async function serveWith(options: Partial<HttpHandlerOptions> = {}): Promise<number> {
  const mounted = await closeLater(mountFetchHandler(options));
  return mounted.port;
}

/** The head of a chunked POST of LIST's headers, with no Content-Length. */
function chunkedHead(): string {
  const bytes = post('', { ...LIST.headers, 'Content-Length': undefined, 'Transfer-Encoding': 'chunked' });
  return bytes;
}

function chunk(text: string): string {
  return `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
}

describe('the fetch handler: answers', () => {
  test('the fetch handler answers a tools/call with its result as application/json', async () => {
    await expectEchoAnswered(await serveWith());
  });

  test('the fetch handler answers a body sent chunked, with no Content-Length, counted as it arrives', async () => {
    const port = await serveWith();
    const reply = await exchange(port, `${chunkedHead()}${chunk(LIST.body)}0\r\n\r\n`);
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({ id: 1, result: { tools: expect.any(Array) } });
    reply.client.end();
  });

  test('the fetch handler answers a tools/call that reports progress as an SSE stream ending with the result', async () => {
    const port = await serveWith();
    const call = modernRequest(4, 'tools/call', {
      name: 'progress',
      arguments: {},
      _meta: { progressToken: 'p' },
    });
    const client = new RawClient(port);
    client.send(post(call.body, call.headers));
    // The chunked stream's last chunk: the whole SSE body has arrived.
    await client.until((text) => text.includes('\r\n0\r\n\r\n'));
    const text = client.text();
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(text).toContain('content-type: text/event-stream');
    const events = [...text.matchAll(/^data: (.*)$/gm)].map((match) => JSON.parse(match[1] ?? ''));
    expect(events[0]).toMatchObject({ method: 'notifications/progress', params: { progressToken: 'p' } });
    expect(events.at(-1)).toMatchObject({ id: 4, result: { content: [{ text: 'done' }] } });
    client.end();
  });

  test('the fetch handler answers a notification with 202 and no body', async () => {
    const port = await serveWith();
    const body = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const reply = await exchange(port, post(body, { 'MCP-Protocol-Version': '2025-11-25' }));
    expect(reply.status).toBe(202);
    expect(reply.body).toBe('');
    reply.client.end();
  });
});

describe('the fetch handler: a client that leaves', () => {
  test('the fetch handler cancels a 2026-07-28 request whose client disconnects before the answer', async () => {
    const abortSeen = deferred();
    const server = createServer({
      name: 'leave',
      version: '1',
      tools: [
        defineTool({
          name: 'wait',
          inputSchema: { type: 'object' },
          handler: async (_args, ctx) => {
            await abortOf(ctx.signal);
            abortSeen.resolve();
            return { content: [] };
          },
        }),
      ],
    });
    const mounted = await closeLater(listenFetch(createFetchHandler(server, ADMIT_ALL)));
    const call = modernRequest(5, 'tools/call', { name: 'wait', arguments: {} });
    // JSON only: nothing is written before the result, so only the request's signal can tell.
    const client = new RawClient(mounted.port);
    client.send(post(call.body, { ...call.headers, Accept: 'application/json' }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    client.end();
    await abortSeen.promise;
  });
});

describe('the fetch handler: refusals in the node handler’s words', () => {
  test('the fetch handler refuses a Host not on the list with 421', { tags: ['threat-model'] }, async () => {
    const port = await serveWith();
    const reply = await exchange(port, post(LIST.body, { ...LIST.headers, Host: 'evil.example' }));
    expect(reply.status).toBe(421);
    expect(JSON.parse(reply.body)).toEqual(refusalBody(-32600, 'Invalid request: Host not allowed'));
    reply.client.end();
  });

  test('the fetch handler refuses two Host lines, which reach it joined by a comma, with 400', {
    tags: ['threat-model'],
  }, async () => {
    const port = await serveWith();
    const reply = await exchange(
      port,
      post(LIST.body, { ...LIST.headers, Host: ['127.0.0.1', 'localhost'] }),
    );
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toEqual(refusalBody(-32600, 'Invalid request: more than one Host header'));
    reply.client.end();
  });

  test('the fetch handler refuses an Origin not on the list with 403', {
    tags: ['threat-model'],
  }, async () => {
    const port = await serveWith();
    const reply = await exchange(port, post(LIST.body, { ...LIST.headers, Origin: 'http://evil.example' }));
    expect(reply.status).toBe(403);
    expect(JSON.parse(reply.body)).toEqual(refusalBody(-32600, 'Invalid request: Origin not allowed'));
    reply.client.end();
  });

  test('the fetch handler refuses a GET with 405 and Allow: POST', { tags: ['threat-model'] }, async () => {
    const port = await serveWith();
    const reply = await exchange(port, post('', { 'Content-Length': undefined }, 'GET'));
    expect(reply.status).toBe(405);
    expect(reply.headers['allow']).toBe('POST');
    expect(JSON.parse(reply.body)).toEqual(refusalBody(-32600, 'Invalid request: only POST is served here'));
    reply.client.end();
  });

  test('the fetch handler refuses a caller its authorize refuses with 401 and its WWW-Authenticate', {
    tags: ['threat-model'],
  }, async () => {
    const port = await serveWith({
      authorize: (request) =>
        request.headers['authorization'] === 'Bearer right'
          ? { ok: true }
          : { ok: false, status: 401, headers: { 'www-authenticate': 'Bearer' } },
    });
    const reply = await exchange(port, post(LIST.body, { ...LIST.headers, Authorization: 'Bearer wrong' }));
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toBe('Bearer');
    expect(JSON.parse(reply.body)).toEqual(refusalBody(-32600, 'Unauthorized'));
    reply.client.end();
  });

  test('the fetch handler refuses an Accept without application/json with 406', {
    tags: ['threat-model'],
  }, async () => {
    const port = await serveWith();
    const reply = await exchange(port, post(LIST.body, { ...LIST.headers, Accept: 'text/html' }));
    expect(reply.status).toBe(406);
    expect(JSON.parse(reply.body)).toEqual(
      refusalBody(-32600, 'Invalid request: Accept must admit application/json'),
    );
    reply.client.end();
  });

  test('the fetch handler refuses a Content-Type other than application/json with 415', {
    tags: ['threat-model'],
  }, async () => {
    const port = await serveWith();
    const reply = await exchange(port, post(LIST.body, { ...LIST.headers, 'Content-Type': 'text/plain' }));
    expect(reply.status).toBe(415);
    expect(JSON.parse(reply.body)).toEqual(
      refusalBody(-32600, 'Invalid request: Content-Type must be application/json'),
    );
    reply.client.end();
  });

  test('the fetch handler refuses a Content-Length over 1 MiB with 413 before any body byte is sent', {
    tags: ['threat-model'],
  }, async () => {
    const port = await serveWith();
    const reply = await exchange(port, post('', { ...LIST.headers, 'Content-Length': 1_048_577 }));
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.body)).toEqual(
      refusalBody(-32600, 'Invalid request: message exceeds 1048576 bytes'),
    );
    reply.client.end();
  });

  test('the fetch handler refuses a chunked body with no Content-Length with 413 at the byte past 1 MiB, while it still streams', {
    tags: ['threat-model'],
  }, async () => {
    const port = await serveWith();
    const client = new RawClient(port);
    client.send(chunkedHead());
    // 64 KiB a chunk, without end: the answer must come from counting, not from a final length.
    const piece = chunk('a'.repeat(65_536));
    for (let sent = 0; sent <= 1_048_576; sent += 65_536) client.send(piece);
    const reply = await client.response();
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.body)).toEqual(
      refusalBody(-32600, 'Invalid request: message exceeds 1048576 bytes'),
    );
    client.end();
  });

  test('the fetch handler refuses a body dripped slower than the deadline with 408 before it ends', {
    tags: ['threat-model'],
  }, async () => {
    const port = await serveWith({ readTimeoutMs: 300 });
    const client = new RawClient(port);
    client.send(chunkedHead());
    // One byte every 50 ms: each gap far inside the deadline, the whole body (~5 s) far beyond it.
    let sent = 0;
    const drip = setInterval(() => {
      if (sent < LIST.body.length && !client.socket.destroyed) client.send(chunk(LIST.body[sent++] ?? ''));
    }, 50);
    const reply = await client.response();
    clearInterval(drip);
    expect(reply.status).toBe(408);
    expect(JSON.parse(reply.body)).toEqual(
      refusalBody(-32600, 'Invalid request: the body did not arrive within the read deadline'),
    );
    expect(sent).toBeLessThan(LIST.body.length);
    client.end();
  });

  test('the fetch handler refuses a body that stops arriving with 408 at the deadline, not when the client gives up', {
    tags: ['threat-model'],
  }, async () => {
    const port = await serveWith({ readTimeoutMs: 300 });
    const client = new RawClient(port);
    const started = performance.now();
    client.send(`${chunkedHead()}${chunk(LIST.body.slice(0, 10))}`);
    const reply = await client.response();
    expect(reply.status).toBe(408);
    // The deadline lapsing answers, with no further byte to notice it by.
    expect(performance.now() - started).toBeLessThan(3_000);
    client.end();
  });

  test('the fetch handler refuses an Mcp-Method that disagrees with the body with 400, -32020 and the request id', {
    tags: ['threat-model'],
  }, async () => {
    const port = await serveWith();
    const reply = await exchange(port, post(LIST.body, { ...LIST.headers, 'Mcp-Method': 'tools/call' }));
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32020, message: 'Header mismatch: Mcp-Method does not match the body' },
    });
    reply.client.end();
  });

  test('the fetch handler refuses a body the framework already read with 500, telling the host why through onFault', async () => {
    const faults: string[] = [];
    const handler = createFetchHandler(basicServer(), {
      ...ADMIT_ALL,
      onFault: (description) => faults.push(description),
    });
    const mounted = await closeLater(
      listenFetch(async (request) => {
        await request.json();
        return handler(request);
      }),
    );
    const reply = await exchange(mounted.port, post(LIST.body, LIST.headers));
    expect(reply.status).toBe(500);
    expect(JSON.parse(reply.body)).toEqual(refusalBody(-32603, 'Internal error'));
    expect(faults).toEqual([BODY_CONSUMED]);
    reply.client.end();
  });
});

describe('the fetch handler: path', () => {
  test('the fetch handler refuses a request to a path other than the one given with 404', {
    tags: ['threat-model'],
  }, async () => {
    const logged: unknown[] = [];
    const port = await serveWith({ path: '/elsewhere', onLog: (event) => logged.push(event) });
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.status).toBe(404);
    expect(JSON.parse(reply.body)).toEqual(
      refusalBody(-32600, 'Invalid request: no MCP endpoint at this path'),
    );
    expect(logged).toEqual([{ kind: 'refusal', rule: 'path-not-found', status: 404 }]);
    reply.client.end();
  });

  test('the fetch handler serves the path it is given whatever the query, and compares it exactly', async () => {
    const port = await serveWith({ path: '/mcp' });
    const withQuery = await exchange(
      port,
      post(LIST.body, LIST.headers).replace('POST /mcp ', 'POST /mcp?x=1 '),
    );
    expect(withQuery.status).toBe(200);
    withQuery.client.end();
    const slashed = await exchange(port, post(LIST.body, LIST.headers).replace('POST /mcp ', 'POST /mcp/ '));
    expect(slashed.status).toBe(404);
    slashed.client.end();
  });
});

describe('the fetch handler: authorizeBody', () => {
  test('the fetch handler hands authorizeBody the exact body bytes and answers the request it admits', async () => {
    const seen: string[] = [];
    const port = await serveWith({
      authorizeBody: (_request, bytes) => {
        seen.push(Buffer.from(bytes).toString('utf8'));
        return { ok: true };
      },
    });
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({ id: 1, result: { tools: expect.any(Array) } });
    expect(seen).toEqual([LIST.body]);
    reply.client.end();
  });

  test('the fetch handler refuses a body authorizeBody refuses with 403, logging its reason', {
    tags: ['threat-model'],
  }, async () => {
    const logged: unknown[] = [];
    const port = await serveWith({
      authorizeBody: () => ({ ok: false, reason: 'signature does not match' }),
      onLog: (event) => logged.push(event),
    });
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.status).toBe(403);
    expect(JSON.parse(reply.body)).toEqual(refusalBody(-32600, 'Forbidden'));
    expect(logged).toEqual([
      { kind: 'refusal', rule: 'authorize-body', status: 403, reason: 'signature does not match' },
    ]);
    reply.client.end();
  });

  test('the fetch handler answers 500 when authorizeBody throws, telling the host through onFault', {
    tags: ['threat-model'],
  }, async () => {
    const faults: Array<[string, unknown]> = [];
    const failure = new Error('key store unreachable');
    const port = await serveWith({
      authorizeBody: () => {
        throw failure;
      },
      onFault: (description, cause) => faults.push([description, cause]),
    });
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.status).toBe(500);
    expect(JSON.parse(reply.body)).toEqual(refusalBody(-32603, 'Internal error'));
    expect(faults).toEqual([['authorizeBody threw or rejected', failure]]);
    reply.client.end();
  });
});

describe('the fetch handler: what a Request does not carry', () => {
  test('a malformed Content-Length never reaches the fetch handler behind @hono/node-server: Node answers 400 and closes', async () => {
    let calls = 0;
    const handler = createFetchHandler(basicServer(), ADMIT_ALL);
    const mounted = await closeLater(
      listenFetch((request) => {
        calls += 1;
        return handler(request);
      }),
    );
    for (const length of ['abc', '+5', '-1', '0x10', '1e3', ['5', '5']]) {
      const client = new RawClient(mounted.port);
      client.send(post(LIST.body, { ...LIST.headers, 'Content-Length': length }));
      await client.closed;
      expect(client.text()).toBe('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    }
    expect(calls).toBe(0);
  });

  test('the fetch handler refuses a malformed Content-Length a runtime lets through with 411, before reading the body', {
    tags: ['threat-model'],
  }, async () => {
    // Node's own Request keeps a Content-Length it is given, as a proxy or a test harness builds one.
    const handler = createFetchHandler(basicServer(), ADMIT_ALL);
    const request = new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: {
        ...(LIST.headers as Record<string, string>),
        'content-type': 'application/json',
        'content-length': 'abc',
      },
      body: LIST.body,
    });
    const response = await handler(request);
    expect(response.status).toBe(411);
    expect(await response.json()).toEqual(refusalBody(-32600, 'Invalid request: Content-Length is required'));
    expect(request.bodyUsed).toBe(false);
  });

  test('authorize sees remoteAddress undefined, since a Request carries no peer address', async () => {
    const seen: unknown[] = [];
    const port = await serveWith({
      authorize: (request) => {
        seen.push(request.remoteAddress);
        return { ok: true };
      },
    });
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.status).toBe(200);
    expect(seen).toEqual([undefined]);
    reply.client.end();
  });
});

describe('the fetch handler: what authorize and authorizeBody may answer', () => {
  test('authorize sees the target with its query, as the node handler’s hook does', async () => {
    const seen: string[] = [];
    const port = await serveWith({
      authorize: (request) => {
        seen.push(request.target);
        return { ok: true };
      },
    });
    const reply = await exchange(
      port,
      post(LIST.body, LIST.headers).replace('POST /mcp ', 'POST /mcp?access_token=t '),
    );
    expect(reply.status).toBe(200);
    expect(seen).toEqual(['/mcp?access_token=t']);
    reply.client.end();
  });

  test('the fetch handler answers a 403 refusal with its WWW-Authenticate and a 503 with Retry-After', {
    tags: ['threat-model'],
  }, async () => {
    const challenge = 'Bearer error="insufficient_scope", scope="a"';
    const port = await serveWith({
      authorize: (request) =>
        request.headers['x-status'] === '503'
          ? { ok: false, status: 503, headers: { 'retry-after': '5' }, rule: 'bearer-key-source-unavailable' }
          : { ok: false, status: 403, headers: { 'www-authenticate': challenge } },
    });
    const forbidden = await exchange(port, post(LIST.body, LIST.headers));
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers['www-authenticate']).toBe(challenge);
    forbidden.client.end();
    const unavailable = await exchange(port, post(LIST.body, { ...LIST.headers, 'X-Status': '503' }));
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers['retry-after']).toBe('5');
    expect(JSON.parse(unavailable.body)).toEqual(refusalBody(-32603, 'Service unavailable'));
    unavailable.client.end();
  });

  test('the fetch handler answers an authorizeBody 403 with its WWW-Authenticate and logs its rule name', {
    tags: ['threat-model'],
  }, async () => {
    const logged: unknown[] = [];
    const challenge = 'Bearer error="insufficient_scope", scope="a"';
    const port = await serveWith({
      authorizeBody: () => ({
        ok: false,
        status: 403,
        headers: { 'www-authenticate': challenge },
        rule: 'bearer-insufficient-scope',
      }),
      onLog: (event) => logged.push(event),
    });
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.status).toBe(403);
    expect(reply.headers['www-authenticate']).toBe(challenge);
    expect(logged).toEqual([{ kind: 'refusal', rule: 'bearer-insufficient-scope', status: 403 }]);
    reply.client.end();
  });
});

describe('createFetchHandler options', () => {
  test('createFetchHandler options are checked once, as createHttpHandler checks them: a missing allowedHosts is named', () => {
    const { allowedHosts: _, ...rest } = ADMIT_ALL;
    expect(() => createFetchHandler(basicServer(), rest as HttpHandlerOptions)).toThrow(/allowedHosts/);
  });
});
