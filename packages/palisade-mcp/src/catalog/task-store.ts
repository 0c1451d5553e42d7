/**
 * The tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663, 2026-07-28 only) as a host sees
 * it. Palisade keeps no task table: the host's store mints every task id, persists each task's
 * status and outcome, and answers a lookup only for the principal that created the task. All
 * Palisade keeps is an AbortController per handler it is running in this process.
 */
import type { InputRequest, JsonObject } from './json-values.js';

/**
 * Whether a tool runs as a task (tasks extension): `optional` when the request declared the
 * extension, `required` always (refused with MISSING_CLIENT_CAPABILITY for a request that did not
 * declare it). Default `forbidden`.
 */
export type TaskSupport = 'forbidden' | 'optional' | 'required';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** A task as the store holds it; Palisade checks its shape every time it reads one. */
export interface TaskRecord {
  /** Minted by the store: unguessable (at least 128 random bits), at most MAX_TASK_ID_CHARS. */
  readonly taskId: string;
  readonly status: TaskStatus;
  /** ISO 8601, set by the store. */
  readonly createdAt: string;
  /** ISO 8601, set by the store on every change it applies. */
  readonly lastUpdatedAt: string;
  /** How long the store keeps the task after creation, in whole milliseconds; null: no limit. */
  readonly ttlMs: number | null;
  /** Suggested polling interval in whole milliseconds. */
  readonly pollIntervalMs?: number;
  readonly statusMessage?: string;
  /** `completed` only: the tool's result (a CallToolResult, `isError` included). */
  readonly result?: JsonObject;
  /** `failed` only: the JSON-RPC error object. */
  readonly error?: JsonObject;
  /** `input_required` only: what the client has still to answer, by key. */
  readonly inputRequests?: Readonly<Record<string, InputRequest>>;
  /** Palisade's own plain-JSON notes to run the handler again after input; keep it as given. */
  readonly work: JsonObject;
}

/** A change Palisade asks the store to make; members absent from it are removed from the task. */
export interface TaskChange {
  readonly status: TaskStatus;
  readonly result?: JsonObject;
  readonly error?: JsonObject;
  readonly inputRequests?: Readonly<Record<string, InputRequest>>;
  readonly work: JsonObject;
}

/** One page of a principal's tasks, oldest first. */
export interface TaskPage {
  readonly tasks: readonly TaskRecord[];
  /** Present when more may follow: given back as `cursor`, the next page starts after this one. */
  readonly nextCursor?: string;
}

/**
 * The host's task store. Every method may be async. Palisade calls it with the principal the
 * request acts for; a task of another principal must look exactly like a missing one.
 */
export interface TaskStore {
  /** Mints a fresh unguessable id and stores a `working` task for `principal`; resolves once `get` would find it. */
  create(principal: string, work: JsonObject): TaskRecord | Promise<TaskRecord>;
  /** The task, or undefined when it is missing, expired or another principal's. */
  get(taskId: string, principal: string): TaskRecord | undefined | Promise<TaskRecord | undefined>;
  /**
   * Applies `change` and returns true, unless the task is missing, another principal's, or already
   * terminal (`completed`, `failed`, `cancelled`): then it changes nothing and returns false.
   */
  update(taskId: string, principal: string, change: TaskChange): boolean | Promise<boolean>;
  /**
   * At most `limit` of `principal`'s tasks not past their TTL, oldest first, after `cursor`
   * (undefined: from the first); undefined for a cursor this store did not issue. Both built-in
   * stores have it, for a host's own views of a caller's tasks (a page, a tool). It is optional
   * because no revision Palisade serves tasks on lists them on the wire: SEP-2663 left
   * `tasks/list` out (a list needs a caller scope the protocol does not define), and 2025-11-25's
   * tasks design is not implemented (docs/will-not-implement.md).
   */
  list?(
    principal: string,
    cursor: string | undefined,
    limit: number,
  ): TaskPage | undefined | Promise<TaskPage | undefined>;
}

export interface TasksOptions {
  readonly store: TaskStore;
  /**
   * Names who a request acts for, from what `authorize` returned. Default: `requestState.principal`
   * when given, else the canonical JSON of `ctx.auth` ('' when undefined: stdio, or HTTP without
   * `authorize`, where every caller is one principal and the unguessable id is the only guard).
   */
  readonly principal?: (auth: unknown) => string;
}
