/**
 * The one connection a process LISTENs on, outside the pool (a pooled connection is shared, a
 * LISTEN belongs to its session). It is opened on the first subscription, and when it drops
 * every channel's subscribers are told (`lost`: notifications may have been missed), the
 * database is marked unreachable, and it reconnects with backoff and LISTENs again, telling
 * `regained` subscribers so they can read back what they may have missed.
 *
 * A dropped connection is not only one the driver reports ('error' or 'end'): a database that
 * stops answering without closing the socket (a frozen host, a partition) reports nothing for as
 * long as TCP keeps the socket, hours. So the connection is asked `SELECT 1` every
 * `listenHealthMs`, and one not answered within `connectTimeoutMs` counts as dropped.
 */
import pg from 'pg';
import { Backoff } from './backoff.js';
import type { Database } from './database.js';

type Handler = (payload: string) => void;

export class Listener {
  readonly #db: Database;
  readonly #name: string;
  readonly #channels = new Map<string, Set<Handler>>();
  readonly #lost = new Set<() => void>();
  readonly #regained = new Set<() => void>();
  readonly #backoff: Backoff;
  #client: pg.Client | undefined;
  #starting: Promise<void> | undefined;
  #retry: NodeJS.Timeout | undefined;
  #health: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(db: Database, name: string) {
    this.#db = db;
    this.#name = name;
    this.#backoff = new Backoff(db.settings.backoffInitialMs, db.settings.backoffMaxMs);
  }

  /** The name this process's LISTEN connection shows in pg_stat_activity.application_name. */
  get applicationName(): string {
    return this.#name;
  }

  /** Whether the connection is up and LISTENing: a subscriber added now hears what is sent next. */
  get listening(): boolean {
    return this.#client !== undefined;
  }

  /** Subscribes to a channel; resolves once the LISTEN is in place (or the first attempt failed). */
  async on(channel: string, handler: Handler): Promise<() => void> {
    let handlers = this.#channels.get(channel);
    const fresh = handlers === undefined;
    if (handlers === undefined) {
      handlers = new Set();
      this.#channels.set(channel, handlers);
    }
    handlers.add(handler);
    const undo = (): void => {
      handlers.delete(handler);
    };
    if (this.#client !== undefined && fresh) {
      await this.#client.query(`LISTEN ${channel}`).catch(() => undefined);
      return undo;
    }
    await this.#ensure();
    return undo;
  }

  onLost(handler: () => void): void {
    this.#lost.add(handler);
  }

  onRegained(handler: () => void): void {
    this.#regained.add(handler);
  }

  #ensure(): Promise<void> {
    if (this.#client !== undefined || this.#closed) return Promise.resolve();
    this.#starting ??= this.#connect().finally(() => {
      this.#starting = undefined;
    });
    return this.#starting;
  }

  async #connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.#db.settings.connectionString,
      connectionTimeoutMillis: this.#db.settings.connectTimeoutMs,
      application_name: this.#name,
      keepAlive: true,
    });
    client.on('error', () => this.#drop(client));
    client.on('end', () => this.#drop(client));
    try {
      await client.connect();
      for (const channel of this.#channels.keys()) await client.query(`LISTEN ${channel}`);
    } catch {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      this.#db.markUnreachable();
      this.#schedule();
      return;
    }
    if (this.#closed) {
      await client.end().catch(() => undefined);
      return;
    }
    client.on('notification', (message) => {
      const handlers = this.#channels.get(message.channel);
      if (handlers === undefined || message.payload === undefined) return;
      for (const handler of [...handlers]) handler(message.payload);
    });
    const wasLost = this.#backoff !== undefined && this.#retry !== undefined;
    this.#retry = undefined;
    this.#client = client;
    this.#backoff.reset();
    this.#checkLater(client);
    if (wasLost) for (const handler of [...this.#regained]) handler();
  }

  /** The next health query on `client`, while it is the connection in use. */
  #checkLater(client: pg.Client): void {
    this.#health = setTimeout(() => void this.#check(client), this.#db.settings.listenHealthMs);
    this.#health.unref();
  }

  async #check(client: pg.Client): Promise<void> {
    if (this.#client !== client) return;
    let timer: NodeJS.Timeout | undefined;
    const silent = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), this.#db.settings.connectTimeoutMs);
    });
    const answered = await Promise.race([
      client.query('SELECT 1').then(
        () => true,
        () => false,
      ),
      silent,
    ]);
    clearTimeout(timer);
    if (this.#client !== client) return;
    if (answered) this.#checkLater(client);
    else this.#drop(client);
  }

  #drop(client: pg.Client): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    clearTimeout(this.#health);
    client.removeAllListeners('notification');
    void client.end().catch(() => undefined);
    if (this.#closed) return;
    for (const handler of [...this.#lost]) handler();
    this.#db.markUnreachable();
    this.#schedule();
  }

  #schedule(): void {
    if (this.#closed) return;
    clearTimeout(this.#retry);
    this.#retry = setTimeout(() => void this.#ensure(), this.#backoff.delay());
    this.#retry.unref();
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    clearTimeout(this.#health);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => undefined);
  }
}
