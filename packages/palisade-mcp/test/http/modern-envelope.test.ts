/**
 * Two answers the official conformance suite (server-stateless) checks, held over a real socket:
 * a body without the 2026-07-28 `_meta` under a 2026-07-28 version header is named for the
 * missing `_meta` (-32602, 400), and `initialize` sent as a 2026-07-28 request is an unknown
 * method there (-32601, 404), not the 2025-11-25 handshake.
 */
import { describe, expect, test } from 'vitest';
import { closeAfterEach } from '../support/close-after-each.js';
import { mountHandler, post, RawClient } from '../support/http-peer.js';

const closeLater = closeAfterEach();

async function send(
  body: unknown,
  headers: Record<string, unknown>,
): Promise<{ status: number; body: unknown }> {
  // The 2026-07-28 revision is stateless: a fresh handler per request answers as a shared one would.
  const mounted = await closeLater(mountHandler());
  const client = new RawClient(mounted.port);
  try {
    client.send(post(JSON.stringify(body), headers));
    const response = await client.response();
    return { status: response.status, body: JSON.parse(response.body) };
  } finally {
    client.end();
  }
}

const MODERN_HEADERS = { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'server/discover' };

describe('the 2026-07-28 envelope over HTTP', () => {
  test('a 2026-07-28 version header on a body without _meta is refused for the missing _meta: 400, -32602', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await send(
      { jsonrpc: '2.0', id: 101, method: 'server/discover', params: {} },
      MODERN_HEADERS,
    );
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ id: 101, error: { code: -32602 } });
    expect(JSON.stringify(reply.body)).toContain('_meta');
  });

  test('initialize carrying the 2026-07-28 _meta is an unknown method: 404, -32601, with the request id', {
    tags: ['threat-model'],
  }, async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const reply = await send(
      { jsonrpc: '2.0', id: 500, method: 'initialize', params: { _meta: meta } },
      { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'initialize' },
    );
    expect(reply).toEqual({
      status: 404,
      body: { jsonrpc: '2.0', id: 500, error: { code: -32601, message: 'Method not found' } },
    });
  });
});
