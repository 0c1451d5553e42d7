import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  exchange,
  type Json,
  type Mounted,
  modernRequest,
  mountHandler,
  post,
} from '../../support/http-peer.js';

let mounted: Mounted;
beforeAll(async () => {
  mounted = await mountHandler();
});
afterAll(async () => {
  await mounted.close();
});

async function send(body: string, headers: Record<string, unknown>) {
  const reply = await exchange(mounted.port, post(body, headers));
  reply.client.end();
  return { ...reply, json: reply.body === '' ? undefined : (JSON.parse(reply.body) as Json) };
}

const LEGACY_HEADERS = { 'MCP-Protocol-Version': '2025-11-25' };
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});

describe('2026-07-28 requests', () => {
  test('a result is answered 200 with resultType', { tags: ['threat-model'] }, async () => {
    const call = modernRequest(1, 'tools/call', { name: 'add', arguments: { a: 2, b: 3 } });
    const reply = await send(call.body, call.headers);
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({
      id: 1,
      result: { structuredContent: { sum: 5 }, resultType: 'complete' },
    });
  });

  test('an Mcp-Method that disagrees with the body is answered 400 with -32020 and the request id', {
    tags: ['threat-model'],
  }, async () => {
    const call = modernRequest(2, 'tools/list');
    const reply = await send(call.body, { ...call.headers, 'Mcp-Method': 'tools/call' });
    expect(reply.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(reply.json).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32020, message: 'Header mismatch: Mcp-Method does not match the body' },
    });
  });

  test('a missing Mcp-Name on tools/call is answered 400 with -32020', {
    tags: ['threat-model'],
  }, async () => {
    const call = modernRequest(3, 'tools/call', { name: 'echo', arguments: { text: 'x' } });
    const reply = await send(call.body, { ...call.headers, 'Mcp-Name': undefined });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({
      id: 3,
      error: { code: -32020, message: 'Header mismatch: Mcp-Name is missing' },
    });
  });

  test('an unknown method is answered 404 with -32601', { tags: ['threat-model'] }, async () => {
    const call = modernRequest(4, 'nope/nothing');
    const reply = await send(call.body, call.headers);
    expect(reply.statusLine).toBe('HTTP/1.1 404 Not Found');
    expect(reply.json).toEqual({
      jsonrpc: '2.0',
      id: 4,
      error: { code: -32601, message: 'Method not found' },
    });
  });

  test('an unknown tool is a method-level error answered 200', { tags: ['threat-model'] }, async () => {
    const call = modernRequest(5, 'tools/call', { name: 'no_such_tool', arguments: {} });
    const reply = await send(call.body, call.headers);
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ id: 5, error: {} });
  });

  test('a host handler that throws an error with its own status is answered 200 with -32603 and the id', {
    tags: ['threat-model'],
  }, async () => {
    const call = modernRequest(6, 'tools/call', { name: 'throws', arguments: {} });
    const reply = await send(call.body, call.headers);
    expect(reply.statusLine).toBe('HTTP/1.1 200 OK');
    expect(reply.json).toEqual({ jsonrpc: '2.0', id: 6, error: { code: -32603, message: 'Internal error' } });
  });

  test('a result that cannot be serialized is answered 200 with -32603 and the id', {
    tags: ['threat-model'],
  }, async () => {
    const call = modernRequest(7, 'tools/call', { name: 'bigint', arguments: {} });
    const reply = await send(call.body, call.headers);
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32603, message: 'Internal error' } });
  });

  test('a notification is answered 202 with an empty body', { tags: ['threat-model'] }, async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 1 },
    });
    const reply = await send(body, {});
    expect(reply.statusLine).toBe('HTTP/1.1 202 Accepted');
    expect(reply.headers['content-length']).toBe('0');
    expect(reply.body).toBe('');
  });

  test('a JSON-RPC response sent by the client is answered 400 with no id', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await send(JSON.stringify({ jsonrpc: '2.0', id: 9, result: {} }), {});
    expect(reply.status).toBe(400);
    expect(reply.json).toEqual({
      jsonrpc: '2.0',
      error: {
        code: -32600,
        message: 'Invalid request: a JSON-RPC response is not accepted from the client',
      },
    });
  });

  test('an invalid envelope is answered 400 before the headers are compared', {
    tags: ['threat-model'],
  }, async () => {
    const body = JSON.stringify({ jsonrpc: '1.0', id: 10, method: 'tools/list', params: { _meta: {} } });
    const reply = await send(body, {});
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({
      error: { code: -32600, message: 'Invalid request: jsonrpc must be "2.0"' },
    });
  });

  test('a request with neither _meta nor a version header is served as 2025-03-26, as the spec says to assume', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await send(JSON.stringify({ jsonrpc: '2.0', id: 11, method: 'tools/list' }), {});
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ id: 11, result: { tools: expect.any(Array) } });
    // Listed as 2025-03-26 defines a tool: `add` without its outputSchema; no 2026-07-28 members.
    const result = (reply.json as { result: Record<string, unknown> }).result;
    expect(result['resultType']).toBeUndefined();
    const add = (result['tools'] as Record<string, unknown>[]).find((tool) => tool['name'] === 'add');
    expect(add).toEqual({
      name: 'add',
      inputSchema: expect.objectContaining({ type: 'object' }),
    });
  });
});

describe('stateless 2025-11-25', () => {
  test('initialize is answered 200 and no Mcp-Session-Id is issued', { tags: ['threat-model'] }, async () => {
    const reply = await send(INITIALIZE, {});
    expect(reply.status).toBe(200);
    expect(reply.headers['mcp-session-id']).toBeUndefined();
    expect(reply.json).toMatchObject({ id: 0, result: { protocolVersion: '2025-11-25' } });
  });

  test('a request carrying an Mcp-Session-Id is answered as if it had none', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), {
      ...LEGACY_HEADERS,
      'Mcp-Session-Id': 'made-up',
    });
    expect(reply.status).toBe(200);
    expect(reply.headers['mcp-session-id']).toBeUndefined();
  });

  test('a request named 2025-11-25 by MCP-Protocol-Version is answered without 2026 envelope members', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), LEGACY_HEADERS);
    expect(reply.status).toBe(200);
    const result = reply.json?.['result'] as Json;
    expect(Array.isArray(result['tools'])).toBe(true);
    expect(result['resultType']).toBeUndefined();
  });

  test('ping is served on the 2025-11-25 path', { tags: ['threat-model'] }, async () => {
    const reply = await send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' }), LEGACY_HEADERS);
    expect(reply.json).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
  });

  test('a version header naming a revision not served over HTTP is answered 400 with -32022 listing those that are', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await send(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/list' }), {
      'MCP-Protocol-Version': '2024-11-05',
    });
    expect(reply.status).toBe(400);
    expect(reply.json).toEqual({
      jsonrpc: '2.0',
      id: 4,
      error: {
        code: -32022,
        message:
          'Unsupported protocol version: the MCP-Protocol-Version header names a revision not served over HTTP',
        data: { supported: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'] },
      },
    });
  });

  test('a 2025-11-25 request whose Mcp-Method and Mcp-Name say another call is answered 400 with -32020', {
    tags: ['threat-model'],
  }, async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 5,
      method: 'tools/call',
      params: { name: 'add', arguments: { a: 1, b: 2 } },
    });
    const reply = await send(body, { ...LEGACY_HEADERS, 'Mcp-Method': 'tools/list', 'Mcp-Name': 'echo' });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({
      id: 5,
      error: { code: -32020, message: expect.stringContaining('Mcp-Method') },
    });
  });

  test('a 2025-11-25 tools/call whose Mcp-Name names another tool is answered 400 with -32020', {
    tags: ['threat-model'],
  }, async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 6,
      method: 'tools/call',
      params: { name: 'add', arguments: { a: 1, b: 2 } },
    });
    const reply = await send(body, { ...LEGACY_HEADERS, 'Mcp-Name': 'echo' });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({
      id: 6,
      error: { code: -32020, message: expect.stringContaining('Mcp-Name') },
    });
  });

  test('a 2025-11-25 tools/call whose carried headers agree with the body is served', {
    tags: ['threat-model'],
  }, async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'add', arguments: { a: 1, b: 2 } },
    });
    const reply = await send(body, { ...LEGACY_HEADERS, 'Mcp-Method': 'tools/call', 'Mcp-Name': 'add' });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ id: 7, result: { structuredContent: { sum: 3 } } });
  });

  test('an initialize carrying an Mcp-Method of another method is answered 400 with -32020', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await send(INITIALIZE, { 'Mcp-Method': 'tools/call' });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ id: 0, error: { code: -32020 } });
  });

  test('notifications/initialized is answered 202', { tags: ['threat-model'] }, async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const reply = await send(body, LEGACY_HEADERS);
    expect(reply.status).toBe(202);
  });
});
