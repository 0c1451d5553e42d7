/**
 * Adversarial: the header–body match under the fetch handler. A `Headers` object joins two lines
 * of one name with ", ", so two `Mcp-Param-Region` lines (`us`, `eu`) reach the match as the one
 * value `us, eu`. A body holding exactly that string then "matches", while an intermediary that
 * reads the first line routes or authorizes on `us`. The node handler sees both lines and
 * refuses the repeat (http/headers/match.ts: "A declared `Mcp-Param-*` likewise").
 */
import { afterEach, describe, expect, test } from 'vitest';
import { createFetchHandler } from '../../src/http/fetch/handler.js';
import { createHttpHandler } from '../../src/http/node/handler.js';
import { createServer, defineTool, type Server } from '../../src/index.js';
import { listenFetch } from '../support/fetch-peer.js';
import { ADMIT_ALL, exchange, type Mounted, mount, post } from '../support/http-peer.js';
import { MODERN_META } from '../support/stdio-peer.js';

const opened: Mounted[] = [];
afterEach(async () => {
  for (const mounted of opened.splice(0)) await mounted.close();
});

let called: unknown[] = [];

function regionServer(): Server {
  called = [];
  return createServer({
    name: 'adversarial',
    version: '1',
    tools: [
      defineTool({
        name: 'route',
        inputSchema: {
          type: 'object',
          properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
          required: ['region'],
        },
        handler: (args) => {
          called.push(args);
          return { content: [] };
        },
      }),
    ],
  });
}

/** A tools/call of `route` whose body says `region`, with the given Mcp-Param-Region lines. */
function twoLineCall(region: string, lines: readonly string[]): string {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'route', arguments: { region }, _meta: MODERN_META },
  });
  return post(body, {
    'MCP-Protocol-Version': '2026-07-28',
    'Mcp-Method': 'tools/call',
    'Mcp-Name': 'route',
    'Mcp-Param-Region': [...lines],
  });
}

describe('two Mcp-Param lines whose join equals the body', () => {
  test('the node handler refuses them as a repeated header', async () => {
    const mounted = await mount(createHttpHandler(regionServer(), ADMIT_ALL));
    opened.push(mounted);
    const reply = await exchange(mounted.port, twoLineCall('us, eu', ['us', 'eu']));
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body).error.code).toBe(-32020);
    expect(called).toEqual([]);
    reply.client.end();
  });

  // Was a hole: the joined value was admitted. Under fetch, a mirrored header's value holding ", "
  // cannot be told from two lines, so it is refused as repeated, 400 -32020 as the node handler
  // refuses it, the handler never called (a client with such a value sends it =?base64?…?=).
  test('the fetch handler refuses them too rather than admitting the joined value', {
    tags: ['threat-model'],
  }, async () => {
    const mounted = await listenFetch(createFetchHandler(regionServer(), ADMIT_ALL));
    opened.push(mounted);
    const reply = await exchange(mounted.port, twoLineCall('us, eu', ['us', 'eu']));
    expect(called).toEqual([]);
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body).error.code).toBe(-32020);
    reply.client.end();
  });

  test('the fetch handler admits a value holding ", " when it is sent base64-encoded', async () => {
    const mounted = await listenFetch(createFetchHandler(regionServer(), ADMIT_ALL));
    opened.push(mounted);
    const encoded = `=?base64?${Buffer.from('us, eu').toString('base64')}?=`;
    const reply = await exchange(mounted.port, twoLineCall('us, eu', [encoded]));
    expect(reply.status).toBe(200);
    expect(called).toEqual([{ region: 'us, eu' }]);
    reply.client.end();
  });
});
