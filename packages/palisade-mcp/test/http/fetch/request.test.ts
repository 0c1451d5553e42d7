/**
 * The request the fetch handler reads from a Web `Request`: header lines a runtime joined with
 * ", " split again, so a repeated MCP header is refused; the raw lines and headers `authorize` is
 * handed; and a target carrying userinfo, which @hono/node-server builds into the Request's URL.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { closeAfterEach } from '../../support/close-after-each.js';
import { mountFetchHandler } from '../../support/fetch-peer.js';
import { exchange, LIST, modernRequest, post } from '../../support/http-peer.js';

const closeLater = closeAfterEach();

afterEach(async () => {
  vi.useRealTimers();
});

describe('the fetch handler: the mirrored headers, whose joined lines are split again', () => {
  async function twoLines(name: string, value: string): Promise<{ status: number; body: unknown }> {
    const mounted = await closeLater(mountFetchHandler());
    const reply = await exchange(mounted.port, post(LIST.body, { ...LIST.headers, [name]: [value, value] }));
    reply.client.end();
    return { status: reply.status, body: JSON.parse(reply.body) };
  }

  test('two MCP-Protocol-Version lines are refused as a repeat with 400 and -32020', {
    tags: ['threat-model'],
  }, async () => {
    expect(await twoLines('MCP-Protocol-Version', '2026-07-28')).toEqual({
      status: 400,
      body: {
        jsonrpc: '2.0',
        id: 1,
        error: {
          code: -32020,
          message: 'Header mismatch: MCP-Protocol-Version is repeated; it must appear once',
        },
      },
    });
  });

  test('two Mcp-Method lines are refused as a repeat with 400 and -32020', {
    tags: ['threat-model'],
  }, async () => {
    expect(await twoLines('Mcp-Method', 'tools/list')).toEqual({
      status: 400,
      body: {
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32020, message: 'Header mismatch: Mcp-Method is repeated; it must appear once' },
      },
    });
  });

  test('two Mcp-Name lines are refused as a repeat with 400 and -32020', {
    tags: ['threat-model'],
  }, async () => {
    const mounted = await closeLater(mountFetchHandler());
    const call = modernRequest(2, 'tools/call', { name: 'echo', arguments: { text: 'hi' } });
    const reply = await exchange(
      mounted.port,
      post(call.body, { ...call.headers, 'Mcp-Name': ['echo', 'echo'] }),
    );
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32020, message: 'Header mismatch: Mcp-Name is repeated; it must appear once' },
    });
    reply.client.end();
  });

  test('authorize sees a header that is not mirrored as the one line it came in, ", " and all', async () => {
    const seen: unknown[] = [];
    const mounted = await closeLater(
      mountFetchHandler({
        authorize: (request) => {
          seen.push(request.rawHeaders);
          return { ok: true };
        },
      }),
    );
    const reply = await exchange(mounted.port, post(LIST.body, { ...LIST.headers, 'X-Trace': 'a, b' }));
    expect(reply.status).toBe(200);
    const raw = seen[0] as readonly string[];
    const pairs = raw.flatMap((value, at) => (at % 2 === 0 ? [[value, raw[at + 1]]] : []));
    expect(pairs.filter(([name]) => name === 'x-trace' || name === 'accept')).toEqual([
      ['accept', 'application/json, text/event-stream'],
      ['x-trace', 'a, b'],
    ]);
    reply.client.end();
  });
});

describe('the fetch handler: the request authorize sees', () => {
  /** What authorize was handed for one request of these raw bytes, its answer's status with it. */
  async function seenBy(bytes: string): Promise<{ status: number; headers: unknown; rawHeaders: unknown }> {
    let seen: { headers: unknown; rawHeaders: unknown } | undefined;
    const mounted = await closeLater(
      mountFetchHandler({
        authorize: (request) => {
          seen = { headers: request.headers, rawHeaders: request.rawHeaders };
          return { ok: true };
        },
      }),
    );
    const reply = await exchange(mounted.port, bytes);
    reply.client.end();
    return { status: reply.status, headers: seen?.headers, rawHeaders: seen?.rawHeaders };
  }

  /** The name/value pairs of `rawHeaders` under `name`. */
  function linesOf(rawHeaders: unknown, name: string): string[][] {
    const raw = rawHeaders as readonly string[];
    return raw.flatMap((value, at) => (at % 2 === 0 && value === name ? [[value, raw[at + 1] ?? '']] : []));
  }

  test('authorize sees two Mcp-Method lines as two raw lines, joined by ", " in headers, before the repeat is refused', async () => {
    const seen = await seenBy(
      post(LIST.body, { ...LIST.headers, 'Mcp-Method': ['tools/list', 'tools/list'] }),
    );
    expect(seen.status).toBe(400);
    expect((seen.headers as Record<string, string>)['mcp-method']).toBe('tools/list, tools/list');
    expect(linesOf(seen.rawHeaders, 'mcp-method')).toEqual([
      ['mcp-method', 'tools/list'],
      ['mcp-method', 'tools/list'],
    ]);
  });

  test('authorize sees each Set-Cookie line of a request, the one header a Request keeps apart', async () => {
    const seen = await seenBy(post(LIST.body, { ...LIST.headers, 'Set-Cookie': ['a=1', 'b=2'] }));
    expect(seen.status).toBe(200);
    expect((seen.headers as Record<string, string>)['set-cookie']).toBe('a=1, b=2');
    expect(linesOf(seen.rawHeaders, 'set-cookie')).toEqual([
      ['set-cookie', 'a=1'],
      ['set-cookie', 'b=2'],
    ]);
  });

  test('authorize’s rawHeaders are the name/value pairs, in the order a Headers object gives them, and nothing else', async () => {
    const seen = await seenBy(post(LIST.body, LIST.headers));
    // A Headers object iterates its names sorted, so that is the order authorize sees.
    expect(seen.rawHeaders).toEqual([
      'accept',
      'application/json, text/event-stream',
      'content-length',
      String(Buffer.byteLength(LIST.body)),
      'content-type',
      'application/json',
      'host',
      '127.0.0.1',
      'mcp-method',
      'tools/list',
      'mcp-protocol-version',
      '2026-07-28',
    ]);
  });
});

describe('the fetch handler: userinfo in an absolute-form target', () => {
  /** A tools/list whose target is absolute-form naming `authority`, with an allowed `Host`. */
  function absoluteForm(authority: string): string {
    return post(LIST.body, LIST.headers).replace(
      'POST /mcp HTTP/1.1',
      `POST http://${authority}/mcp HTTP/1.1`,
    );
  }

  test.each([
    ['a user name alone', 'a@127.0.0.1'],
    ['a password alone', ':b@127.0.0.1'],
  ])('a target carrying %s is refused 400, reporting no fault', async (_name, authority) => {
    const faults: string[] = [];
    const logged: unknown[] = [];
    const mounted = await closeLater(
      mountFetchHandler({
        onFault: (message) => faults.push(message),
        onLog: (event) => logged.push(event),
      }),
    );
    const reply = await exchange(mounted.port, absoluteForm(authority));
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid request: Host disagrees with the request target' },
    });
    expect(logged).toEqual([{ kind: 'refusal', rule: 'host-target-mismatch', status: 400 }]);
    expect(faults).toEqual([]);
    reply.client.end();
  });
});
