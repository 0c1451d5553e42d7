/**
 * The tasks store in a table. Ids are random UUIDs (122 random bits); every read and write names
 * the principal and the expiry in its WHERE clause, so another principal's task and an expired
 * one are the same missing row, and a terminal task is never changed (the update's WHERE says so:
 * two processes racing to finish one task cannot both win). Expired rows are deleted now and then
 * by `create`, a bounded batch at a time. `list` pages in creation order by a sequence column,
 * the principal and expiry in its WHERE too.
 */
import { randomUUID } from 'node:crypto';
import {
  type JsonObject,
  MAX_PAGE_SIZE,
  type TaskChange,
  type TaskPage,
  type TaskRecord,
  type TaskStore,
} from 'palisade-mcp';
import type { Database } from './database.js';

interface TaskRow {
  task_id: string;
  status: TaskRecord['status'];
  created_ms: string;
  updated_ms: string;
  ttl_ms: string;
  poll_interval_ms: number | null;
  status_message: string | null;
  result: JsonObject | null;
  error: JsonObject | null;
  input_requests: TaskRecord['inputRequests'] | null;
  work: JsonObject;
}

const COLUMNS =
  'task_id, status, created_ms, updated_ms, ttl_ms, poll_interval_ms, status_message, result, error, input_requests, work';
/** A list cursor this store issues: the `seq` of the last task a page gave. */
const CURSOR = /^s([0-9]{1,18})$/;
/** Every this many creates, one bounded sweep of expired rows. */
const SWEEP_EVERY = 256;
const SWEEP_BATCH = 1_000;

function record(row: TaskRow): TaskRecord {
  const task: Record<string, unknown> = {
    taskId: row.task_id,
    status: row.status,
    createdAt: new Date(Number(row.created_ms)).toISOString(),
    lastUpdatedAt: new Date(Number(row.updated_ms)).toISOString(),
    ttlMs: Number(row.ttl_ms),
    work: row.work,
  };
  if (row.poll_interval_ms !== null) task['pollIntervalMs'] = row.poll_interval_ms;
  if (row.status_message !== null) task['statusMessage'] = row.status_message;
  if (row.result !== null) task['result'] = row.result;
  if (row.error !== null) task['error'] = row.error;
  if (row.input_requests !== null) task['inputRequests'] = row.input_requests;
  return task as unknown as TaskRecord;
}

function json(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

export class PostgresTaskStore implements TaskStore {
  readonly #db: Database;
  readonly #ttlMs: number;
  readonly #pollIntervalMs: number;
  #creates = 0;

  constructor(db: Database, ttlMs: number, pollIntervalMs: number) {
    this.#db = db;
    this.#ttlMs = ttlMs;
    this.#pollIntervalMs = pollIntervalMs;
  }

  async create(principal: string, work: JsonObject): Promise<TaskRecord> {
    const now = Date.now();
    const found = await this.#db.query<TaskRow>(
      `INSERT INTO ${this.#db.table('tasks')}
         (task_id, principal, status, created_ms, updated_ms, ttl_ms, expires_ms, poll_interval_ms, work)
       VALUES ($1, $2, 'working', $3, $3, $4, $5, $6, $7)
       RETURNING ${COLUMNS}`,
      [
        randomUUID(),
        principal,
        now,
        this.#ttlMs,
        now + this.#ttlMs,
        this.#pollIntervalMs,
        JSON.stringify(work),
      ],
    );
    this.#creates += 1;
    if (this.#creates % SWEEP_EVERY === 0) void this.sweep(now).catch(() => undefined);
    return record(found.rows[0] as TaskRow);
  }

  async get(taskId: string, principal: string): Promise<TaskRecord | undefined> {
    const found = await this.#db.query<TaskRow>(
      `SELECT ${COLUMNS} FROM ${this.#db.table('tasks')}
       WHERE task_id = $1 AND principal = $2 AND expires_ms > $3`,
      [taskId, principal, Date.now()],
    );
    const row = found.rows[0];
    return row === undefined ? undefined : record(row);
  }

  async update(taskId: string, principal: string, change: TaskChange): Promise<boolean> {
    const now = Date.now();
    const changed = await this.#db.query(
      `UPDATE ${this.#db.table('tasks')}
       SET status = $4, result = $5, error = $6, input_requests = $7, work = $8,
           updated_ms = GREATEST(updated_ms + 1, $3)
       WHERE task_id = $1 AND principal = $2 AND expires_ms > $3
         AND status NOT IN ('completed', 'failed', 'cancelled')`,
      [
        taskId,
        principal,
        now,
        change.status,
        json(change.result),
        json(change.error),
        json(change.inputRequests),
        JSON.stringify(change.work),
      ],
    );
    return changed.rowCount === 1;
  }

  /** One more row than the page is read: its presence is what says a next page exists. */
  async list(principal: string, cursor: string | undefined, limit: number): Promise<TaskPage | undefined> {
    let after = '0';
    if (cursor !== undefined) {
      const matched = CURSOR.exec(cursor);
      if (matched === null) return undefined;
      after = matched[1] as string;
    }
    const size = Math.max(1, Math.min(Math.trunc(limit) || 1, MAX_PAGE_SIZE));
    const found = await this.#db.query<TaskRow & { seq: string }>(
      `SELECT ${COLUMNS}, seq FROM ${this.#db.table('tasks')}
       WHERE principal = $1 AND expires_ms > $2 AND seq > $3
       ORDER BY seq LIMIT $4`,
      [principal, Date.now(), after, size + 1],
    );
    const rows = found.rows.slice(0, size);
    const tasks = rows.map(record);
    if (found.rows.length <= size) return { tasks };
    return { tasks, nextCursor: `s${(rows.at(-1) as { seq: string }).seq}` };
  }

  /** Deletes up to a batch of expired tasks; answers how many. */
  async sweep(now = Date.now()): Promise<number> {
    const gone = await this.#db.query(
      `DELETE FROM ${this.#db.table('tasks')} WHERE task_id IN
         (SELECT task_id FROM ${this.#db.table('tasks')} WHERE expires_ms <= $1 LIMIT ${SWEEP_BATCH})`,
      [now],
    );
    return gone.rowCount ?? 0;
  }
}
