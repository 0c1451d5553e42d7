/**
 * Two Palisade server processes, A and B, sharing one real PostgreSQL, each reached on its own
 * port (as a load balancer would send consecutive requests to different ones): what one process
 * starts, the other continues. The faults of a fleet (a process killed mid-call, the database
 * restarted, a NOTIFY storm) are in faults.test.ts; the same through nginx in nginx.test.ts.
 */
import { federateGraphs, scopedId } from 'palisade-mcp-connectome';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RunningPostgres, startPostgres } from './support/embedded-postgres.js';
import {
  listen,
  modern,
  openStream,
  type ServerProcess,
  spawnServer,
  TASKS_EXTENSION,
  toolText,
} from './support/fleet.js';

const LEGACY = '2025-11-25';

/** A POST of one 2025-11-25 message on a session (or the initialize that starts one). */
function legacyPost(port: number, message: object, session?: string): Promise<Response> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': LEGACY,
  };
  if (session !== undefined) headers['mcp-session-id'] = session;
  return fetch(`http://127.0.0.1:${port}/mcp`, { method: 'POST', headers, body: JSON.stringify(message) });
}

/** Starts a 2025-11-25 session on `port` (initialize, then initialized): its id. */
async function startSession(port: number): Promise<string> {
  const init = await legacyPost(port, {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'fleet-test', version: '1' } },
  });
  expect(init.status).toBe(200);
  await init.text();
  const session = init.headers.get('mcp-session-id') as string;
  const initialized = await legacyPost(
    port,
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    session,
  );
  expect(initialized.status).toBe(202);
  return session;
}

let database: RunningPostgres;
let a: ServerProcess;
let b: ServerProcess;

beforeAll(async () => {
  database = await startPostgres();
  const env = { PG_URL: database.url, PG_SCHEMA: 'fleet' };
  // One first, so the schema's migration is not raced for no reason (it would be safe: it locks).
  a = await spawnServer('A', env);
  b = await spawnServer('B', env);
}, 120_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await database?.destroy();
});

describe('two processes sharing PostgreSQL', () => {
  test('each process answers as itself', async () => {
    expect(toolText(await modern(a.port, 'tools/call', { name: 'whoami', arguments: {} }))).toBe(
      `A ${a.pid}`,
    );
    expect(toolText(await modern(b.port, 'tools/call', { name: 'whoami', arguments: {} }))).toBe(
      `B ${b.pid}`,
    );
  });

  test('a task created through A is read, listed and cancelled through B', async () => {
    const created = await modern(
      a.port,
      'tools/call',
      { name: 'work', arguments: { ms: 60_000 } },
      TASKS_EXTENSION,
    );
    const task = created.body?.['result'] as { resultType: string; taskId: string; status: string };
    expect(task).toMatchObject({ resultType: 'task', status: 'working' });
    const read = await modern(b.port, 'tasks/get', { taskId: task.taskId }, TASKS_EXTENSION);
    expect(read.body?.['result']).toMatchObject({ taskId: task.taskId, status: 'working' });
    const listed = JSON.parse(
      toolText(await modern(b.port, 'tools/call', { name: 'my-tasks', arguments: {} })),
    );
    expect(listed).toContainEqual({ taskId: task.taskId, status: 'working' });
    const cancelled = await modern(b.port, 'tasks/cancel', { taskId: task.taskId }, TASKS_EXTENSION);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toHaveProperty('result');
    const after = await modern(a.port, 'tasks/get', { taskId: task.taskId }, TASKS_EXTENSION);
    expect(after.body?.['result']).toMatchObject({ taskId: task.taskId, status: 'cancelled' });
  });

  test('a listen stream on B receives the change a call on A announced', async () => {
    const stream = await listen(b.port);
    try {
      expect(toolText(await modern(a.port, 'tools/call', { name: 'announce', arguments: {} }))).toBe(
        'announced by A',
      );
      const heard = await stream.until((event) => event['method'] === 'notifications/tools/list_changed');
      expect(heard['params']).toMatchObject({
        _meta: { 'io.modelcontextprotocol/subscriptionId': expect.anything() },
      });
    } finally {
      stream.close();
    }
  });

  test('a 2025-11-25 session started on A continues on B: a sampling request asked on A is answered through B', async () => {
    const init = await legacyPost(a.port, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: LEGACY,
        capabilities: { sampling: {} },
        clientInfo: { name: 'fleet-test', version: '1' },
      },
    });
    expect(init.status).toBe(200);
    const session = init.headers.get('mcp-session-id') as string;
    expect(session).toMatch(/^[A-Za-z0-9_-]{32}$/);
    await init.text();
    // The rest of the session goes to B first: it knows the session only from the database.
    const initialized = await legacyPost(
      b.port,
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      session,
    );
    expect(initialized.status).toBe(202);
    const listed = await legacyPost(
      b.port,
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
      session,
    );
    expect(listed.status).toBe(200);
    expect(await listed.text()).toContain('"whoami"');
    // The call runs on A, which asks the client to sample on the call's stream...
    const call = await openStream(a.port, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': LEGACY,
        'mcp-session-id': session,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'ask', arguments: {} },
      }),
    });
    try {
      const asked = await call.until((event) => event['method'] === 'sampling/createMessage');
      // ...and the client's answer reaches A's waiting handler through B.
      const answered = await legacyPost(
        b.port,
        {
          jsonrpc: '2.0',
          id: asked['id'],
          result: { role: 'assistant', content: { type: 'text', text: 'hi from B' }, model: 'm' },
        },
        session,
      );
      expect(answered.status).toBe(202);
      const result = await call.until((event) => event['id'] === 3);
      expect(result['result']).toMatchObject({
        content: [{ type: 'text', text: 'sampled on A: hi from B' }],
      });
    } finally {
      call.close();
    }
  });

  test('a 2025-11-25 session subscribed to a resource on A is told of its update made on B', async () => {
    const session = await startSession(a.port);
    const subscribed = await legacyPost(
      a.port,
      { jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: 'test://watched' } },
      session,
    );
    expect(subscribed.status).toBe(200);
    await subscribed.text();
    const stream = await openStream(a.port, {
      method: 'GET',
      headers: { accept: 'text/event-stream', 'mcp-protocol-version': LEGACY, 'mcp-session-id': session },
    });
    try {
      expect(stream.status).toBe(200);
      expect(toolText(await modern(b.port, 'tools/call', { name: 'touch', arguments: {} }))).toBe(
        'touched by B',
      );
      const updated = await stream.until((event) => event['method'] === 'notifications/resources/updated');
      expect(updated['params']).toEqual({ uri: 'test://watched' });
    } finally {
      stream.close();
    }
  });

  test("the connectome's observed graphs of A and B merge into one, each edge attributed and weighted by the process that saw it", async () => {
    const observe = async (server: ServerProcess) => {
      const { bytes, sidecar } = JSON.parse(
        toolText(await modern(server.port, 'tools/call', { name: 'observed', arguments: {} })),
      ) as { bytes: string; sidecar: string };
      return {
        process: server.label,
        bytes: new Uint8Array(Buffer.from(bytes, 'base64')),
        sidecar: new Uint8Array(Buffer.from(sidecar, 'base64')),
      };
    };
    const whoamiCalls = (merged: Awaited<ReturnType<typeof federateGraphs>>, process: string): number => {
      const edge = merged.graph.edges.find(
        (one) =>
          one.from.startsWith(scopedId(process, '')) && one.to.endsWith('whoami') && one.kind === 'invoke',
      );
      return (edge?.weight as { count?: number } | undefined)?.count ?? 0;
    };
    const before = await federateGraphs(await Promise.all([a, b].map(observe)));
    for (let n = 0; n < 2; n += 1) await modern(a.port, 'tools/call', { name: 'whoami', arguments: {} });
    for (let n = 0; n < 3; n += 1) await modern(b.port, 'tools/call', { name: 'whoami', arguments: {} });
    const merged = await federateGraphs(await Promise.all([a, b].map(observe)));
    expect(merged.members.map((member) => member.process)).toEqual(['A', 'B']);
    // Each process counted its own calls and none of the other's.
    expect(whoamiCalls(merged, 'A') - whoamiCalls(before, 'A')).toBe(2);
    expect(whoamiCalls(merged, 'B') - whoamiCalls(before, 'B')).toBe(3);
    const by = new Set(merged.attribution.map((edge) => `${edge.asserted_by}:${edge.weight_by}`));
    expect(by).toEqual(new Set(['A:A', 'B:B']));
  });
});
