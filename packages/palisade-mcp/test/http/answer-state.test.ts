/**
 * Over HTTP every request is answered as a stateless exchange, whichever path through the version
 * headers it took: a 2025-11-25 `initialize` advertises no change delivery (there is no
 * connection to deliver on), a `ping` naming 2026-07-28 without `_meta` is refused as stdio would
 * answer it only before a handshake, and one naming no revision at all is 2025-03-26's, as the
 * spec tells a server to assume. Over a real socket, with exact bodies.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHttpHandler } from '../../src/http/node/handler.js';
import { createServer, defineTool } from '../../src/index.js';
import { ADMIT_ALL, exchange, type Mounted, mount, post } from '../support/http-peer.js';

let mounted: Mounted;
const logged: unknown[] = [];
beforeAll(async () => {
  const server = createServer({
    name: 'announcing',
    version: '1',
    tools: [defineTool({ name: 'noop', inputSchema: { type: 'object' }, handler: () => ({ content: [] }) })],
    resources: [{ uri: 'test://watched', name: 'w', read: () => [{ uri: 'test://watched', text: 'w' }] }],
    notifications: { toolsListChanged: true, resourcesListChanged: true, resourceSubscriptions: true },
  });
  mounted = await mount(createHttpHandler(server, { ...ADMIT_ALL, onLog: (event) => logged.push(event) }));
});
afterAll(async () => {
  await mounted.close();
});

async function send(body: string, headers: Record<string, unknown> = {}) {
  const reply = await exchange(mounted.port, post(body, { Accept: 'application/json', ...headers }));
  reply.client.end();
  return reply;
}

const PING = '{"jsonrpc":"2.0","id":3,"method":"ping"}';
const NO_META =
  '{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Invalid params: params._meta must carry io.modelcontextprotocol/protocolVersion (a 2025-11-25 or earlier client sends initialize first)"}}';

describe('HTTP answers without a connection', () => {
  test('a 2025-11-25 initialize over HTTP advertises neither listChanged nor subscribe', async () => {
    const reply = await send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
      { 'MCP-Protocol-Version': '2025-11-25' },
    );
    expect(reply.status).toBe(200);
    const result = (JSON.parse(reply.body) as { result: { capabilities: unknown } }).result;
    expect(result.capabilities).toEqual({
      tools: { listChanged: false },
      resources: { subscribe: false, listChanged: false },
      logging: {},
    });
  });

  test('a ping with the 2026-07-28 version header but no _meta is refused naming _meta', async () => {
    const reply = await send(PING, { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'ping' });
    expect(reply.body).toBe(NO_META);
  });

  test('a ping with no version header is answered as 2025-03-26, which defines no such header', async () => {
    const reply = await send(PING);
    expect(reply.status).toBe(200);
    expect(reply.body).toBe('{"jsonrpc":"2.0","id":3,"result":{}}');
  });

  test('a subscriptions/listen that is no valid envelope is refused as an envelope, not for want of a stream', async () => {
    const reply = await send('{"jsonrpc":"1.0","id":4,"method":"subscriptions/listen"}');
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toMatchObject({ id: 4, error: { code: -32600 } });
  });

  test('a subscriptions/listen without _meta is refused naming _meta, not for want of a stream', async () => {
    const reply = await send('{"jsonrpc":"2.0","id":3,"method":"subscriptions/listen"}', {
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'subscriptions/listen',
    });
    expect(reply.body).toBe(NO_META);
  });

  test('a subscriptions/listen with no version header is a method 2025-03-26 does not define: 404, -32601', async () => {
    const reply = await send('{"jsonrpc":"2.0","id":3,"method":"subscriptions/listen"}');
    expect(reply.status).toBe(404);
    expect(reply.body).toBe('{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"Method not found"}}');
  });

  test('a modern subscriptions/listen whose Accept admits no event stream is refused 406 and logged by rule', async () => {
    logged.length = 0;
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 5,
      method: 'subscriptions/listen',
      params: {
        notifications: { toolsListChanged: true },
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    });
    const reply = await send(body, {
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'subscriptions/listen',
    });
    expect(reply.status).toBe(406);
    expect(reply.body).toBe(
      '{"jsonrpc":"2.0","id":5,"error":{"code":-32600,"message":"Invalid request: subscriptions/listen needs Accept to admit text/event-stream"}}',
    );
    expect(logged).toEqual([{ kind: 'refusal', rule: 'listen-needs-event-stream', status: 406 }]);
  });
});
