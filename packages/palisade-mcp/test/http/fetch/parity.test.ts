/**
 * The fetch handler refuses what the node handler refuses, where a review (2026-11-30) found the
 * two apart: the path is judged as the target names it, never resolved by Palisade (a fetch
 * runtime may have resolved it already); an absolute-form target is judged by its path on the
 * node handler too; and a client that leaves while `authorize` runs has nothing run on its behalf.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { createFetchHandler } from '../../../src/http/fetch/handler.js';
import { createServer, defineTool } from '../../../src/index.js';
import { mountFetchHandler } from '../../support/fetch-peer.js';
import {
  ADMIT_ALL,
  exchange,
  LIST,
  type Mounted,
  modernRequest,
  mountHandler,
  post,
} from '../../support/http-peer.js';

const opened: Mounted[] = [];
afterEach(async () => {
  for (const mounted of opened.splice(0)) await mounted.close();
});

const HANDLERS = [
  ['the node handler', mountHandler],
  ['the fetch handler behind @hono/node-server', mountFetchHandler],
] as const;

/** tools/list with its request target replaced by `target`. */
function aimedAt(target: string): string {
  return post(LIST.body, LIST.headers).replace('POST /mcp HTTP/1.1', `POST ${target} HTTP/1.1`);
}

// A fetch runtime hands over `request.url` already resolved (@hono/node-server turns `/x/../mcp`
// into `/mcp` before the handler runs), so only the node handler can refuse dot segments and
// percent-escaped dots; docs/mounts.md says so. A fragment is no part of a request target.
const OTHER_PATHS = {
  'the node handler': ['/x/../mcp', '/x/%2e%2e/mcp', '/x/.%2E/mcp', '/./mcp', '/mcp#frag'],
  'the fetch handler behind @hono/node-server': ['/mcp#frag'],
} as const;

describe.each(HANDLERS)('%s, given path /mcp', (name, mountIt) => {
  test.each(OTHER_PATHS[name])(
    'a target of %s names another path and is refused 404',
    {
      tags: ['threat-model'],
    },
    async (target) => {
      const mounted = await mountIt({ path: '/mcp' });
      opened.push(mounted);
      const reply = await exchange(mounted.port, aimedAt(target));
      expect(reply.status).toBe(404);
      expect(JSON.parse(reply.body)).toEqual({
        jsonrpc: '2.0',
        error: { code: -32600, message: 'Invalid request: no MCP endpoint at this path' },
      });
      reply.client.end();
    },
  );

  test('an absolute-form target naming the Host and the path is served', async () => {
    const mounted = await mountIt({ path: '/mcp' });
    opened.push(mounted);
    const reply = await exchange(mounted.port, aimedAt('http://127.0.0.1/mcp?trace=1'));
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({ id: 1, result: { tools: expect.any(Array) } });
    reply.client.end();
  });
});

test('the fetch handler runs nothing for a client that left while authorize ran', {
  tags: ['threat-model'],
}, async () => {
  let runs = 0;
  const server = createServer({
    name: 'counting',
    version: '1',
    tools: [
      defineTool({
        name: 'count',
        inputSchema: { type: 'object' },
        handler: () => {
          runs += 1;
          return { content: [] };
        },
      }),
    ],
  });
  const client = new AbortController();
  const handler = createFetchHandler(server, {
    ...ADMIT_ALL,
    authorize: async () => {
      client.abort();
      return { ok: true };
    },
  });
  const call = modernRequest(1, 'tools/call', { name: 'count', arguments: {} });
  const headers = Object.fromEntries(
    Object.entries({ ...call.headers, 'content-type': 'application/json', accept: 'application/json' }).map(
      ([name, value]) => [name, String(value)],
    ),
  );
  const response = await handler(
    new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: call.body, signal: client.signal }),
  );
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(runs).toBe(0);
  expect(response.status).toBe(400);
  expect(await response.text()).toBe('');
});
