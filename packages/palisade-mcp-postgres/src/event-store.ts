/**
 * A session's stream events in tables, for `Last-Event-ID` resumption on any process. Event ids
 * are `<stream>-<sequence>` as in memory. Each change to one session's streams runs in a
 * transaction under an advisory lock on that session, so two processes appending to one stream
 * cannot give two events one id; the bounds (events and bytes per stream, streams per session)
 * are applied inside the same transaction, oldest first, the newest event always kept.
 */
import type { EventStore, Replay, ReplayRefusal, StoredEvent, StreamLimits } from 'palisade-mcp';
import type { Database, Queryable } from './database.js';

const EVENT_ID = /^(0|[1-9][0-9]{0,14})-(0|[1-9][0-9]{0,14})$/;

export class PostgresEventStore implements EventStore {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  #t(name: string): string {
    return this.#db.table(name);
  }

  async #locked<T>(session: string, work: (client: Queryable) => Promise<T>): Promise<T> {
    return await this.#db.transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${this.#t('streams')}:${session}`]);
      return await work(client);
    });
  }

  async openStream(session: string, limits: StreamLimits): Promise<string | undefined> {
    return await this.#locked(session, async (client) => {
      const count = await client.query<{ n: string }>(
        `SELECT count(*) AS n FROM ${this.#t('streams')} WHERE session = $1`,
        [session],
      );
      if (Number(count.rows[0]?.n ?? 0) >= limits.streams) {
        const oldest = await client.query<{ stream: string }>(
          `SELECT stream FROM ${this.#t('streams')} WHERE session = $1 AND ended ORDER BY stream LIMIT 1`,
          [session],
        );
        const forgotten = oldest.rows[0]?.stream;
        if (forgotten === undefined) return undefined;
        await client.query(`DELETE FROM ${this.#t('events')} WHERE session = $1 AND stream = $2`, [
          session,
          forgotten,
        ]);
        await client.query(`DELETE FROM ${this.#t('streams')} WHERE session = $1 AND stream = $2`, [
          session,
          forgotten,
        ]);
      }
      const next = await client.query<{ stream: string }>(
        `INSERT INTO ${this.#t('stream_counters')} (session, next_stream) VALUES ($1, 1)
         ON CONFLICT (session) DO UPDATE SET next_stream = ${this.#t('stream_counters')}.next_stream + 1
         RETURNING next_stream - 1 AS stream`,
        [session],
      );
      const stream = next.rows[0]?.stream as string;
      await client.query(`INSERT INTO ${this.#t('streams')} (session, stream) VALUES ($1, $2)`, [
        session,
        stream,
      ]);
      return String(stream);
    });
  }

  async append(
    session: string,
    stream: string,
    data: string,
    limits: StreamLimits,
  ): Promise<string | undefined> {
    if (!/^(0|[1-9][0-9]{0,14})$/.test(stream)) return undefined;
    return await this.#locked(session, async (client) => {
      const claimed = await client.query<{ seq: string }>(
        `UPDATE ${this.#t('streams')} SET next_seq = next_seq + 1
         WHERE session = $1 AND stream = $2 AND NOT ended RETURNING next_seq - 1 AS seq`,
        [session, stream],
      );
      const seq = claimed.rows[0]?.seq;
      if (seq === undefined) return undefined;
      await client.query(
        `INSERT INTO ${this.#t('events')} (session, stream, seq, data, bytes) VALUES ($1, $2, $3, $4, $5)`,
        [session, stream, seq, data, Buffer.byteLength(data, 'utf8')],
      );
      // Keep the newest events that fit both bounds, and always the newest one.
      await client.query(
        `WITH ranked AS (
           SELECT seq, row_number() OVER (ORDER BY seq DESC) AS n,
                  sum(bytes) OVER (ORDER BY seq DESC) AS tail_bytes
           FROM ${this.#t('events')} WHERE session = $1 AND stream = $2
         )
         DELETE FROM ${this.#t('events')} e USING ranked
         WHERE e.session = $1 AND e.stream = $2 AND e.seq = ranked.seq
           AND ranked.n > 1 AND (ranked.n > $3 OR ranked.tail_bytes > $4)`,
        [session, stream, limits.events, limits.bytes],
      );
      await client.query(
        `UPDATE ${this.#t('streams')} SET first_kept =
           (SELECT min(seq) FROM ${this.#t('events')} WHERE session = $1 AND stream = $2)
         WHERE session = $1 AND stream = $2`,
        [session, stream],
      );
      return `${stream}-${seq}`;
    });
  }

  async endStream(session: string, stream: string): Promise<void> {
    if (!/^(0|[1-9][0-9]{0,14})$/.test(stream)) return;
    await this.#db.query(`UPDATE ${this.#t('streams')} SET ended = true WHERE session = $1 AND stream = $2`, [
      session,
      stream,
    ]);
  }

  async replay(session: string, lastEventId: string): Promise<Replay | ReplayRefusal> {
    const match = EVENT_ID.exec(lastEventId);
    if (match === null) return 'unknown';
    const [, stream = '', sequence = ''] = match;
    const seen = Number(sequence);
    return await this.#db.transaction(async (client) => {
      const found = await client.query<{ next_seq: string; first_kept: string; ended: boolean }>(
        `SELECT next_seq, first_kept, ended FROM ${this.#t('streams')} WHERE session = $1 AND stream = $2`,
        [session, stream],
      );
      const held = found.rows[0];
      if (held === undefined || seen >= Number(held.next_seq)) return 'unknown';
      if (seen + 1 < Number(held.first_kept)) return 'evicted';
      const events = await client.query<{ seq: string; data: string }>(
        `SELECT seq, data FROM ${this.#t('events')} WHERE session = $1 AND stream = $2 AND seq > $3 ORDER BY seq`,
        [session, stream, seen],
      );
      const kept: StoredEvent[] = events.rows.map((row) => ({ id: `${stream}-${row.seq}`, data: row.data }));
      return { stream, events: kept, ended: held.ended };
    });
  }

  async dropSession(session: string): Promise<void> {
    await this.#locked(session, async (client) => {
      await client.query(`DELETE FROM ${this.#t('events')} WHERE session = $1`, [session]);
      await client.query(`DELETE FROM ${this.#t('streams')} WHERE session = $1`, [session]);
      await client.query(`DELETE FROM ${this.#t('stream_counters')} WHERE session = $1`, [session]);
    });
  }
}
