/**
 * The faults of a fleet, each against real processes and a real PostgreSQL: a process killed
 * (SIGKILL) mid-call, the database stopped and started again under running servers, the database
 * frozen (SIGSTOP: no answer, no closed socket), and a NOTIFY storm of 100,000 changes. Every
 * wait is bounded, and the database is restored by the describe that broke it.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RunningPostgres, startPostgres } from './support/embedded-postgres.js';
import {
  listen,
  modern,
  openListen,
  type ServerProcess,
  type Stream,
  spawnServer,
  TASKS_EXTENSION,
  toolText,
  within,
} from './support/fleet.js';

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
});

/** Tries `read` until it answers, for at most `ms`: a fleet converges, it is not instant. */
async function served(server: ServerProcess, what: string, read: () => Promise<boolean>): Promise<void> {
  await until(async () => ((await read()) ? true : undefined), `${server.label} ${what}`, 20_000);
}

/** A listen stream on `server`, once it acknowledges one: after a fault its LISTEN connection returns on its own backoff. */
async function listenOnceServed(server: ServerProcess): Promise<Stream> {
  let stream: Stream | undefined;
  await served(server, 'to acknowledge a listen stream', async () => {
    const opened = await openListen(server.port);
    if (opened.status === 200) {
      await opened.until((event) => event['method'] === 'notifications/subscriptions/acknowledged');
      stream = opened;
      return true;
    }
    opened.close();
    return false;
  });
  return stream as Stream;
}

const LEGACY_INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'faults', version: '1' } },
};

describe('PostgreSQL stopped under running servers', () => {
  let stream: Stream;
  beforeAll(async () => {
    stream = await listen(b.port);
    await database.stop();
  }, 60_000);
  // Restored whatever the tests below did, so no later test finds the database down.
  afterAll(async () => {
    stream?.close();
    await database.start();
  }, 60_000);

  test('an open listen stream ends with its result, so its client lists again', {
    tags: ['threat-model'],
  }, async () => {
    await within(stream.ended, 15_000, 'the listen stream to end');
    expect(stream.events.at(-1)).toMatchObject({ result: { resultType: 'complete' } });
  });

  test('a tools/call that needs no shared state is served meanwhile', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await modern(a.port, 'tools/call', { name: 'whoami', arguments: {} });
    expect(reply.status).toBe(200);
    expect(toolText(reply)).toBe(`A ${a.pid}`);
  });

  test('a tools/call that announces a change is answered 503 postgres-unavailable with Retry-After, naming no cause', {
    tags: ['threat-model'],
  }, async () => {
    const refused = await modern(a.port, 'tools/call', { name: 'announce', arguments: {} });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('2');
    expect(refused.body).toMatchObject({ error: { code: -32603, message: 'Service unavailable' } });
    expect(refused.text).not.toMatch(/ECONNREFUSED|postgres|at .*\.js/i);
  });

  test('a task is refused 503 rather than created where nobody could read it', {
    tags: ['threat-model'],
  }, async () => {
    const refused = await modern(
      a.port,
      'tools/call',
      { name: 'work', arguments: { ms: 10 } },
      TASKS_EXTENSION,
    );
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('2');
  });

  test('a new listen stream is refused 503 rather than acknowledged deaf', {
    tags: ['threat-model'],
  }, async () => {
    const refused = await openListen(b.port);
    try {
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('2');
    } finally {
      refused.close();
    }
  });

  test('a 2025-11-25 session cannot start: 503 postgres-unavailable with Retry-After', {
    tags: ['threat-model'],
  }, async () => {
    const response = await fetch(`http://127.0.0.1:${a.port}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify(LEGACY_INITIALIZE),
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('2');
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect(await response.text()).not.toMatch(/ECONNREFUSED|postgres/i);
  });
});

describe('PostgreSQL started again', () => {
  test('a listen stream on B hears a change announced on A, with no Palisade process restarted', async () => {
    // Each process's pool and LISTEN connection come back on their own backoff, apart: a listen
    // stream is refused until B LISTENs again, and an announcement until A's pool answers.
    const again = await listenOnceServed(b);
    try {
      await served(
        a,
        'to announce',
        async () => (await modern(a.port, 'tools/call', { name: 'announce', arguments: {} })).status === 200,
      );
      await again.until((event) => event['method'] === 'notifications/tools/list_changed');
    } finally {
      again.close();
    }
  });
});

describe('PostgreSQL frozen: it answers nothing and closes no socket', () => {
  let stream: Stream;
  beforeAll(async () => {
    stream = await listen(b.port);
    for (const pid of database.processes()) process.kill(pid, 'SIGSTOP');
  }, 30_000);
  afterAll(() => {
    stream?.close();
    for (const pid of database.processes()) process.kill(pid, 'SIGCONT');
  });

  test("an open listen stream ends once the LISTEN connection's health query goes unanswered", {
    tags: ['threat-model'],
  }, async () => {
    // The fixture asks every 500 ms and waits 1,000 ms: the driver itself reports nothing here.
    await within(stream.ended, 15_000, 'the listen stream to end');
    expect(stream.events.at(-1)).toMatchObject({ result: { resultType: 'complete' } });
  });
});

describe('after the faults', () => {
  test('a NOTIFY storm of 100,000 changes: the listening process stays bounded in memory and keeps serving', async () => {
    const stream = await listenOnceServed(b);
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
