/**
 * The 2025-11-25 sessions in a table. `open` is one statement: it deletes the session when it has
 * been idle too long, and otherwise moves its `last_seen` only for its own principal; the expiry
 * and the principal are in the WHERE clauses, never judged after reading. `create` holds a
 * transaction-scoped advisory lock while it counts, so N processes together keep `maxSessions`.
 */
import type { JsonObject, OpenRefusal, SessionChange, SessionRecord, SessionStore } from 'palisade-mcp';
import type { Database } from './database.js';

interface SessionRow {
  id: string;
  principal: string;
  revision: SessionRecord['revision'];
  client_capabilities: JsonObject;
  initialized: boolean;
  log_level: NonNullable<SessionRecord['logLevel']> | null;
  subscriptions: string[];
  last_seen: string;
  outcome?: string;
}

function record(row: SessionRow): SessionRecord {
  return Object.freeze({
    id: row.id,
    principal: row.principal,
    revision: row.revision,
    clientCapabilities: row.client_capabilities,
    initialized: row.initialized,
    ...(row.log_level === null ? {} : { logLevel: row.log_level }),
    subscriptions: row.subscriptions,
    lastSeen: Number(row.last_seen),
  });
}

const COLUMNS =
  'id, principal, revision, client_capabilities, initialized, log_level, subscriptions, last_seen';

export class PostgresSessionStore implements SessionStore {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  async create(session: SessionRecord, limit: number): Promise<boolean> {
    const table = this.#db.table('sessions');
    return await this.#db.transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${table}:create`]);
      const inserted = await client.query(
        `INSERT INTO ${table} (${COLUMNS})
         SELECT $1, $2, $3, $4, $5, $6, $7, $8
         WHERE (SELECT count(*) FROM ${table}) < $9
         ON CONFLICT (id) DO NOTHING`,
        [
          session.id,
          session.principal,
          session.revision,
          JSON.stringify(session.clientCapabilities),
          session.initialized,
          session.logLevel ?? null,
          JSON.stringify(session.subscriptions),
          session.lastSeen,
          limit,
        ],
      );
      return inserted.rowCount === 1;
    });
  }

  async open(
    id: string,
    principal: string,
    now: number,
    idleMs: number,
  ): Promise<SessionRecord | OpenRefusal> {
    const table = this.#db.table('sessions');
    const found = await this.#db.query<SessionRow>(
      `WITH expired AS (
         DELETE FROM ${table} WHERE id = $1 AND $3::bigint - last_seen >= $4::bigint RETURNING id
       ), touched AS (
         UPDATE ${table} SET last_seen = GREATEST(last_seen, $3::bigint)
         WHERE id = $1 AND principal = $2 AND $3::bigint - last_seen < $4::bigint
         RETURNING ${COLUMNS}
       )
       SELECT 'own' AS outcome, * FROM touched
       UNION ALL
       SELECT 'other' AS outcome, ${COLUMNS} FROM ${table}
       WHERE id = $1 AND principal <> $2 AND $3::bigint - last_seen < $4::bigint`,
      [id, principal, now, idleMs],
    );
    const row = found.rows[0];
    if (row === undefined) return 'unknown';
    return row.outcome === 'own' ? record(row) : 'other-principal';
  }

  async update(id: string, change: SessionChange): Promise<void> {
    const sets: string[] = [];
    const values: unknown[] = [id];
    const set = (column: string, value: unknown): void => {
      values.push(value);
      sets.push(`${column} = $${values.length}`);
    };
    if (change.initialized !== undefined) set('initialized', change.initialized);
    if ('logLevel' in change) set('log_level', change.logLevel ?? null);
    if (change.subscriptions !== undefined) set('subscriptions', JSON.stringify(change.subscriptions));
    if (sets.length === 0) return;
    await this.#db.query(`UPDATE ${this.#db.table('sessions')} SET ${sets.join(', ')} WHERE id = $1`, values);
  }

  async delete(id: string): Promise<boolean> {
    const gone = await this.#db.query(`DELETE FROM ${this.#db.table('sessions')} WHERE id = $1`, [id]);
    return gone.rowCount === 1;
  }

  async sweep(now: number, idleMs: number): Promise<readonly string[]> {
    const gone = await this.#db.query<{ id: string }>(
      `DELETE FROM ${this.#db.table('sessions')} WHERE $1::bigint - last_seen >= $2::bigint RETURNING id`,
      [now, idleMs],
    );
    return gone.rows.map((row) => row.id);
  }

  async size(): Promise<number> {
    const found = await this.#db.query<{ n: string }>(
      `SELECT count(*) AS n FROM ${this.#db.table('sessions')}`,
    );
    return Number(found.rows[0]?.n ?? 0);
  }
}
