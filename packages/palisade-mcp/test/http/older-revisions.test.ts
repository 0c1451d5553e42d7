/**
 * The handshake revisions over stateless Streamable HTTP, on a real socket: `initialize`
 * answers with the revision asked for when it is served over HTTP and counters with the newest
 * one served there when not (2024-11-05, whose HTTP+SSE transport is not served, included), and
 * every later POST runs under the revision its `MCP-Protocol-Version` names, or under
 * 2025-03-26 when it names none (that revision defines no such header; later ones tell a server
 * to assume it). Results are shaped to that revision as over stdio
 * (test/protocol/older-revisions.test.ts); here only the transport's part is held.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createFetchHandler } from '../../src/http/fetch/handler.js';
import { createHttpHandler } from '../../src/http/node/handler.js';
import { createServer, type Revision } from '../../src/index.js';
import { widest } from '../fixtures/widest.js';
import { listenFetch } from '../support/fetch-peer.js';
import { ADMIT_ALL, exchange, type Json, type Mounted, mount, post } from '../support/http-peer.js';

const HTTP_REVISIONS = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'];

async function mountWidest(supportedVersions?: readonly Revision[]): Promise<Mounted> {
  const server = createServer(supportedVersions === undefined ? widest : { ...widest, supportedVersions });
  return mount(createHttpHandler(server, ADMIT_ALL));
}

let mounted: Mounted;
beforeAll(async () => {
  mounted = await mountWidest();
});
afterAll(async () => {
  await mounted.close();
});

async function send(message: Json, headers: Record<string, unknown> = {}, on = mounted) {
  const reply = await exchange(on.port, post(JSON.stringify(message), headers));
  reply.client.end();
  return { ...reply, json: reply.body === '' ? undefined : (JSON.parse(reply.body) as Json) };
}

function initialize(protocolVersion: string): Json {
  return {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion, capabilities: {}, clientInfo: { name: 'test', version: '1' } },
  };
}

const LIST_TOOLS = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
const CALL_EVERYTHING = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'everything' } };

function everything(reply: { json: Json | undefined }): Json | undefined {
  const tools = (reply.json?.['result'] as { tools: Json[] } | undefined)?.tools ?? [];
  return tools.find((tool) => tool['name'] === 'everything');
}

describe('initialize over HTTP', () => {
  test.each(['2025-11-25', '2025-06-18', '2025-03-26'])(
    'initialize asking for %s over HTTP is answered with it',
    async (revision) => {
      const reply = await send(initialize(revision));
      expect(reply.status).toBe(200);
      expect(reply.json).toMatchObject({ id: 0, result: { protocolVersion: revision } });
    },
  );

  test.each(['2025-06-18', 'not-a-revision'])(
    'initialize is negotiated from its body, an MCP-Protocol-Version of %s it carries left unread',
    async (header) => {
      const reply = await send(initialize('2025-11-25'), { 'MCP-Protocol-Version': header });
      expect(reply.status).toBe(200);
      expect(reply.json).toMatchObject({ id: 0, result: { protocolVersion: '2025-11-25' } });
    },
  );

  test('initialize asking for 2024-11-05 over HTTP is countered with the newest revision served there', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await send(initialize('2024-11-05'));
    expect(reply.json).toMatchObject({ id: 0, result: { protocolVersion: '2025-11-25' } });
  });

  test('a server serving 2025-03-26 and 2024-11-05 counters 2024-11-05 over HTTP with 2025-03-26', async () => {
    const narrowed = await mountWidest(['2025-03-26', '2024-11-05']);
    try {
      const reply = await send(initialize('2024-11-05'), {}, narrowed);
      expect(reply.json).toMatchObject({ id: 0, result: { protocolVersion: '2025-03-26' } });
    } finally {
      await narrowed.close();
    }
  });

  test('a server whose only handshake revision is 2024-11-05 refuses initialize over HTTP with -32022', async () => {
    const narrowed = await mountWidest(['2026-07-28', '2024-11-05']);
    try {
      const reply = await send(initialize('2024-11-05'), {}, narrowed);
      expect(reply.status).toBe(400);
      expect(reply.json).toEqual({
        jsonrpc: '2.0',
        id: 0,
        error: {
          code: -32022,
          message:
            'Unsupported protocol version: this server serves no revision that opens with initialize over http',
          data: { supported: ['2026-07-28'], requested: '2024-11-05' },
        },
      });
    } finally {
      await narrowed.close();
    }
  });

  test('the serverInfo of a 2025-03-26 initialize has no title, which that revision does not define', async () => {
    const reply = await send(initialize('2025-03-26'));
    expect(reply.json).toMatchObject({ result: expect.anything() });
    expect((reply.json as { result: Json }).result['serverInfo']).toEqual({
      name: 'widest',
      version: '1.0.0',
    });
  });
});

describe('the revision a later POST is served under', () => {
  test('a request naming 2025-06-18 in MCP-Protocol-Version is shaped to 2025-06-18: titles, no icons', async () => {
    const reply = await send(LIST_TOOLS, { 'MCP-Protocol-Version': '2025-06-18' });
    expect(reply.status).toBe(200);
    expect(everything(reply)).toMatchObject({ title: 'Everything', outputSchema: { type: 'object' } });
    expect(everything(reply)?.['icons']).toBeUndefined();
  });

  test('a request without MCP-Protocol-Version is served as 2025-03-26: no title, no outputSchema', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await send(LIST_TOOLS);
    expect(reply.status).toBe(200);
    expect(Object.keys(everything(reply) ?? {}).sort()).toEqual([
      'annotations',
      'description',
      'inputSchema',
      'name',
    ]);
  });

  test('a request naming 2025-03-26 is served as one without the header: no structuredContent', async () => {
    const reply = await send(CALL_EVERYTHING, { 'MCP-Protocol-Version': '2025-03-26' });
    const result = reply.json?.['result'] as Json;
    expect(result['structuredContent']).toBeUndefined();
    expect((result['content'] as Json[]).map((block) => block['type'])).toEqual([
      'text',
      'image',
      'audio',
      'resource',
      'text',
    ]);
  });

  test('a request naming 2024-11-05 is answered 400 with -32022 listing what is served over HTTP', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await send(LIST_TOOLS, { 'MCP-Protocol-Version': '2024-11-05' });
    expect(reply.status).toBe(400);
    expect(reply.json).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: {
        code: -32022,
        message:
          'Unsupported protocol version: the MCP-Protocol-Version header names a revision not served over HTTP',
        data: { supported: HTTP_REVISIONS },
      },
    });
  });

  test('a header naming a revision the host narrowed away is answered 400 with -32022, the value not echoed', async () => {
    const narrowed = await mountWidest(['2026-07-28', '2025-11-25']);
    try {
      const reply = await send(LIST_TOOLS, { 'MCP-Protocol-Version': '2025-06-18' }, narrowed);
      expect(reply.status).toBe(400);
      expect(reply.json).toMatchObject({
        error: { code: -32022, data: { supported: ['2026-07-28', '2025-11-25'] } },
      });
      expect(reply.body).not.toContain('2025-06-18');
    } finally {
      await narrowed.close();
    }
  });

  test('with 2025-03-26 not served, a request with neither _meta nor a version header is answered 400 with -32602 naming _meta', {
    tags: ['threat-model'],
  }, async () => {
    const narrowed = await mountWidest(['2026-07-28', '2025-11-25', '2025-06-18']);
    try {
      const reply = await send(LIST_TOOLS, {}, narrowed);
      expect(reply.status).toBe(400);
      expect(reply.json).toMatchObject({ id: 1, error: { code: -32602 } });
      expect(JSON.stringify(reply.json)).toContain('_meta');
    } finally {
      await narrowed.close();
    }
  });

  test('with 2025-03-26 not served, a ping with neither _meta nor a version header is refused 400 with -32602: no ping comes before a handshake over HTTP', async () => {
    const narrowed = await mountWidest(['2026-07-28', '2025-11-25', '2025-06-18']);
    try {
      const reply = await send({ jsonrpc: '2.0', id: 3, method: 'ping' }, {}, narrowed);
      expect(reply.status).toBe(400);
      expect(reply.json).toMatchObject({ id: 3, error: { code: -32602 } });
      expect(JSON.stringify(reply.json)).toContain('_meta');
    } finally {
      await narrowed.close();
    }
  });

  test('a 2025-03-26 batch is refused 400 by name', { tags: ['threat-model'] }, async () => {
    const reply = await exchange(mounted.port, post(JSON.stringify([LIST_TOOLS])));
    reply.client.end();
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid request: batch (array) messages are not supported' },
    });
  });

  test('an Mcp-Method a 2025-03-26 request carries anyway is still held to its body', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await send(CALL_EVERYTHING, { 'Mcp-Method': 'tools/list' });
    expect(reply.status).toBe(400);
    expect(reply.json).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32020, message: 'Header mismatch: Mcp-Method does not match the body' },
    });
  });
});

describe('what the 2026-07-28 path says of the older revisions over HTTP', () => {
  const discover = {
    jsonrpc: '2.0',
    id: 3,
    method: 'server/discover',
    params: {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  };
  const modernHeaders = { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'server/discover' };

  test('server/discover over HTTP lists every revision served there, and not 2024-11-05', async () => {
    const reply = await send(discover, modernHeaders);
    expect((reply.json as { result: Json }).result['supportedVersions']).toEqual(HTTP_REVISIONS);
  });

  test('a _meta naming 2025-06-18 is -32022 pointing at initialize', async () => {
    const meta = { ...discover.params._meta, 'io.modelcontextprotocol/protocolVersion': '2025-06-18' };
    const reply = await send(
      { ...discover, params: { _meta: meta } },
      { ...modernHeaders, 'MCP-Protocol-Version': '2025-06-18' },
    );
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({
      error: {
        code: -32022,
        message: 'Unsupported protocol version: 2025-06-18 is served through initialize',
        data: { supported: HTTP_REVISIONS, requested: '2025-06-18' },
      },
    });
  });

  test('a _meta naming 2024-11-05 is -32022 as a revision not served over HTTP', async () => {
    const meta = { ...discover.params._meta, 'io.modelcontextprotocol/protocolVersion': '2024-11-05' };
    const reply = await send(
      { ...discover, params: { _meta: meta } },
      { ...modernHeaders, 'MCP-Protocol-Version': '2024-11-05' },
    );
    expect(reply.json).toMatchObject({
      error: { code: -32022, message: 'Unsupported protocol version: the requested revision is not served' },
    });
  });
});

describe('the fetch handler settles the revision as the node handler does', () => {
  let fetchMounted: Mounted;
  beforeAll(async () => {
    fetchMounted = await listenFetch(createFetchHandler(createServer(widest), ADMIT_ALL));
  });
  afterAll(async () => {
    await fetchMounted.close();
  });

  test('a request without MCP-Protocol-Version is served as 2025-03-26 by the fetch handler', async () => {
    const reply = await send(LIST_TOOLS, {}, fetchMounted);
    expect(reply.status).toBe(200);
    expect(everything(reply)?.['title']).toBeUndefined();
    expect(everything(reply)).toMatchObject({ name: 'everything', annotations: { readOnlyHint: true } });
  });

  test('a request naming 2025-06-18 is shaped to it by the fetch handler', async () => {
    const reply = await send(LIST_TOOLS, { 'MCP-Protocol-Version': '2025-06-18' }, fetchMounted);
    expect(everything(reply)).toMatchObject({ title: 'Everything' });
    expect(everything(reply)?.['icons']).toBeUndefined();
  });

  test('a request naming 2024-11-05 is answered 400 with -32022 by the fetch handler', async () => {
    const reply = await send(LIST_TOOLS, { 'MCP-Protocol-Version': '2024-11-05' }, fetchMounted);
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ id: 1, error: { code: -32022, data: { supported: HTTP_REVISIONS } } });
  });
});
