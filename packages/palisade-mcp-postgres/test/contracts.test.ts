/**
 * The PostgreSQL implementations pass, unchanged, the contract suites the in-memory defaults pass
 * (palisade-mcp/test/shared and test/sessions), against a real PostgreSQL started here. Each
 * fresh instance gets its own schema, created by the adapter's migrations on first use.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  eventStoreContract,
  relayContract,
  sessionStoreContract,
} from '../../palisade-mcp/test/sessions/contract-suite.js';
import { changeBusContract } from '../../palisade-mcp/test/shared/change-bus-contract.js';
import {
  CONTRACT_TASK_TTL_MS,
  taskStoreContract,
} from '../../palisade-mcp/test/shared/task-store-contract.js';
import { createPostgres, MIGRATIONS, type Postgres, type PostgresOptions } from '../src/index.js';
import { type RunningPostgres, startPostgres } from './support/embedded-postgres.js';

let database: RunningPostgres;
const opened: Postgres[] = [];
let schemas = 0;

beforeAll(async () => {
  database = await startPostgres();
}, 120_000);

afterAll(async () => {
  await Promise.all(opened.splice(0).map((one) => one.close()));
  await database?.destroy();
});

function open(schema: string, extra: Partial<PostgresOptions> = {}): Postgres {
  const one = createPostgres({ connectionString: database.url, schema, maxConnections: 3, ...extra });
  opened.push(one);
  return one;
}

function fresh(extra: Partial<PostgresOptions> = {}): Postgres {
  schemas += 1;
  return open(`contract_${schemas}`, extra);
}

sessionStoreContract('postgres', () => fresh().sessions);
eventStoreContract('postgres', () => fresh().events);
relayContract('postgres', () => fresh().relay);
taskStoreContract('postgres', () => fresh({ taskTtlMs: CONTRACT_TASK_TTL_MS }).tasks);
changeBusContract('postgres', async () => {
  schemas += 1;
  const schema = `contract_${schemas}`;
  const a = open(schema);
  const b = open(schema, { backoffInitialMs: 20, backoffMaxMs: 200 });
  return {
    a: a.bus,
    b: b.bus,
    interrupt: async () => {
      const admin = new pg.Client(database.url);
      await admin.connect();
      try {
        await admin.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
          [b.listenerName],
        );
      } finally {
        await admin.end();
      }
    },
  };
});

describe('migrations', () => {
  test('the schema is created by the named migrations, each once, however many processes apply them at once', async () => {
    const schema = 'migrated_once';
    const fleet = [
      open(schema, { migrate: false }),
      open(schema, { migrate: false }),
      open(schema, { migrate: false }),
    ];
    const applied = await Promise.all(fleet.map((one) => one.migrate()));
    const names = MIGRATIONS.map((migration) => migration.name);
    expect(names[0]).toBe('0001-create-tasks-sessions-events-relay-and-change-payloads');
    expect(applied.flat().sort()).toEqual(names);
    const admin = new pg.Client(database.url);
    await admin.connect();
    try {
      const rows = await admin.query(`SELECT name FROM ${schema}.schema_migrations ORDER BY name`);
      expect(rows.rows).toEqual(names.map((name) => ({ name })));
    } finally {
      await admin.end();
    }
  });

  test('with migrate: false nothing is created until the host migrates', async () => {
    const one = open('not_migrated', { migrate: false });
    await expect(one.sessions.size()).rejects.toThrow(/does not exist/);
    await one.migrate();
    expect(await one.sessions.size()).toBe(0);
  });
});
