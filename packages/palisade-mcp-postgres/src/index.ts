/**
 * `palisade-mcp-postgres`: the state a Palisade server keeps outside one process, in PostgreSQL,
 * so N processes behind a load balancer serve as one. `createPostgres()` gives the four shared
 * implementations the server package's contracts name (change bus, task store, session store,
 * event store and relay), over one bounded pool and one LISTEN connection per process.
 */
import { randomBytes } from 'node:crypto';
import { PostgresChangeBus } from './change-bus.js';
import { Database } from './database.js';
import { invalidOption, unavailable } from './errors.js';
import { PostgresEventStore } from './event-store.js';
import { Listener } from './listener.js';
import { migrate as applyMigrations } from './migrations.js';
import { PostgresRelay } from './relay.js';
import { PostgresSessionStore } from './session-store.js';
import { PostgresTaskStore } from './task-store.js';

export { NOTIFY_INLINE_BYTES, PAYLOAD_RETENTION_MS, PostgresChangeBus } from './change-bus.js';
export { PalisadePostgresError, type PostgresErrorCode, UNAVAILABLE_RETRY_AFTER_S } from './errors.js';
export { PostgresEventStore } from './event-store.js';
export { MIGRATIONS, type Migration } from './migrations.js';
export { PostgresRelay } from './relay.js';
export { PostgresSessionStore } from './session-store.js';
export { PostgresTaskStore } from './task-store.js';

export interface PostgresOptions {
  /** `postgres://user:password@host:port/database`. Required. */
  readonly connectionString: string;
  /** The schema every table lives in (a lower-case identifier). Default `palisade`. */
  readonly schema?: string;
  /** Pooled connections at most, per process; requests past it wait for one. Default 10. */
  readonly maxConnections?: number;
  /** How long opening a connection may take before the database counts as unreachable, ms. Default 5,000. */
  readonly connectTimeoutMs?: number;
  /** Longest one statement may run, ms. Default 10,000. */
  readonly statementTimeoutMs?: number;
  /** First reconnect delay, ms; doubled each failure up to `backoffMaxMs`. Default 100. */
  readonly backoffInitialMs?: number;
  /** Longest reconnect delay, ms. Default 2,000. */
  readonly backoffMaxMs?: number;
  /**
   * How often this process's LISTEN connection is asked `SELECT 1`, ms: a database that stops
   * answering without closing the socket ends listen streams within this plus `connectTimeoutMs`.
   * Default 5,000.
   */
  readonly listenHealthMs?: number;
  /** Create or update the schema before the first query. Default true; false: the host runs `migrate()`. */
  readonly migrate?: boolean;
  /** How long a task is kept after creation, ms. Default 3,600,000. */
  readonly taskTtlMs?: number;
  /** The polling interval suggested for tasks, ms. Default 1,000. */
  readonly taskPollIntervalMs?: number;
  /** Changes heard and not yet handed to the hub at most; past it the hub is told `lost`. Default 1,024. */
  readonly maxPendingChanges?: number;
}

export interface Postgres {
  /** For `notifications.bus`. */
  readonly bus: PostgresChangeBus;
  /** For `tasks.store`. */
  readonly tasks: PostgresTaskStore;
  /** For `sessions.store`. */
  readonly sessions: PostgresSessionStore;
  /** For `sessions.events`. */
  readonly events: PostgresEventStore;
  /** For `sessions.relay`. */
  readonly relay: PostgresRelay;
  /** Whether the database answered last time it was asked. */
  readonly reachable: boolean;
  /**
   * Resolves once the database answered (its schema migrated, unless `migrate: false`) and this
   * process LISTENs for changes, replies and cancels. Await it before serving: a listen stream
   * acknowledged earlier could miss a change made meanwhile. Rejects UnavailableError
   * (`PALISADE_ERR_UNAVAILABLE`).
   */
  ready(): Promise<void>;
  /** Applies the schema's migrations now; answers the names applied. */
  migrate(): Promise<readonly string[]>;
  /** This process's LISTEN connection name (pg_stat_activity.application_name). */
  readonly listenerName: string;
  /** Closes the pool and the LISTEN connection. */
  close(): Promise<void>;
}

const SCHEMA = /^[a-z_][a-z0-9_]{0,39}$/;

function integer(value: unknown, path: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max)
    throw invalidOption(path, `must be an integer from ${min} to ${max}`);
  return value;
}

export function createPostgres(options: PostgresOptions): Postgres {
  if (typeof options !== 'object' || options === null) throw invalidOption('options', 'must be an object');
  const known = new Set([
    'connectionString',
    'schema',
    'maxConnections',
    'connectTimeoutMs',
    'statementTimeoutMs',
    'backoffInitialMs',
    'backoffMaxMs',
    'listenHealthMs',
    'migrate',
    'taskTtlMs',
    'taskPollIntervalMs',
    'maxPendingChanges',
  ]);
  for (const key of Object.keys(options)) if (!known.has(key)) throw invalidOption(key, 'is not an option');
  if (typeof options.connectionString !== 'string' || options.connectionString.length === 0)
    throw invalidOption('connectionString', 'is required: a postgres:// URL');
  const schema = options.schema ?? 'palisade';
  if (typeof schema !== 'string' || !SCHEMA.test(schema))
    throw invalidOption('schema', 'must be a lower-case identifier of at most 40 characters');
  if (options.migrate !== undefined && typeof options.migrate !== 'boolean')
    throw invalidOption('migrate', 'must be a boolean');
  const db = new Database({
    connectionString: options.connectionString,
    schema,
    maxConnections: integer(options.maxConnections, 'maxConnections', 10, 1, 1_000),
    connectTimeoutMs: integer(options.connectTimeoutMs, 'connectTimeoutMs', 5_000, 1, 600_000),
    statementTimeoutMs: integer(options.statementTimeoutMs, 'statementTimeoutMs', 10_000, 1, 3_600_000),
    backoffInitialMs: integer(options.backoffInitialMs, 'backoffInitialMs', 100, 1, 60_000),
    backoffMaxMs: integer(options.backoffMaxMs, 'backoffMaxMs', 2_000, 1, 600_000),
    listenHealthMs: integer(options.listenHealthMs, 'listenHealthMs', 5_000, 10, 600_000),
    migrate: options.migrate ?? true,
  });
  const origin = randomBytes(8).toString('hex');
  const listener = new Listener(db, `palisade-listen-${origin}`);
  const maxPending = integer(options.maxPendingChanges, 'maxPendingChanges', 1_024, 1, 1_000_000);
  const bus = new PostgresChangeBus(db, listener, maxPending);
  const relay = new PostgresRelay(db, listener, origin);
  return {
    bus,
    tasks: new PostgresTaskStore(
      db,
      integer(options.taskTtlMs, 'taskTtlMs', 3_600_000, 1, 2_592_000_000),
      integer(options.taskPollIntervalMs, 'taskPollIntervalMs', 1_000, 1, 3_600_000),
    ),
    sessions: new PostgresSessionStore(db),
    events: new PostgresEventStore(db),
    relay,
    get reachable() {
      return db.reachable;
    },
    migrate: () => applyMigrations(db.pool, schema),
    ready: async () => {
      await db.query('SELECT 1');
      await Promise.all([bus.ready(), relay.ready()]);
      if (!db.reachable || !listener.listening) throw unavailable();
    },
    listenerName: listener.applicationName,
    close: async () => {
      await listener.close();
      await db.close();
    },
  };
}
