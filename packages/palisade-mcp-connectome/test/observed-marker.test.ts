import { createServer, defineTool } from 'palisade-mcp';
import { createHttpHandler } from 'palisade-mcp/http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  ADMIT_ALL,
  exchange,
  type Mounted,
  modernRequest,
  mount,
  post,
} from '../../palisade-mcp/test/support/http-peer.js';
import { type Collector, encodeGraph, encodeSidecar, nodeId, startCollector } from '../src/index.js';
import { modern, serveInProcess } from './support/in-process.js';

// Planted in every place a caller or a handler can put bytes; names (server, tool) are identity
// and are published by design, so the marker is never a name.
const MARKER = 'CONNECTOME-MARKER-7f3e';

const server = createServer({
  name: 'marked',
  version: '1',
  tools: [
    defineTool<{ nested: { secret: string } }>({
      name: 'echo',
      inputSchema: { type: 'object' },
      handler: ({ nested }) => ({
        content: [{ type: 'text', text: `result ${nested?.secret ?? MARKER}` }],
        structuredContent: { secret: MARKER },
      }),
    }),
    defineTool({
      name: 'thrower',
      inputSchema: { type: 'object' },
      handler: () => {
        throw new Error(`thrown ${MARKER}`);
      },
    }),
    defineTool({
      name: 'tool_error',
      inputSchema: { type: 'object' },
      handler: () => ({ content: [{ type: 'text', text: MARKER }], isError: true }),
    }),
  ],
  resources: [
    { uri: 'file:///plain', name: 'plain', read: () => [{ uri: 'file:///plain', text: MARKER }] },
    {
      uri: 'file:///failing',
      name: 'failing',
      read: () => {
        throw new Error(`read ${MARKER}`);
      },
    },
  ],
  resourceTemplates: [
    // The caller's variable lands in the URI: the observed side must name the template only.
    { uriTemplate: 'file:///t/{key}', name: 'keyed', read: (uri) => [{ uri, text: `${uri} ${MARKER}` }] },
  ],
  prompts: [
    {
      name: 'ask',
      arguments: [{ name: 'topic' }],
      get: ({ topic }) => ({
        description: MARKER,
        messages: [{ role: 'user', content: { type: 'text', text: `${topic} ${MARKER}` } }],
      }),
    },
    {
      name: 'refuse',
      get: () => {
        throw new Error(`get ${MARKER}`);
      },
    },
  ],
});

let collector: Collector;
let mounted: Mounted;
beforeAll(async () => {
  collector = startCollector();
  const peer = serveInProcess(server);
  const args = { nested: { secret: MARKER }, [MARKER]: [MARKER] };
  const meta = { _meta: { marker: MARKER } };
  await peer.request(modern(1, 'tools/call', { name: 'echo', arguments: args, ...meta }));
  await peer.request(modern(2, 'tools/call', { name: 'thrower', arguments: args }));
  await peer.request(modern(3, 'tools/call', { name: 'tool_error', arguments: args }));
  await peer.request(modern(5, 'resources/read', { uri: 'file:///plain', ...meta }));
  await peer.request(modern(6, 'resources/read', { uri: 'file:///failing' }));
  await peer.request(modern(7, 'resources/read', { uri: `file:///t/${MARKER}` }));
  await peer.request(modern(8, 'prompts/get', { name: 'ask', arguments: { topic: MARKER }, ...meta }));
  await peer.request(modern(9, 'prompts/get', { name: 'refuse' }));
  await peer.close();

  mounted = await mount(createHttpHandler(server, { ...ADMIT_ALL, authorize: () => ({ ok: true }) }));
  const call = modernRequest(4, 'tools/call', { name: 'echo', arguments: args });
  const reply = await exchange(
    mounted.port,
    post(call.body, { ...call.headers, 'X-Marker': MARKER, Authorization: `Bearer ${MARKER}` }),
  );
  reply.client.end();
  expect(reply.status).toBe(200);
});
afterAll(async () => {
  collector.stop();
  await mounted.close();
});

describe('no payload byte reaches the observed graph', () => {
  test('the calls with planted markers were all observed, each outcome counted', () => {
    const weights = Object.fromEntries(collector.graph().edges.map((e) => [e.to, e.weight]));
    expect(weights[nodeId('marked', { kind: 'tool', name: 'echo' })]).toMatchObject({ count: 2 });
    expect(weights[nodeId('marked', { kind: 'tool', name: 'thrower' })]).toMatchObject({
      outcomes: { fault: 1 },
    });
    expect(weights[nodeId('marked', { kind: 'tool', name: 'tool_error' })]).toMatchObject({
      outcomes: { tool_error: 1 },
    });
  });

  test('the reads and prompt gets with planted markers were all observed, each on its own edge', () => {
    const weights = Object.fromEntries(collector.graph().edges.map((e) => [e.to, e.weight]));
    expect(weights[nodeId('marked', { kind: 'resource', uri: 'file:///plain' })]).toMatchObject({
      outcomes: { ok: 1 },
    });
    expect(weights[nodeId('marked', { kind: 'resource', uri: 'file:///failing' })]).toMatchObject({
      outcomes: { fault: 1 },
    });
    expect(
      weights[nodeId('marked', { kind: 'resource_template', uriTemplate: 'file:///t/{key}' })],
    ).toMatchObject({ count: 1 });
    expect(weights[nodeId('marked', { kind: 'prompt', name: 'ask' })]).toMatchObject({
      outcomes: { ok: 1 },
    });
    expect(weights[nodeId('marked', { kind: 'prompt', name: 'refuse' })]).toMatchObject({
      outcomes: { fault: 1 },
    });
  });

  test('the canonical bytes carry no byte of the marker', { tags: ['threat-model'] }, () => {
    expect(Buffer.from(encodeGraph(collector.graph())).includes(MARKER)).toBe(false);
  });

  test('the sidecar carries no byte of the marker', { tags: ['threat-model'] }, () => {
    expect(Buffer.from(encodeSidecar(collector.graph())).includes(MARKER)).toBe(false);
  });

  test('neither the graph value nor the stats carry the marker', { tags: ['threat-model'] }, () => {
    expect(JSON.stringify(collector.graph())).not.toContain(MARKER);
    expect(JSON.stringify(collector.stats())).not.toContain(MARKER);
  });
});
