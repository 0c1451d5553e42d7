import { createServer, defineTool, type Server } from 'palisade-mcp';
import { afterEach, describe, expect, test } from 'vitest';
import {
  CONNECTOME_DECLARED_URI,
  CONNECTOME_DIFF_URI,
  CONNECTOME_OBSERVED_URI,
  type Collector,
  connectomeResources,
  declaredFromCatalog,
  diffGraphs,
  encodeDiff,
  encodeGraph,
  encodeSidecar,
  nodeId,
  observedGraph,
  startCollector,
} from '../src/index.js';
import { refusedWith } from './refusal.js';
import { modern, serveInProcess } from './support/in-process.js';

const WINDOW = { started_at: '2026-11-30T00:00:00Z', ended_at: '2026-11-30T01:00:00Z' };

const tools = ['lookup', 'write', 'delete'].map((name) =>
  defineTool({ name, inputSchema: { type: 'object' }, handler: () => ({ content: [] }) }),
);

function plainServer(): Server {
  return createServer({ name: 'e2e', version: '1', tools });
}

/** A server whose catalog carries the three connectome resources, reading its own catalog. */
function connectomeServer(window?: () => typeof WINDOW): Server {
  const self: { server?: Server } = {};
  const resources = connectomeResources({
    declared: () => declaredFromCatalog(self.server!),
    ...(window === undefined ? {} : { window }),
  });
  self.server = createServer({ name: 'e2e', version: '1', tools, resources });
  return self.server;
}

async function callAll(server: Server, names: string[]): Promise<void> {
  const peer = serveInProcess(server);
  for (const [i, name] of names.entries()) await peer.request(modern(i, 'tools/call', { name }));
  await peer.close();
}

async function read(server: Server, uri: string): Promise<Record<string, unknown>> {
  const peer = serveInProcess(server);
  const reply = await peer.request(modern(1, 'resources/read', { uri }));
  await peer.close();
  return reply;
}

function textOf(reply: Record<string, unknown>): { text: string; mimeType: string; uri: string } {
  return (reply['result'] as { contents: { text: string; mimeType: string; uri: string }[] }).contents[0]!;
}

let collector: Collector | undefined;
afterEach(() => {
  collector?.stop();
  collector = undefined;
});

describe('declared against observed on a real server', () => {
  test('a tool never called is dead authority and nothing drifts', async () => {
    const server = plainServer();
    collector = startCollector();
    await callAll(server, ['lookup', 'lookup', 'write']);
    const diff = diffGraphs(declaredFromCatalog(server), collector.graph(), { window: WINDOW });
    expect(diff.classes.declared_never_observed).toEqual([
      {
        from: nodeId('e2e', { kind: 'server' }),
        to: nodeId('e2e', { kind: 'tool', name: 'delete' }),
        kind: 'invoke',
      },
    ]);
    expect(diff.classes.observed_but_undeclared).toEqual([]);
    expect(diff.classes.changed_sign).toEqual([]);
  });

  test('the coverage counts show every observed edge declared', async () => {
    const server = plainServer();
    collector = startCollector();
    await callAll(server, ['lookup', 'write']);
    expect(diffGraphs(declaredFromCatalog(server), collector.graph(), { window: WINDOW }).coverage).toEqual({
      declared_edges: 3,
      observed_edges: 2,
      declared_and_observed: 2,
      declared_endpoint_covered: 2,
      observed_endpoint_declared: 2,
      declared_nodes: 4,
      observed_nodes: 3,
      nodes_in_both: 3,
      declared_sign_only: 0,
      observed_sign_only: 0,
    });
  });
});

describe('the connectome as read-only resources', () => {
  test('the three resources are listed as ordinary application/json resources', async () => {
    const peer = serveInProcess(connectomeServer());
    const reply = await peer.request(modern(1, 'resources/list'));
    await peer.close();
    const listed = (reply['result'] as { resources: { uri: string; mimeType: string }[] }).resources;
    expect(listed.map((r) => [r.uri, r.mimeType])).toEqual([
      [CONNECTOME_DECLARED_URI, 'application/json'],
      [CONNECTOME_DIFF_URI, 'application/json'],
      [CONNECTOME_OBSERVED_URI, 'application/json'],
    ]);
  });

  test('adding them invents no capability beyond what any resource brings', {
    tags: ['threat-model'],
  }, async () => {
    const capabilities = async (server: Server) => {
      const peer = serveInProcess(server);
      const reply = await peer.request(modern(1, 'server/discover'));
      await peer.close();
      const result = reply['result'] as { capabilities: unknown };
      return JSON.stringify(result.capabilities);
    };
    const ordinary = createServer({
      name: 'e2e',
      version: '1',
      tools,
      resources: [{ uri: 'file:///x', name: 'x', read: () => [{ uri: 'file:///x', text: '' }] }],
    });
    const withConnectome = await capabilities(connectomeServer());
    expect(withConnectome).toContain('resources');
    expect(withConnectome).toEqual(await capabilities(ordinary));
  });

  test('reading connectome://declared answers the declared graph’s canonical bytes', async () => {
    const server = connectomeServer();
    const content = textOf(await read(server, CONNECTOME_DECLARED_URI));
    expect(content.mimeType).toBe('application/json');
    expect(Buffer.from(content.text, 'utf8')).toEqual(Buffer.from(encodeGraph(declaredFromCatalog(server))));
  });

  test('reading connectome://observed answers the observed graph’s canonical bytes', async () => {
    const server = connectomeServer();
    collector = startCollector();
    await callAll(server, ['write']);
    const content = textOf(await read(server, CONNECTOME_OBSERVED_URI));
    expect(Buffer.from(content.text, 'utf8')).toEqual(Buffer.from(encodeGraph(observedGraph())));
    expect(content.text).toContain('"provenance":"observed"');
  });

  test('reading connectome://diff answers the diff record’s canonical bytes', async () => {
    const server = connectomeServer(() => WINDOW);
    collector = startCollector();
    await callAll(server, ['lookup']);
    const content = textOf(await read(server, CONNECTOME_DIFF_URI));
    const expected = encodeDiff(diffGraphs(declaredFromCatalog(server), observedGraph(), { window: WINDOW }));
    expect(Buffer.from(content.text, 'utf8')).toEqual(Buffer.from(expected));
  });

  test('the default diff window states when the collector started', async () => {
    const server = connectomeServer();
    collector = startCollector();
    const record = JSON.parse(textOf(await read(server, CONNECTOME_DIFF_URI)).text) as {
      window: { started_at: string; ended_at: string };
    };
    expect(record.window.started_at).toBe(collector.startedAt);
    expect(Date.parse(record.window.ended_at)).toBeGreaterThanOrEqual(Date.parse(collector.startedAt));
  });

  test('reading every resource leaves the collector’s rows exactly as they were', {
    tags: ['threat-model'],
  }, async () => {
    const server = connectomeServer();
    collector = startCollector();
    await callAll(server, ['lookup', 'write', 'write']);
    const state = () => ({
      bytes: Buffer.from(encodeGraph(collector!.graph())).toString('hex'),
      sidecar: Buffer.from(encodeSidecar(collector!.graph())).toString('hex'),
      stats: collector!.stats(),
    });
    const before = state();
    for (const uri of [CONNECTOME_DECLARED_URI, CONNECTOME_OBSERVED_URI, CONNECTOME_DIFF_URI]) {
      expect(textOf(await read(server, uri)).uri).toBe(uri);
    }
    expect(state()).toEqual(before);
  });

  test('reading connectome://observed with no collector running answers an error, not an empty graph', async () => {
    const reply = await read(connectomeServer(), CONNECTOME_OBSERVED_URI);
    expect(reply['result']).toBeUndefined();
    expect(reply['error']).toBeDefined();
  });

  test('the declared thunk is required and unknown options are refused by name', () => {
    refusedWith(() => connectomeResources({} as never), 'PALISADE_ERR_INVALID_OPTION');
    const error = refusedWith(
      () => connectomeResources({ declared: () => declaredFromCatalog(plainServer()), windw: {} } as never),
      'PALISADE_ERR_UNKNOWN_OPTION',
    );
    expect(error.message).toContain('"windw"');
  });
});
