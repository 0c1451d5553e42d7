/**
 * Header–body match details a client can see over a real socket: `MCP-Protocol-Version` is
 * compared as sent (never decoded from `=?base64?...?=`, on either revision), and a declared
 * header's name is shown whole in a refusal up to 64 characters; header names and media types
 * compare in ASCII case, `Z` included; around a media type only spaces and tabs are
 * whitespace, never a no-break space. Written for the mutants of the
 * `http-headers` group that its first run left alive (docs/mutation-testing.md).
 */
import { afterEach, describe, expect, test } from 'vitest';
import { defineTool } from '../../../src/catalog/define-tool.js';
import { createHttpHandler } from '../../../src/http/node/handler.js';
import { createServer } from '../../../src/server.js';
import {
  ADMIT_ALL,
  exchange,
  type Mounted,
  modernRequest,
  mount,
  mountHandler,
  post,
} from '../../support/http-peer.js';

let mounted: Mounted | undefined;
afterEach(async () => {
  await mounted?.close();
  mounted = undefined;
});

/** `=?base64?<text as base64>?=`: how a client sends a header value it cannot send as is. */
const sentinel = (text: string): string => `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;

describe('MCP-Protocol-Version is compared as sent, never decoded', () => {
  test('on 2026-07-28, a version header wrapped as =?base64?...?= is answered 400 -32020, though it decodes to the body’s version', async () => {
    mounted = await mountHandler();
    const list = modernRequest(1, 'tools/list');
    const reply = await exchange(
      mounted.port,
      post(list.body, { ...list.headers, 'MCP-Protocol-Version': sentinel('2026-07-28') }),
    );
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32020, message: 'Header mismatch: MCP-Protocol-Version does not match the body' },
    });
  });

  test('on 2025-11-25, a version header wrapped as =?base64?...?= names no revision served: 400 -32022, though it decodes to 2025-11-25', async () => {
    mounted = await mountHandler();
    const body = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const reply = await exchange(
      mounted.port,
      post(body, { 'MCP-Protocol-Version': sentinel('2025-11-25') }),
    );
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toMatchObject({ jsonrpc: '2.0', id: 2, error: { code: -32022 } });
  });
});

describe('the header a refusal names', () => {
  /** A tool whose one argument is mirrored in `Mcp-Param-<name>`. */
  async function mountWithParamHeader(name: string): Promise<number> {
    const server = createServer({
      name: 'headers',
      version: '1.0.0',
      tools: [
        defineTool<{ value: string }>({
          name: 'mirror',
          description: 'Mirrors one argument in a header.',
          inputSchema: {
            type: 'object',
            properties: { value: { type: 'string', 'x-mcp-header': name } },
            required: ['value'],
            additionalProperties: false,
          },
          handler: ({ value }) => ({ content: [{ type: 'text', text: value }] }),
        }),
      ],
    });
    mounted = await mount(createHttpHandler(server, ADMIT_ALL));
    return mounted.port;
  }

  async function missingHeaderMessage(port: number): Promise<unknown> {
    const call = modernRequest(3, 'tools/call', { name: 'mirror', arguments: { value: 'x' } });
    const reply = await exchange(port, post(call.body, call.headers));
    expect(reply.status).toBe(400);
    return (JSON.parse(reply.body) as { error: { message: unknown } }).error.message;
  }

  test('a header name of exactly 64 characters is shown whole', async () => {
    const header = `Mcp-Param-${'A'.repeat(54)}`;
    expect(header).toHaveLength(64);
    const port = await mountWithParamHeader('A'.repeat(54));
    expect(await missingHeaderMessage(port)).toBe(`Header mismatch: ${header} is missing`);
  });

  test('a header name of 65 characters is cut to 64 and marked with ...', async () => {
    const port = await mountWithParamHeader('A'.repeat(55));
    expect(await missingHeaderMessage(port)).toBe(
      `Header mismatch: Mcp-Param-${'A'.repeat(54)}... is missing`,
    );
  });
});

describe('case in names and media types', () => {
  test('a header name whose only capital letter is Z is matched as its lower-case name', async () => {
    const server = createServer({
      name: 'headers',
      version: '1.0.0',
      tools: [
        defineTool<{ zone: string }>({
          name: 'zoned',
          description: 'Reads a zone mirrored in a header.',
          inputSchema: {
            type: 'object',
            properties: { zone: { type: 'string', 'x-mcp-header': 'zone' } },
            required: ['zone'],
            additionalProperties: false,
          },
          handler: ({ zone }) => ({ content: [{ type: 'text', text: zone }] }),
        }),
      ],
    });
    mounted = await mount(createHttpHandler(server, ADMIT_ALL));
    const call = modernRequest(4, 'tools/call', { name: 'zoned', arguments: { zone: 'eu' } });
    const reply = await exchange(mounted.port, post(call.body, { ...call.headers, 'mcp-param-Zone': 'eu' }));
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({
      id: 4,
      result: { content: [{ type: 'text', text: 'eu' }] },
    });
  });

  // Node reads header bytes as latin1: 0xA0 arrives as U+00A0, which String.prototype.trim drops.
  test('an Accept whose media type is followed by a no-break space names another type: 406', {
    tags: ['threat-model'],
  }, async () => {
    mounted = await mountHandler();
    const list = modernRequest(5, 'tools/list');
    const bytes = Buffer.from(
      post(list.body, { ...list.headers, Accept: 'APPLICATION/JSON\u00a0' }),
      'latin1',
    );
    const reply = await exchange(mounted.port, bytes);
    expect(reply.status).toBe(406);
  });

  test('a Content-Type of application/json followed by a no-break space is another type: 415', {
    tags: ['threat-model'],
  }, async () => {
    mounted = await mountHandler();
    const list = modernRequest(6, 'tools/list');
    const bytes = Buffer.from(
      post(list.body, { ...list.headers, 'Content-Type': 'application/json\u00a0; charset=utf-8' }),
      'latin1',
    );
    const reply = await exchange(mounted.port, bytes);
    expect(reply.status).toBe(415);
  });

  test('an Accept of APPLICATION / JSON with tabs and spaces around its parts admits JSON', async () => {
    mounted = await mountHandler();
    const list = modernRequest(7, 'tools/list');
    const reply = await exchange(
      mounted.port,
      post(list.body, { ...list.headers, Accept: 'APPLICATION\t/ JSON ;q=1' }),
    );
    expect(reply.status).toBe(200);
  });
});

describe('the version header that settles the revision', () => {
  test('a body without _meta whose MCP-Protocol-Version is 2026-07-28 followed by a no-break space is refused -32020, not read as 2026-07-28', async () => {
    mounted = await mountHandler();
    const body = JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/list' });
    const bytes = Buffer.from(post(body, { 'MCP-Protocol-Version': '2026-07-28\u00a0' }), 'latin1');
    const reply = await exchange(mounted.port, bytes);
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toMatchObject({ id: 8, error: { code: -32020 } });
  });
});
