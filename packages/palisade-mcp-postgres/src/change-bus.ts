/**
 * The change hub's bus on LISTEN/NOTIFY: `publish` NOTIFYs one channel of the adapter's schema,
 * and every process LISTENing on it (this one included) hands the change to its hub. A change
 * whose JSON is past NOTIFY's payload limit (8,000 bytes; a URI may be 8,192) travels by
 * reference: its text goes to `change_payloads` and the notification carries the row's id, in
 * one statement, so the row is committed before anyone hears of it.
 *
 * What a process has heard and not yet handed on is bounded (maxPendingChanges): a burst past it
 * (a NOTIFY storm, a slow read of payloads by reference) drops the backlog and tells the hub
 * `lost`, which ends listen streams so their clients list again; nothing grows without bound.
 * While the LISTEN connection is down a new listen stream is refused (ensureListening).
 */
import type { BusEvent, BusListener, Change, ChangeBus } from 'palisade-mcp';
import type { Database } from './database.js';
import { unavailable } from './errors.js';
import type { Listener } from './listener.js';

/** NOTIFY refuses a payload of 8,000 bytes or more; a margin for the one-character tag. */
export const NOTIFY_INLINE_BYTES = 7_900;
/** How long a payload sent by reference is kept for the processes that have still to read it, ms. */
export const PAYLOAD_RETENTION_MS = 60_000;

const LIST_KINDS = new Set(['toolsListChanged', 'promptsListChanged', 'resourcesListChanged']);

/** A change read back from the channel: ours, but checked anyway before it reaches a hub. */
function readChange(text: string): Change | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { kind, uri } = value as { kind?: unknown; uri?: unknown };
  if (typeof kind === 'string' && LIST_KINDS.has(kind)) return { kind } as Change;
  if (kind === 'resourceUpdated' && typeof uri === 'string') return { kind, uri };
  return undefined;
}

export class PostgresChangeBus implements ChangeBus {
  readonly #db: Database;
  readonly #listener: Listener;
  readonly #channel: string;
  readonly #maxPending: number;
  readonly #subscribers = new Set<BusListener>();
  /** Notifications heard and not yet handed on, oldest first: only while one by reference is being read. */
  #pending: string[] = [];
  #draining = false;
  #listening: Promise<unknown> | undefined;

  constructor(db: Database, listener: Listener, maxPending: number) {
    this.#db = db;
    this.#listener = listener;
    this.#channel = `${db.settings.schema}_changes`;
    this.#maxPending = maxPending;
  }

  async publish(change: Change): Promise<void> {
    const text = JSON.stringify(change);
    if (Buffer.byteLength(text, 'utf8') <= NOTIFY_INLINE_BYTES) {
      await this.#db.query('SELECT pg_notify($1, $2)', [this.#channel, `i${text}`]);
      return;
    }
    const now = Date.now();
    await this.#db.query(
      `WITH stored AS (INSERT INTO ${this.#db.table('change_payloads')} (payload, created_ms) VALUES ($2, $3) RETURNING id)
       SELECT pg_notify($1, 'r' || id) FROM stored`,
      [this.#channel, text, now],
    );
    await this.#db.query(`DELETE FROM ${this.#db.table('change_payloads')} WHERE created_ms < $1`, [
      now - PAYLOAD_RETENTION_MS,
    ]);
  }

  subscribe(listener: BusListener): () => void {
    const own: BusListener = (event) => listener(event);
    this.#subscribers.add(own);
    void this.#start().catch(() => undefined);
    return () => {
      this.#subscribers.delete(own);
    };
  }

  #start(): Promise<unknown> {
    if (this.#listening === undefined) {
      this.#listener.onLost(() => this.#lose());
      this.#listening = this.#listener.on(this.#channel, (payload) => this.#heard(payload));
    }
    return this.#listening;
  }

  /**
   * Starts LISTENing now and resolves once it does: a process that serves only after this cannot
   * acknowledge a listen stream before it would hear the changes the stream asked for.
   */
  async ready(): Promise<void> {
    await this.#start();
  }

  /**
   * Throws UnavailableError unless this process LISTENs now and the database answers (a change
   * sent by reference is read through the pool): a listen stream acknowledged otherwise would
   * hear nothing, silently. After a restart the pool and the LISTEN connection come back apart.
   */
  ensureListening(): void {
    if (this.#listener.listening && this.#db.reachable) return;
    void this.#start().catch(() => undefined);
    throw unavailable();
  }

  #tell(event: BusEvent): void {
    for (const subscriber of [...this.#subscribers]) subscriber(event);
  }

  #lose(): void {
    this.#pending = [];
    this.#tell({ lost: true });
  }

  #heard(payload: string): void {
    if (!this.#draining && payload.startsWith('i')) {
      const change = readChange(payload.slice(1));
      if (change !== undefined) this.#tell({ change });
      return;
    }
    if (this.#pending.length >= this.#maxPending) {
      this.#lose();
      return;
    }
    this.#pending.push(payload);
    if (!this.#draining) void this.#drain();
  }

  /** Hands on what was heard in order, reading payloads by reference one at a time. */
  async #drain(): Promise<void> {
    this.#draining = true;
    try {
      for (let payload = this.#pending.shift(); payload !== undefined; payload = this.#pending.shift()) {
        let text: string | undefined;
        if (payload.startsWith('i')) text = payload.slice(1);
        else if (/^r[0-9]{1,19}$/.test(payload)) {
          try {
            const found = await this.#db.query<{ payload: string }>(
              `SELECT payload FROM ${this.#db.table('change_payloads')} WHERE id = $1`,
              [payload.slice(1)],
            );
            text = found.rows[0]?.payload;
          } catch {
            text = undefined;
          }
          // Gone (past retention) or unreadable: the change was missed, and the hub is told so.
          if (text === undefined) {
            this.#lose();
            continue;
          }
        }
        const change = text === undefined ? undefined : readChange(text);
        if (change !== undefined) this.#tell({ change });
      }
    } finally {
      this.#draining = false;
    }
  }
}
