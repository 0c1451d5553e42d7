/**
 * The in-memory TaskStore: what one process needs to offer tasks with nothing else. Ids are 128
 * random bits (mintTaskId: an identifier, never a key), a task is found only by the principal that created it, and a task past
 * its TTL is gone on the next lookup. Bounded: past `maxTasks` the oldest task is dropped. Many
 * processes share tasks through a store in a database instead (palisade-mcp-postgres), which
 * passes the same contract suite (test/tasks/task-store-contract.ts).
 */
import { randomBytes } from 'node:crypto';
import { invalidOption } from '../errors.js';
import { MAX_PAGE_SIZE, MAX_TASK_TTL_MS } from '../limits.js';
import { isPlainObject, refuseUnknownKeys, requireInteger } from '../options.js';
import type { TaskChange, TaskPage, TaskRecord, TaskStore } from './task-store.js';
import type { JsonObject } from './types.js';

export interface MemoryTaskStoreOptions {
  /** How long a task is kept after creation, ms. Default 3,600,000 (one hour). */
  readonly ttlMs?: number;
  /** Tasks held at once; the oldest is dropped past it. Default 10,000. */
  readonly maxTasks?: number;
  /** The polling interval suggested to clients, ms. Default 1,000. */
  readonly pollIntervalMs?: number;
}

interface Held {
  readonly principal: string;
  readonly expiresAt: number;
  /** Creation order, for list cursors: a cursor names the last task a page gave. */
  readonly seq: number;
  task: TaskRecord;
}

/** A list cursor this store issues: the creation number of the last task given. */
const CURSOR = /^t([0-9]{1,15})$/;

export function isTerminalStatus(status: TaskRecord['status']): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** A new task id: 16 random bytes as base64url. It names a task; the principal check guards it. */
export function mintTaskId(): string {
  return randomBytes(16).toString('base64url');
}

export class MemoryTaskStore implements TaskStore {
  readonly #tasks = new Map<string, Held>();
  readonly #ttlMs: number;
  readonly #maxTasks: number;
  readonly #pollIntervalMs: number;
  #created = 0;

  constructor(options: MemoryTaskStoreOptions = {}) {
    if (!isPlainObject(options)) throw invalidOption('MemoryTaskStore options', 'must be a plain object');
    refuseUnknownKeys(options, ['ttlMs', 'maxTasks', 'pollIntervalMs'], 'MemoryTaskStore');
    const integer = (key: string, fallback: number, max: number): number =>
      options[key] === undefined ? fallback : requireInteger(options[key], key, 1, max);
    this.#ttlMs = integer('ttlMs', 3_600_000, MAX_TASK_TTL_MS);
    this.#maxTasks = integer('maxTasks', 10_000, 1_000_000);
    this.#pollIntervalMs = integer('pollIntervalMs', 1_000, 3_600_000);
  }

  create(principal: string, work: JsonObject): TaskRecord {
    const now = Date.now();
    const at = new Date(now).toISOString();
    const task: TaskRecord = {
      taskId: mintTaskId(),
      status: 'working',
      createdAt: at,
      lastUpdatedAt: at,
      ttlMs: this.#ttlMs,
      pollIntervalMs: this.#pollIntervalMs,
      work,
    };
    if (this.#tasks.size >= this.#maxTasks) {
      const oldest = this.#tasks.keys().next().value;
      if (oldest !== undefined) this.#tasks.delete(oldest);
    }
    this.#created += 1;
    this.#tasks.set(task.taskId, { principal, expiresAt: now + this.#ttlMs, seq: this.#created, task });
    return task;
  }

  /** Walks the tasks in creation order (the Map's), dropping expired ones as it passes them. */
  list(principal: string, cursor: string | undefined, limit: number): TaskPage | undefined {
    let after = 0;
    if (cursor !== undefined) {
      const matched = CURSOR.exec(cursor);
      if (matched === null) return undefined;
      after = Number(matched[1]);
    }
    const size = Math.max(1, Math.min(Math.trunc(limit) || 1, MAX_PAGE_SIZE));
    const now = Date.now();
    const tasks: TaskRecord[] = [];
    let last = 0;
    for (const [taskId, held] of this.#tasks) {
      if (held.expiresAt <= now) {
        this.#tasks.delete(taskId);
        continue;
      }
      if (held.seq <= after || held.principal !== principal) continue;
      if (tasks.length === size) return { tasks, nextCursor: `t${last}` };
      tasks.push(held.task);
      last = held.seq;
    }
    return { tasks };
  }

  #held(taskId: string, principal: string): Held | undefined {
    const held = this.#tasks.get(taskId);
    if (held === undefined) return undefined;
    if (held.expiresAt <= Date.now()) {
      this.#tasks.delete(taskId);
      return undefined;
    }
    return held.principal === principal ? held : undefined;
  }

  get(taskId: string, principal: string): TaskRecord | undefined {
    return this.#held(taskId, principal)?.task;
  }

  update(taskId: string, principal: string, change: TaskChange): boolean {
    const held = this.#held(taskId, principal);
    if (held === undefined || isTerminalStatus(held.task.status)) return false;
    // Members the change does not carry are removed: a completed task has no inputRequests left.
    const { taskId: id, createdAt, ttlMs, pollIntervalMs, statusMessage } = held.task;
    held.task = {
      taskId: id,
      createdAt,
      ttlMs,
      ...(pollIntervalMs === undefined ? {} : { pollIntervalMs }),
      ...(statusMessage === undefined ? {} : { statusMessage }),
      ...change,
      lastUpdatedAt: new Date().toISOString(),
    };
    return true;
  }
}
