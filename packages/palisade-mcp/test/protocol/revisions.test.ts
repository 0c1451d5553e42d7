import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { INITIALIZE, MODERN_META, modern, type StdioPeer, startStdioServer } from '../support/stdio-peer.js';

const SERVER_INFO = { 'io.modelcontextprotocol/serverInfo': { name: 'fixture', version: '1.2.3' } };

describe('2026-07-28: stateless, _meta on every request', () => {
  let peer: StdioPeer;
  beforeAll(() => {
    peer = startStdioServer('basic');
  });
  afterAll(async () => {
    await peer.close();
  });

  test('server/discover answers versions, capabilities, cache hints, resultType and the server identity', async () => {
    const reply = await peer.request(modern(1, 'server/discover'));
    expect(reply).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: {
        supportedVersions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'],
        capabilities: {
          tools: { listChanged: false },
          resources: { subscribe: false, listChanged: false },
          prompts: { listChanged: false },
          logging: {},
          completions: {},
        },
        resultType: 'complete',
        ttlMs: 0,
        cacheScope: 'private',
        _meta: SERVER_INFO,
      },
    });
  });

  test('a request without params is refused with -32602 naming the protocolVersion key', async () => {
    const reply = await peer.request({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(reply['error']).toEqual({
      code: -32602,
      message:
        'Invalid params: params._meta must carry io.modelcontextprotocol/protocolVersion (a 2025-11-25 or earlier client sends initialize first)',
    });
  });

  test('a _meta without clientCapabilities is refused with -32602 naming it', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await peer.request({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/list',
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
    });
    expect(reply['error']).toEqual({
      code: -32602,
      message:
        'Invalid params: params._meta must carry io.modelcontextprotocol/clientCapabilities as an object',
    });
  });

  test('a _meta that is not an object is refused with -32602', async () => {
    const reply = await peer.request({ jsonrpc: '2.0', id: 4, method: 'tools/list', params: { _meta: 'x' } });
    expect(reply['error']).toEqual({
      code: -32602,
      message: 'Invalid params: params._meta must be an object',
    });
  });

  test('an unsupported revision is -32022 with supported and requested', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await peer.request({
      jsonrpc: '2.0',
      id: 5,
      method: 'tools/list',
      params: { _meta: { ...MODERN_META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
    });
    expect(reply).toEqual({
      jsonrpc: '2.0',
      id: 5,
      error: {
        code: -32022,
        message: 'Unsupported protocol version: the requested revision is not served',
        data: {
          supported: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'],
          requested: '2099-01-01',
        },
      },
    });
  });

  test('server/discover checks the revision like any request', async () => {
    const reply = await peer.request({
      jsonrpc: '2.0',
      id: 6,
      method: 'server/discover',
      params: { _meta: { ...MODERN_META, 'io.modelcontextprotocol/protocolVersion': '2024-11-05' } },
    });
    expect(reply).toMatchObject({ id: 6, error: { code: -32022, data: { requested: '2024-11-05' } } });
  });

  test('a 2026-07-28 request whose _meta names 2025-11-25 is -32022 pointing at initialize', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await peer.request({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/list',
      params: { _meta: { ...MODERN_META, 'io.modelcontextprotocol/protocolVersion': '2025-11-25' } },
    });
    expect(reply).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: {
        code: -32022,
        message: 'Unsupported protocol version: 2025-11-25 is served through initialize',
        data: {
          supported: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'],
          requested: '2025-11-25',
        },
      },
    });
  });

  test('the requested version is echoed cut to 64 characters', { tags: ['threat-model'] }, async () => {
    const reply = await peer.request({
      jsonrpc: '2.0',
      id: 8,
      method: 'tools/list',
      params: { _meta: { ...MODERN_META, 'io.modelcontextprotocol/protocolVersion': 'v'.repeat(5000) } },
    });
    expect((reply['error'] as { data: { requested: string } }).data.requested).toBe('v'.repeat(64));
  });

  test.each(['ping', 'logging/setLevel', 'resources/subscribe'])(
    '%s is not a method of 2026-07-28',
    async (method) => {
      const reply = await peer.request(modern(9, method));
      expect(reply).toMatchObject({ id: 9, error: { code: -32601 } });
    },
  );

  test('a log level that is not one is refused with -32602', async () => {
    const reply = await peer.request(
      modern(10, 'tools/list', { _meta: { 'io.modelcontextprotocol/logLevel': 'loud' } }),
    );
    expect(reply).toMatchObject({ id: 10, error: { code: -32602 } });
  });

  test('every result carries resultType and the server identity', async () => {
    const reply = await peer.request(modern(11, 'tools/call', { name: 'echo', arguments: { text: 'hi' } }));
    expect(reply['result']).toMatchObject({ resultType: 'complete', _meta: SERVER_INFO });
  });

  test('capabilities are never carried over from an earlier request', {
    tags: ['threat-model'],
  }, async () => {
    const first = await peer.request(modern(12, 'tools/call', { name: 'echo', arguments: { text: 'a' } }));
    expect(first).toHaveProperty('result');
    const second = await peer.request({ jsonrpc: '2.0', id: 13, method: 'tools/list', params: {} });
    expect(second).toMatchObject({ id: 13, error: { code: -32602 } });
  });
});

describe('2025-11-25: initialize fixes the revision for the life of the process', () => {
  let peer: StdioPeer;
  afterEach(async () => {
    await peer.close();
  });

  test('initialize is answered with the 2025-11-25 shape and no resultType', async () => {
    peer = startStdioServer('basic');
    const reply = await peer.request(INITIALIZE);
    expect(reply).toEqual({
      jsonrpc: '2.0',
      id: 0,
      result: {
        protocolVersion: '2025-11-25',
        capabilities: {
          tools: { listChanged: false },
          resources: { subscribe: false, listChanged: false },
          prompts: { listChanged: false },
          logging: {},
          completions: {},
        },
        serverInfo: { name: 'fixture', version: '1.2.3' },
      },
    });
  });

  test('initialize with a version the server does not serve is countered with 2025-11-25, not refused', async () => {
    peer = startStdioServer('basic');
    const reply = await peer.request({
      ...INITIALIZE,
      params: { ...INITIALIZE.params, protocolVersion: '2024-10-07' },
    });
    expect((reply['result'] as { protocolVersion: string }).protocolVersion).toBe('2025-11-25');
  });

  test('after initialize, requests need no _meta and results carry no resultType', async () => {
    peer = startStdioServer('basic');
    await peer.request(INITIALIZE);
    peer.sendJson({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const reply = await peer.request({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'x' } },
    });
    expect(reply).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'x' }] } });
  });

  test('after initialize, ping answers an empty result', async () => {
    peer = startStdioServer('basic');
    await peer.request(INITIALIZE);
    expect(await peer.request({ jsonrpc: '2.0', id: 2, method: 'ping' })).toEqual({
      jsonrpc: '2.0',
      id: 2,
      result: {},
    });
  });

  test('after initialize, server/discover is not a method', async () => {
    peer = startStdioServer('basic');
    await peer.request(INITIALIZE);
    expect(await peer.request(modern(3, 'server/discover'))).toMatchObject({
      id: 3,
      error: { code: -32601 },
    });
  });

  test('a second initialize on the same process is refused with -32600', {
    tags: ['threat-model'],
  }, async () => {
    peer = startStdioServer('basic');
    await peer.request(INITIALIZE);
    const reply = await peer.request({ ...INITIALIZE, id: 4 });
    expect(reply).toEqual({
      jsonrpc: '2.0',
      id: 4,
      error: { code: -32600, message: 'Invalid request: initialize was already answered on this connection' },
    });
  });

  test('a request before initialize without the 2026 _meta is refused with -32602', {
    tags: ['threat-model'],
  }, async () => {
    peer = startStdioServer('basic');
    const reply = await peer.request({ jsonrpc: '2.0', id: 5, method: 'tools/list' });
    expect(reply).toMatchObject({ id: 5, error: { code: -32602 } });
  });

  test('a ping before initialize is answered, as 2025-11-25 allows', { tags: ['threat-model'] }, async () => {
    peer = startStdioServer('basic');
    expect(await peer.request({ jsonrpc: '2.0', id: 6, method: 'ping' })).toEqual({
      jsonrpc: '2.0',
      id: 6,
      result: {},
    });
  });

  test('an initialize missing clientInfo is refused with -32602', async () => {
    peer = startStdioServer('basic');
    const reply = await peer.request({
      jsonrpc: '2.0',
      id: 7,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {} },
    });
    expect(reply).toMatchObject({ id: 7, error: { code: -32602 } });
  });

  test('a refused initialize leaves the process unfixed: a 2026-07-28 request is still served', async () => {
    peer = startStdioServer('basic');
    await peer.request({ jsonrpc: '2.0', id: 8, method: 'initialize', params: {} });
    expect(await peer.request(modern(9, 'server/discover'))).toHaveProperty('result');
  });

  test('a request pipelined right behind initialize is served under 2025-11-25', async () => {
    peer = startStdioServer('basic');
    peer.send(
      `${JSON.stringify(INITIALIZE)}\n${JSON.stringify({ jsonrpc: '2.0', id: 10, method: 'ping' })}\n`,
    );
    const first = await peer.nextMessage();
    const second = await peer.nextMessage();
    expect([first['id'], second['id']].sort()).toEqual([0, 10]);
    expect([first, second].find((m) => m['id'] === 10)).toEqual({ jsonrpc: '2.0', id: 10, result: {} });
  });
});

describe('supportedVersions narrows what is served', () => {
  let peer: StdioPeer;
  afterEach(async () => {
    await peer.close();
  });

  test('a 2026-07-28-only server answers initialize with -32022 listing what it serves', async () => {
    peer = startStdioServer('basic', ['--only=2026-07-28']);
    const reply = await peer.request(INITIALIZE);
    expect(reply).toMatchObject({
      id: 0,
      error: { code: -32022, data: { supported: ['2026-07-28'], requested: '2025-11-25' } },
    });
  });

  test('a 2025-11-25-only server refuses a 2026-07-28 request with -32022', async () => {
    peer = startStdioServer('basic', ['--only=2025-11-25']);
    const reply = await peer.request(modern(1, 'server/discover'));
    expect(reply).toMatchObject({ id: 1, error: { code: -32022, data: { supported: ['2025-11-25'] } } });
  });
});
