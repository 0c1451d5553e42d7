/**
 * The official SDK clients against the handler over a real socket: 1.x and 2.x in their default
 * 2025-11-25 mode (stateless: `initialize` is answered, no session id is issued), and 2.x probing
 * for 2026-07-28 with `versionNegotiation: { mode: 'auto' }`.
 */
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Mounted, mountHandler } from '../support/http-peer.js';

let mounted: Mounted;
let url: URL;
beforeAll(async () => {
  mounted = await mountHandler();
  url = new URL(`http://127.0.0.1:${mounted.port}/mcp`);
});
afterAll(async () => {
  await mounted.close();
});

describe('official SDK clients', () => {
  test('the 1.x client lists and calls tools', async () => {
    const client = new ClientV1({ name: 'sdk-1', version: '1' });
    await client.connect(new TransportV1(url));
    const tools = await client.listTools();
    expect(tools.tools.map((tool) => tool.name)).toContain('echo');
    const result = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
    expect(result.structuredContent).toEqual({ sum: 5 });
    await client.close();
  });

  test('the 2.x client in legacy mode lists and calls tools', async () => {
    const client = new ClientV2({ name: 'sdk-2', version: '1' });
    await client.connect(new TransportV2(url));
    const tools = await client.listTools();
    expect(tools.tools.map((tool) => tool.name)).toContain('echo');
    const result = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
    expect(result.structuredContent).toEqual({ sum: 5 });
    await client.close();
  });

  test('the 2.x client negotiating automatically lists and calls tools', async () => {
    // Its own server, recording the MCP-Protocol-Version of each POST to tell which revision was spoken.
    const versions: string[] = [];
    const own = await mountHandler({
      authorize: (request) => {
        const version = request.headers['mcp-protocol-version'];
        versions.push(typeof version === 'string' ? version : '(none)');
        return { ok: true };
      },
    });
    const client = new ClientV2(
      { name: 'sdk-2-auto', version: '1' },
      { versionNegotiation: { mode: 'auto' } },
    );
    await client.connect(new TransportV2(new URL(`http://127.0.0.1:${own.port}/mcp`)));
    const tools = await client.listTools();
    expect(tools.tools.map((tool) => tool.name)).toContain('echo');
    const result = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
    expect(result.structuredContent).toEqual({ sum: 5 });
    await client.close();
    // It settled on 2026-07-28: every POST it sent named that revision.
    expect(versions.length).toBeGreaterThan(0);
    expect(new Set(versions)).toEqual(new Set(['2026-07-28']));
    await own.close();
  });
});
