/**
 * The handshake revisions before 2025-11-25 over real stdio pipes: `initialize` answers with the
 * revision the client asked for, and everything after it is shaped to that revision's schema
 * (protocol/revisions/): a member the schema does not define is left out, a content block of a
 * type it does not define is left out, and what it requires is there. The catalog (widest.ts)
 * uses every member some revision lacks.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ANNOTATIONS, ICON, META } from '../fixtures/widest.js';
import { type Json, type StdioPeer, startStdioServer } from '../support/stdio-peer.js';

function initialize(protocolVersion: string): Json {
  return {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion, capabilities: {}, clientInfo: { name: 'test', version: '1' } },
  };
}

/** A process initialized at `revision`; the `initialize` result is kept for the tests to read. */
async function openAt(
  revision: string,
  args: readonly string[] = [],
): Promise<{ peer: StdioPeer; init: Json }> {
  const peer = startStdioServer('widest', args);
  const init = await peer.request(initialize(revision));
  peer.sendJson({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return { peer, init };
}

const request = (id: number, method: string, params: Json = {}): Json => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
});

async function resultOf(peer: StdioPeer, id: number, method: string, params: Json = {}): Promise<Json> {
  const reply = await peer.request(request(id, method, params));
  expect(reply['id']).toBe(id);
  return reply['result'] as Json;
}

const INPUT_SCHEMA = { type: 'object', additionalProperties: false };
const STRUCTURED_TEXT = { type: 'text', text: '{"ok":true}' };

describe('initialize negotiates the revision the client asks for', () => {
  test.each(['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'])(
    'initialize asking for %s over stdio is answered with it',
    async (revision) => {
      const { peer, init } = await openAt(revision);
      try {
        expect((init['result'] as Json)['protocolVersion']).toBe(revision);
      } finally {
        await peer.close();
      }
    },
  );

  test('a server narrowed to older revisions counters an unserved version with the newest it serves', {
    tags: ['threat-model'],
  }, async () => {
    const { peer, init } = await openAt('2025-11-25', ['--only=2025-03-26', '--only=2024-11-05']);
    try {
      expect((init['result'] as Json)['protocolVersion']).toBe('2025-03-26');
    } finally {
      await peer.close();
    }
  });

  test('server/discover over stdio lists every revision served there, 2024-11-05 included', async () => {
    const peer = startStdioServer('widest');
    try {
      const reply = await peer.request({
        ...request(1, 'server/discover'),
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      });
      expect((reply['result'] as Json)['supportedVersions']).toEqual([
        '2026-07-28',
        '2025-11-25',
        '2025-06-18',
        '2025-03-26',
        '2024-11-05',
      ]);
    } finally {
      await peer.close();
    }
  });
});

describe('2025-06-18 over stdio', () => {
  let peer: StdioPeer;
  let init: Json;
  beforeAll(async () => {
    ({ peer, init } = await openAt('2025-06-18'));
  });
  afterAll(async () => {
    await peer.close();
  });

  test('initialize names the server with its title but without icons', () => {
    expect(init['result']).toEqual({
      protocolVersion: '2025-06-18',
      capabilities: {
        tools: { listChanged: false },
        resources: { subscribe: false, listChanged: false },
        prompts: { listChanged: false },
        logging: {},
        completions: {},
      },
      serverInfo: { name: 'widest', version: '1.0.0', title: 'Widest' },
      instructions: 'Every member some revision lacks.',
    });
  });

  test('tools/list keeps titles, _meta and object-root output schemas, and leaves out icons', async () => {
    const { tools } = (await resultOf(peer, 1, 'tools/list')) as { tools: Json[] };
    expect(tools.find((tool) => tool['name'] === 'everything')).toEqual({
      name: 'everything',
      title: 'Everything',
      description: 'Returns one block of each kind and structured content.',
      annotations: { title: 'Everything', readOnlyHint: true },
      _meta: META,
      inputSchema: INPUT_SCHEMA,
      outputSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
    });
    // An array root is not an outputSchema 2025-06-18 defines.
    expect(tools.find((tool) => tool['name'] === 'array_out')).toEqual({
      name: 'array_out',
      inputSchema: { type: 'object' },
    });
  });

  test('a tool result keeps resource_link and structuredContent, without the link’s icons', async () => {
    const result = await resultOf(peer, 2, 'tools/call', { name: 'everything' });
    expect(result).toEqual({
      content: [
        { type: 'text', text: 'a text', annotations: ANNOTATIONS, _meta: META },
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png', _meta: META },
        { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav', annotations: ANNOTATIONS },
        {
          type: 'resource_link',
          uri: 'widest://doc',
          name: 'doc',
          title: 'A document',
          mimeType: 'text/plain',
          _meta: META,
        },
        {
          type: 'resource',
          resource: { uri: 'widest://doc', mimeType: 'text/plain', text: 'doc', _meta: META },
          _meta: META,
        },
        STRUCTURED_TEXT,
      ],
      structuredContent: { ok: true },
      _meta: META,
    });
  });

  test('structured content that is no object goes in the text block alone', async () => {
    expect(await resultOf(peer, 3, 'tools/call', { name: 'array_out' })).toEqual({
      content: [{ type: 'text', text: '[1,2]' }],
    });
  });

  test('resources, templates and prompts are listed without icons', async () => {
    const { resources } = (await resultOf(peer, 4, 'resources/list')) as { resources: Json[] };
    expect(resources.find((resource) => resource['name'] === 'doc')).toEqual({
      uri: 'widest://doc',
      name: 'doc',
      title: 'A document',
      description: 'A text document.',
      mimeType: 'text/plain',
      size: 3,
      annotations: ANNOTATIONS,
      _meta: META,
    });
    expect(await resultOf(peer, 5, 'resources/templates/list')).toEqual({
      resourceTemplates: [
        {
          uriTemplate: 'widest://notes/{id}',
          name: 'note',
          title: 'A note',
          annotations: { audience: ['assistant'], lastModified: '2025-01-01T00:00:00Z' },
          _meta: META,
        },
      ],
    });
    expect(await resultOf(peer, 6, 'prompts/list')).toEqual({
      prompts: [
        {
          name: 'mixed',
          title: 'Mixed',
          description: 'One message of each content kind.',
          _meta: META,
          arguments: [{ name: 'topic', title: 'Topic', description: 'What about', required: true }],
        },
      ],
    });
  });
});

describe('2025-03-26 over stdio', () => {
  let peer: StdioPeer;
  let init: Json;
  beforeAll(async () => {
    ({ peer, init } = await openAt('2025-03-26'));
  });
  afterAll(async () => {
    await peer.close();
  });

  test('initialize names the server by name and version only', () => {
    expect((init['result'] as Json)['serverInfo']).toEqual({ name: 'widest', version: '1.0.0' });
    expect(Object.keys((init['result'] as Json)['capabilities'] as Json).sort()).toEqual([
      'completions',
      'logging',
      'prompts',
      'resources',
      'tools',
    ]);
  });

  test('tools/list leaves out title, icons, _meta and outputSchema, and keeps tool annotations', async () => {
    const { tools } = (await resultOf(peer, 1, 'tools/list')) as { tools: Json[] };
    expect(tools.find((tool) => tool['name'] === 'everything')).toEqual({
      name: 'everything',
      description: 'Returns one block of each kind and structured content.',
      annotations: { title: 'Everything', readOnlyHint: true },
      inputSchema: INPUT_SCHEMA,
    });
  });

  test('a tool result has no structuredContent, no resource_link, no _meta on blocks and no lastModified', {
    tags: ['threat-model'],
  }, async () => {
    const result = await resultOf(peer, 2, 'tools/call', { name: 'everything' });
    const annotations = { audience: ['user'], priority: 0.5 };
    expect(result).toEqual({
      content: [
        { type: 'text', text: 'a text', annotations },
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav', annotations },
        { type: 'resource', resource: { uri: 'widest://doc', mimeType: 'text/plain', text: 'doc' } },
        STRUCTURED_TEXT,
      ],
      // A result's own `_meta` is defined in every revision.
      _meta: META,
    });
  });

  test('resources and templates are listed without title, icons, _meta or lastModified', async () => {
    const { resources } = (await resultOf(peer, 3, 'resources/list')) as { resources: Json[] };
    expect(resources.find((resource) => resource['name'] === 'doc')).toEqual({
      uri: 'widest://doc',
      name: 'doc',
      description: 'A text document.',
      mimeType: 'text/plain',
      size: 3,
      annotations: { audience: ['user'], priority: 0.5 },
    });
    expect(await resultOf(peer, 4, 'resources/templates/list')).toEqual({
      resourceTemplates: [
        { uriTemplate: 'widest://notes/{id}', name: 'note', annotations: { audience: ['assistant'] } },
      ],
    });
  });

  test('resource contents carry no _meta, text or blob', async () => {
    expect(await resultOf(peer, 5, 'resources/read', { uri: 'widest://doc' })).toEqual({
      contents: [{ uri: 'widest://doc', mimeType: 'text/plain', text: 'doc' }],
    });
    expect(await resultOf(peer, 6, 'resources/read', { uri: 'widest://bytes' })).toEqual({
      contents: [{ uri: 'widest://bytes', blob: 'AQI=' }],
    });
  });

  test('prompts are listed without titles, and a message with a resource_link is left out', async () => {
    expect(await resultOf(peer, 7, 'prompts/list')).toEqual({
      prompts: [
        {
          name: 'mixed',
          description: 'One message of each content kind.',
          arguments: [{ name: 'topic', description: 'What about', required: true }],
        },
      ],
    });
    expect(await resultOf(peer, 8, 'prompts/get', { name: 'mixed', arguments: { topic: 'x' } })).toEqual({
      messages: [
        { role: 'user', content: { type: 'text', text: 'About x' } },
        { role: 'user', content: { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' } },
        { role: 'user', content: { type: 'resource', resource: { uri: 'widest://doc', text: 'doc' } } },
      ],
    });
  });

  test('a batch is refused by name, as on every revision', { tags: ['threat-model'] }, async () => {
    peer.send(`[${JSON.stringify(request(20, 'tools/list'))}]\n`);
    expect(await peer.nextMessage()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid request: batch (array) messages are not supported' },
    });
  });

  test('progress keeps its message', async () => {
    peer.sendJson(request(9, 'tools/call', { name: 'step', _meta: { progressToken: 'p' } }));
    expect(await peer.nextMessage()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 'p', progress: 1, total: 2, message: 'halfway' },
    });
    expect(await peer.nextMessage()).toMatchObject({ id: 9, result: { content: [{ text: 'stepped' }] } });
  });
});

describe('2024-11-05 over stdio', () => {
  let peer: StdioPeer;
  let init: Json;
  beforeAll(async () => {
    ({ peer, init } = await openAt('2024-11-05'));
  });
  afterAll(async () => {
    await peer.close();
  });

  test('initialize advertises no completions capability, which 2024-11-05 does not define', () => {
    expect((init['result'] as Json)['capabilities']).toEqual({
      tools: { listChanged: false },
      resources: { subscribe: false, listChanged: false },
      prompts: { listChanged: false },
      logging: {},
    });
  });

  test('completion/complete is still answered: the method is 2024-11-05’s, only the capability key is not', async () => {
    const result = await resultOf(peer, 1, 'completion/complete', {
      ref: { type: 'ref/resource', uri: 'widest://notes/{id}' },
      argument: { name: 'id', value: 'a' },
    });
    expect(result).toEqual({ completion: { values: ['a1'], total: 1, hasMore: false } });
  });

  test('tools are listed without annotations', async () => {
    const { tools } = (await resultOf(peer, 2, 'tools/list')) as { tools: Json[] };
    expect(tools.find((tool) => tool['name'] === 'everything')).toEqual({
      name: 'everything',
      description: 'Returns one block of each kind and structured content.',
      inputSchema: INPUT_SCHEMA,
    });
  });

  test('audio is left out of a tool result, and a result of audio alone has empty content', {
    tags: ['threat-model'],
  }, async () => {
    const result = await resultOf(peer, 3, 'tools/call', { name: 'everything' });
    expect((result['content'] as Json[]).map((block) => block['type'])).toEqual([
      'text',
      'image',
      'resource',
      'text',
    ]);
    expect(await resultOf(peer, 4, 'tools/call', { name: 'sound' })).toEqual({ content: [] });
  });

  test('a prompt message with audio is left out', async () => {
    const result = await resultOf(peer, 5, 'prompts/get', { name: 'mixed', arguments: { topic: 'x' } });
    expect((result['messages'] as Json[]).map((message) => (message['content'] as Json)['type'])).toEqual([
      'text',
      'resource',
    ]);
  });

  test('progress carries no message, which 2024-11-05 does not define', async () => {
    peer.sendJson(request(6, 'tools/call', { name: 'step', _meta: { progressToken: 7 } }));
    expect(await peer.nextMessage()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 7, progress: 1, total: 2 },
    });
    await peer.nextMessage();
  });

  test('a resource nobody serves is -32002 with its uri', async () => {
    expect(await peer.request(request(8, 'resources/read', { uri: 'widest://missing' }))).toEqual({
      jsonrpc: '2.0',
      id: 8,
      error: { code: -32002, message: 'Resource not found', data: { uri: 'widest://missing' } },
    });
  });

  test('the icons a 2025-11-25 client sees are the host’s own', async () => {
    const fresh = await openAt('2025-11-25');
    try {
      const reply = await fresh.peer.request(request(1, 'resources/list'));
      const listed = (reply['result'] as { resources: Json[] }).resources;
      expect(listed.find((resource) => resource['name'] === 'doc')?.['icons']).toEqual([ICON]);
    } finally {
      await fresh.peer.close();
    }
  });
});
