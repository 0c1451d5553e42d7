/**
 * The schema, as named migrations applied in order, each once, recorded in
 * `<schema>.schema_migrations`. The adapter applies them before its first query (`migrate: true`,
 * the default); a host that runs schema changes itself (`migrate: false`) calls `migrate()` from
 * its deploy step instead. A transaction-scoped advisory lock makes N processes starting at once
 * apply each migration exactly once. JSON is stored as `json`, not `jsonb`: a task's notes and a
 * client's reply come back as the exact text they were given.
 */
import type pg from 'pg';

export interface Migration {
  /** Stable forever: it is the row that records the migration as applied. */
  readonly name: string;
  readonly sql: (schema: string) => string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    name: '0001-create-tasks-sessions-events-relay-and-change-payloads',
    sql: (s) => `
      CREATE TABLE ${s}.tasks (
        task_id text PRIMARY KEY,
        principal text NOT NULL,
        status text NOT NULL,
        created_ms bigint NOT NULL,
        updated_ms bigint NOT NULL,
        ttl_ms bigint NOT NULL,
        expires_ms bigint NOT NULL,
        poll_interval_ms integer,
        status_message text,
        result json,
        error json,
        input_requests json,
        work json NOT NULL
      );
      CREATE INDEX tasks_by_expiry ON ${s}.tasks (expires_ms);

      CREATE TABLE ${s}.sessions (
        id text PRIMARY KEY,
        principal text NOT NULL,
        revision text NOT NULL,
        client_capabilities json NOT NULL,
        initialized boolean NOT NULL,
        log_level text,
        subscriptions json NOT NULL,
        last_seen bigint NOT NULL
      );
      CREATE INDEX sessions_by_last_seen ON ${s}.sessions (last_seen);

      CREATE TABLE ${s}.stream_counters (
        session text PRIMARY KEY,
        next_stream bigint NOT NULL
      );
      CREATE TABLE ${s}.streams (
        session text NOT NULL,
        stream bigint NOT NULL,
        next_seq bigint NOT NULL DEFAULT 0,
        first_kept bigint NOT NULL DEFAULT 0,
        ended boolean NOT NULL DEFAULT false,
        PRIMARY KEY (session, stream)
      );
      CREATE TABLE ${s}.events (
        session text NOT NULL,
        stream bigint NOT NULL,
        seq bigint NOT NULL,
        data text NOT NULL,
        bytes integer NOT NULL,
        PRIMARY KEY (session, stream, seq)
      );

      CREATE SEQUENCE ${s}.relay_ids;
      CREATE TABLE ${s}.relay_waits (
        session text NOT NULL,
        id bigint NOT NULL,
        deadline_ms bigint NOT NULL,
        state text NOT NULL,
        reply json,
        PRIMARY KEY (session, id)
      );
      CREATE INDEX relay_waits_by_deadline ON ${s}.relay_waits (deadline_ms);

      CREATE TABLE ${s}.change_payloads (
        id bigserial PRIMARY KEY,
        payload text NOT NULL,
        created_ms bigint NOT NULL
      );
    `,
  },
  {
    // Creation order for list cursors: created_ms ties within a millisecond, a sequence does not.
    name: '0002-tasks-listed-by-principal-in-creation-order',
    sql: (s) => `
      ALTER TABLE ${s}.tasks ADD COLUMN seq bigserial;
      CREATE INDEX tasks_by_principal ON ${s}.tasks (principal, seq);
    `,
  },
];

/** Applies every migration not yet recorded in `schema`; safe to run from many processes at once. */
export async function migrate(pool: pg.Pool, schema: string): Promise<readonly string[]> {
  const client = await pool.connect();
  const applied: string[] = [];
  let broken = false;
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`palisade-mcp-postgres:${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${schema}.schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const done = new Set(
      (await client.query<{ name: string }>(`SELECT name FROM ${schema}.schema_migrations`)).rows.map(
        (row) => row.name,
      ),
    );
    for (const migration of MIGRATIONS) {
      if (done.has(migration.name)) continue;
      await client.query(migration.sql(schema));
      await client.query(`INSERT INTO ${schema}.schema_migrations (name) VALUES ($1)`, [migration.name]);
      applied.push(migration.name);
    }
    await client.query('COMMIT');
    return applied;
  } catch (error) {
    broken = true;
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release(broken);
  }
}
