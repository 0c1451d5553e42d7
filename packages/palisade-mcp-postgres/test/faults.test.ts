/**
 * The faults of a fleet, each against real processes and a real PostgreSQL: a process killed
 * (SIGKILL) mid-call, the database stopped and started again under running servers, and a NOTIFY
 * storm of 100,000 changes.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RunningPostgres, startPostgres } from './support/embedded-postgres.js';
import { listen, modern, type ServerProcess, spawnServer, toolText } from './support/fleet.js';

const SCHEMA = 'faults';
let database: RunningPostgres;
let a: ServerProcess;
let b: ServerProcess;
let env: { PG_URL: string; PG_SCHEMA: string };

async function sql<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client(database.url);
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

async function until<T>(read: () => Promise<T | undefined>, what: string, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  database = await startPostgres();
  env = { PG_URL: database.url, PG_SCHEMA: SCHEMA };
  a = await spawnServer('A', env);
  b = await spawnServer('B', env);
}, 120_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await database?.destroy();
});

describe('faults', () => {
  test('a process killed mid-call: the retry on another process succeeds, and the call is answered once', async () => {
    const key = `kill-${Date.now()}`;
    const first = modern(a.port, 'tools/call', { name: 'slow', arguments: { key, ms: 10_000 } }).then(
      (reply) => ({ reply }),
      (error: unknown) => ({ error }),
    );
    // A has started the call (its row is in the database) when it is killed.
    await until(
      async () =>
        (await sql(`SELECT 1 FROM ${SCHEMA}_calls WHERE key = $1`, [key])).length > 0 ? true : undefined,
      "A's call to start",
    );
    a.child.kill('SIGKILL');
    await a.exited;
    const outcome = await first;
    // The client got no answer from A: its connection was cut.
    expect(outcome).toHaveProperty('error');
    const retry = await modern(b.port, 'tools/call', { name: 'slow', arguments: { key, ms: 10 } });
    expect(toolText(retry)).toBe(`${key} done by B`);
    const rows = await sql<{ label: string; finished: boolean }>(
      `SELECT label, finished FROM ${SCHEMA}_calls WHERE key = $1 ORDER BY label`,
      [key],
    );
    expect(rows).toEqual([
      { label: 'A', finished: false },
      { label: 'B', finished: true },
    ]);
    a = await spawnServer('A', env);
  });

  test('PostgreSQL stopped: a named 503 meanwhile and listen streams end; started again: served without restarting Palisade', async () => {
    const stream = await listen(b.port);
    await database.stop();
    try {
      // The stream ends (its client will list again) rather than silently missing changes.
      await stream.ended;
      expect(stream.events.at(-1)).toMatchObject({ result: { resultType: 'complete' } });
      const refused = await until(async () => {
        const reply = await modern(a.port, 'tools/call', { name: 'whoami', arguments: {} });
        return reply.status === 503 ? reply : undefined;
      }, 'a 503 from A');
      expect(refused.headers.get('retry-after')).toBe('2');
      expect(refused.body).toMatchObject({ error: { code: -32603 } });
      expect(refused.text).not.toMatch(/ECONNREFUSED|postgres|at .*\.js/i);
    } finally {
      await database.start();
    }
    for (const server of [a, b])
      await until(async () => {
        const reply = await modern(server.port, 'tools/call', { name: 'whoami', arguments: {} });
        return reply.status === 200 ? reply : undefined;
      }, `${server.label} to serve again`);
    // And changes flow again between the two, through the reconnected LISTEN.
    const again = await listen(b.port);
    try {
      await modern(a.port, 'tools/call', { name: 'announce', arguments: {} });
      await again.until((event) => event['method'] === 'notifications/tools/list_changed');
    } finally {
      again.close();
    }
  });

  test('a NOTIFY storm of 100,000 changes: the listening process stays bounded in memory and keeps serving', async () => {
    const stream = await listen(b.port);
    const before = JSON.parse(toolText(await modern(b.port, 'tools/call', { name: 'memory', arguments: {} })))
      .rss as number;
    // Distinct payloads (PostgreSQL folds identical notifications of one transaction into one).
    for (let batch = 0; batch < 10; batch += 1)
      await sql(
        `SELECT pg_notify($1, 'i' || json_build_object('kind', 'toolsListChanged', 'n', g)::text)
         FROM generate_series($2::int, $2::int + 9999) AS g`,
        [`${SCHEMA}_changes`, batch * 10_000],
      );
    await stream.until((event) => event['method'] === 'notifications/tools/list_changed');
    // B still answers promptly, and what the storm left behind is bounded.
    const after = JSON.parse(toolText(await modern(b.port, 'tools/call', { name: 'memory', arguments: {} })))
      .rss as number;
    expect(after - before).toBeLessThan(64 * 1024 * 1024);
    stream.close();
    expect(toolText(await modern(b.port, 'tools/call', { name: 'whoami', arguments: {} }))).toBe(
      `B ${b.pid}`,
    );
  });
});
