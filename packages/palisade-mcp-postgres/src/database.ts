/**
 * The adapter's connections: one bounded pg.Pool for queries, the schema every table lives in,
 * and whether the database is reachable. A connection failure marks it unreachable: from then
 * on every query fails at once with UnavailableError (nothing queues behind a dead
 * database) while one probe retries with backoff, and the first probe that succeeds marks it
 * reachable again. The schema is created by the migrations (migrations.ts) before the first
 * query, unless the host runs them itself.
 */
import pg from 'pg';
import { Backoff } from './backoff.js';
import { isConnectionFailure, unavailable } from './errors.js';
import { migrate } from './migrations.js';

export interface DatabaseSettings {
  readonly connectionString: string;
  readonly schema: string;
  readonly maxConnections: number;
  readonly connectTimeoutMs: number;
  readonly statementTimeoutMs: number;
  readonly backoffInitialMs: number;
  readonly backoffMaxMs: number;
  /** How often the LISTEN connection is asked whether it is alive, ms. */
  readonly listenHealthMs: number;
  readonly migrate: boolean;
}

export type Queryable = Pick<pg.PoolClient, 'query'>;

export class Database {
  readonly settings: DatabaseSettings;
  readonly pool: pg.Pool;
  readonly #backoff: Backoff;
  readonly #watchers = new Set<(reachable: boolean) => void>();
  #reachable = true;
  #probe: NodeJS.Timeout | undefined;
  #migrated: Promise<void> | undefined;
  #closed = false;

  constructor(settings: DatabaseSettings) {
    this.settings = settings;
    this.#backoff = new Backoff(settings.backoffInitialMs, settings.backoffMaxMs);
    this.pool = new pg.Pool({
      connectionString: settings.connectionString,
      max: settings.maxConnections,
      connectionTimeoutMillis: settings.connectTimeoutMs,
      idleTimeoutMillis: 10_000,
      statement_timeout: settings.statementTimeoutMs,
      application_name: 'palisade-mcp-postgres',
    });
    // An idle connection the server dropped: pg reports it here, and it must not crash the process.
    this.pool.on('error', (error) => {
      if (isConnectionFailure(error)) this.markUnreachable();
    });
  }

  /** A table's name, qualified by the adapter's schema (checked at construction: a plain identifier). */
  table(name: string): string {
    return `${this.settings.schema}.${name}`;
  }

  get reachable(): boolean {
    return this.#reachable;
  }

  /** Told each time the database becomes unreachable (false) or reachable again (true). */
  watch(watcher: (reachable: boolean) => void): () => void {
    this.#watchers.add(watcher);
    return () => this.#watchers.delete(watcher);
  }

  async query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    text: string,
    values: readonly unknown[] = [],
  ): Promise<pg.QueryResult<R>> {
    await this.#ready();
    try {
      return await this.pool.query<R>(text, values as unknown[]);
    } catch (error) {
      throw this.#judge(error);
    }
  }

  /** Runs `work` in one transaction on one connection; rolled back when it throws. */
  async transaction<T>(work: (client: Queryable) => Promise<T>): Promise<T> {
    await this.#ready();
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw this.#judge(error);
    }
    let broken = false;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      broken = isConnectionFailure(error);
      if (!broken) await client.query('ROLLBACK').catch(() => undefined);
      throw this.#judge(error);
    } finally {
      client.release(broken);
    }
  }

  async #ready(): Promise<void> {
    if (this.#closed || !this.#reachable) throw unavailable();
    if (!this.settings.migrate) return;
    this.#migrated ??= migrate(this.pool, this.settings.schema).then(
      () => undefined,
      (error: unknown) => {
        // A failed migration is tried again by the next query, not remembered as done.
        this.#migrated = undefined;
        throw this.#judge(error);
      },
    );
    await this.#migrated;
  }

  #judge(error: unknown): unknown {
    if (!isConnectionFailure(error)) return error;
    this.markUnreachable();
    return unavailable();
  }

  /** Also called by the LISTEN connection when it drops. */
  markUnreachable(): void {
    if (this.#closed || !this.#reachable) return;
    this.#reachable = false;
    for (const watcher of [...this.#watchers]) watcher(false);
    this.#scheduleProbe();
  }

  #scheduleProbe(): void {
    if (this.#closed) return;
    this.#probe = setTimeout(() => void this.#tryProbe(), this.#backoff.delay());
    this.#probe.unref();
  }

  async #tryProbe(): Promise<void> {
    try {
      await this.pool.query('SELECT 1');
    } catch {
      this.#scheduleProbe();
      return;
    }
    if (this.#closed) return;
    this.#backoff.reset();
    this.#reachable = true;
    for (const watcher of [...this.#watchers]) watcher(true);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#probe);
    await this.pool.end();
  }
}
