/**
 * Replies and cancels to whichever process runs the request, through a table and one NOTIFY
 * channel. A wait is a row (`waiting`) with an id from a sequence, unique across processes and
 * sessions; `deliver`, on any process, moves its own session's row from `waiting` to `delivered`
 * with the reply in one UPDATE (so one reply wins, and another session's id matches nothing) and
 * NOTIFYs; the process holding the wait reads the reply and settles it. A wait lapses at its
 * deadline by the same kind of UPDATE, so a reply racing the deadline is either delivered or
 * late, never both. Cancels are NOTIFYs: the process running that request aborts it.
 *
 * When the LISTEN connection drops, a notification may be lost: on reconnecting, every wait held
 * here reads its row again, so a reply delivered meanwhile still arrives.
 */
import type { ClientReply, Delivery, PendingReply, SessionRelay, WaitEnd } from 'palisade-mcp';
import type { RequestId } from 'palisade-mcp/wire';
import type { Database } from './database.js';
import type { Listener } from './listener.js';

interface Held {
  readonly session: string;
  readonly id: number;
  readonly settle: (outcome: ClientReply | WaitEnd) => void;
  readonly timer: NodeJS.Timeout;
}

/** How long a settled wait's row stays, so a reply arriving after it is told `late`, ms. */
const SETTLED_RETENTION_MS = 600_000;

function idKey(id: RequestId): string {
  return typeof id === 'number' ? `n${id}` : `s${id}`;
}

export class PostgresRelay implements SessionRelay {
  readonly #db: Database;
  readonly #listener: Listener;
  readonly #channel: string;
  /** This process's name on the channel: its own cancels are run at once, not again when heard. */
  readonly #origin: string;
  readonly #held = new Map<number, Held>();
  readonly #cancels = new Map<string, () => void>();
  #listening: Promise<unknown> | undefined;

  constructor(db: Database, listener: Listener, origin: string) {
    this.#db = db;
    this.#listener = listener;
    this.#channel = `${db.settings.schema}_relay`;
    this.#origin = origin;
  }

  #listen(): Promise<unknown> {
    this.#listening ??= (async () => {
      this.#listener.onRegained(() => {
        for (const held of [...this.#held.values()]) void this.#collect(held);
      });
      return await this.#listener.on(this.#channel, (payload) => this.#heard(payload));
    })();
    return this.#listening;
  }

  /** Starts LISTENing for replies and cancels now; resolves once it does. */
  async ready(): Promise<void> {
    await this.#listen();
  }

  #heard(payload: string): void {
    let message: unknown;
    try {
      message = JSON.parse(payload);
    } catch {
      return;
    }
    if (typeof message !== 'object' || message === null) return;
    const { k, s, i, r, o } = message as Record<string, unknown>;
    if (k === 'reply' && typeof i === 'number') {
      const held = this.#held.get(i);
      if (held !== undefined && held.session === s) void this.#collect(held);
    } else if (k === 'end' && typeof s === 'string') {
      for (const held of [...this.#held.values()]) if (held.session === s) this.#settle(held, 'ended');
    } else if (k === 'cancel' && typeof s === 'string' && typeof r === 'string' && o !== this.#origin) {
      this.#cancels.get(`${s}\u0000${r}`)?.();
    }
  }

  /** Reads a wait's row and settles it if it was answered or ended meanwhile. */
  async #collect(held: Held): Promise<void> {
    let row: { state: string; reply: ClientReply | null } | undefined;
    try {
      const found = await this.#db.query<{ state: string; reply: ClientReply | null }>(
        `SELECT state, reply FROM ${this.#db.table('relay_waits')} WHERE session = $1 AND id = $2`,
        [held.session, held.id],
      );
      row = found.rows[0];
    } catch {
      return;
    }
    if (row === undefined || row.state === 'ended') this.#settle(held, 'ended');
    else if (row.state === 'delivered' && row.reply !== null) this.#settle(held, row.reply);
  }

  #settle(held: Held, outcome: ClientReply | WaitEnd): void {
    if (this.#held.get(held.id) !== held) return;
    this.#held.delete(held.id);
    clearTimeout(held.timer);
    held.settle(outcome);
  }

  async wait(session: string, deadline: number): Promise<PendingReply> {
    await this.#listen();
    const inserted = await this.#db.query<{ id: string }>(
      `INSERT INTO ${this.#db.table('relay_waits')} (session, id, deadline_ms, state)
       VALUES ($1, nextval('${this.#db.table('relay_ids')}'), $2, 'waiting') RETURNING id`,
      [session, deadline],
    );
    const id = Number(inserted.rows[0]?.id);
    let settle!: (outcome: ClientReply | WaitEnd) => void;
    const reply = new Promise<ClientReply | WaitEnd>((resolve) => {
      settle = resolve;
    });
    const lapse = async (): Promise<void> => {
      const held = this.#held.get(id);
      if (held === undefined) return;
      try {
        const lapsed = await this.#db.query(
          `UPDATE ${this.#db.table('relay_waits')} SET state = 'lapsed' WHERE session = $1 AND id = $2 AND state = 'waiting'`,
          [session, id],
        );
        // The reply won the race: it is read and delivered instead.
        if (lapsed.rowCount === 0) {
          await this.#collect(held);
          return;
        }
      } catch {
        // Unreachable: the handler is not left waiting on a database that cannot answer.
      }
      this.#settle(held, 'lapsed');
    };
    const timer = setTimeout(() => void lapse(), Math.max(0, deadline - Date.now()));
    timer.unref();
    this.#held.set(id, { session, id, settle, timer });
    return { id, reply, cancel: () => void lapse() };
  }

  async deliver(session: string, reply: ClientReply): Promise<Delivery> {
    if (typeof reply.id !== 'number' || !Number.isSafeInteger(reply.id)) return 'unknown';
    const table = this.#db.table('relay_waits');
    const found = await this.#db.query<{ outcome: string }>(
      `WITH answered AS (
         UPDATE ${table} SET state = 'delivered', reply = $3
         WHERE session = $1 AND id = $2 AND state = 'waiting' RETURNING id
       ), told AS (
         SELECT pg_notify($4, json_build_object('k', 'reply', 's', $1::text, 'i', $2::bigint)::text) FROM answered
       )
       SELECT CASE WHEN EXISTS (SELECT 1 FROM told) THEN 'delivered'
                   WHEN EXISTS (SELECT 1 FROM ${table} WHERE session = $1 AND id = $2 AND state = 'lapsed') THEN 'late'
                   ELSE 'unknown' END AS outcome`,
      [session, reply.id, JSON.stringify(reply), this.#channel],
    );
    const outcome = found.rows[0]?.outcome;
    // A wait held here is settled now rather than when its own notification comes back.
    const held = this.#held.get(reply.id);
    if (outcome === 'delivered' && held !== undefined && held.session === session) this.#settle(held, reply);
    return outcome === 'delivered' || outcome === 'late' ? outcome : 'unknown';
  }

  onCancel(session: string, request: RequestId, abort: () => void): () => void {
    void this.#listen().catch(() => undefined);
    const key = `${session}\u0000${idKey(request)}`;
    this.#cancels.set(key, abort);
    return () => {
      if (this.#cancels.get(key) === abort) this.#cancels.delete(key);
    };
  }

  async cancel(session: string, request: RequestId): Promise<void> {
    this.#cancels.get(`${session}\u0000${idKey(request)}`)?.();
    await this.#db.query('SELECT pg_notify($1, $2)', [
      this.#channel,
      JSON.stringify({ k: 'cancel', s: session, r: idKey(request), o: this.#origin }),
    ]);
  }

  async endSession(session: string): Promise<void> {
    for (const held of [...this.#held.values()]) if (held.session === session) this.#settle(held, 'ended');
    const now = Date.now();
    await this.#db.query(
      `WITH ended AS (
         UPDATE ${this.#db.table('relay_waits')} SET state = 'ended' WHERE session = $1 AND state = 'waiting' RETURNING id
       )
       SELECT pg_notify($2, json_build_object('k', 'end', 's', $1::text)::text) WHERE EXISTS (SELECT 1 FROM ended)`,
      [session, this.#channel],
    );
    await this.#db.query(`DELETE FROM ${this.#db.table('relay_waits')} WHERE deadline_ms < $1`, [
      now - SETTLED_RETENTION_MS,
    ]);
  }
}
