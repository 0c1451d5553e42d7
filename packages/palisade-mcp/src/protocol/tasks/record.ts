/**
 * What the store hands back is host data: its shape is checked every time Palisade reads it (a
 * malformed task is a host fault, -32603), and only the members SEP-2663 defines for the task's
 * status reach the wire. Never `requestState`: the tasks wire has none (the suite checks it).
 */
import { HostFault } from '../../catalog/host-fault.js';
import type { TaskRecord, TaskStatus } from '../../catalog/task-store.js';
import type { JsonObject } from '../../catalog/types.js';
import { MAX_TASK_ID_CHARS } from '../../limits.js';
import { isPlainObject } from '../../options.js';
import { META_SERVER_INFO } from '../../revisions.js';
import { ownCopy } from '../own-copy.js';
import type { Server } from '../server-shape.js';

export const TASK_STATUSES: readonly TaskStatus[] = [
  'working',
  'input_required',
  'completed',
  'failed',
  'cancelled',
];

export function isTerminal(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

function positiveInteger(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

/** The store's task checked member by member; `where` names the store call in the fault. */
export function checkRecord(value: unknown, where: string): TaskRecord {
  const fault = (rule: string) => new HostFault(`${where} returned a task whose ${rule}`);
  if (!isPlainObject(value)) throw new HostFault(`${where} did not return a plain object`);
  const taskId = value['taskId'];
  if (typeof taskId !== 'string' || taskId.length === 0 || taskId.length > MAX_TASK_ID_CHARS)
    throw fault(`taskId is not a string of 1 to ${MAX_TASK_ID_CHARS} characters`);
  const status = value['status'];
  if (!(TASK_STATUSES as readonly unknown[]).includes(status)) throw fault('status is not a task status');
  for (const key of ['createdAt', 'lastUpdatedAt'])
    if (typeof value[key] !== 'string') throw fault(`${key} is not a string`);
  const ttlMs = value['ttlMs'];
  if (ttlMs !== null && !positiveInteger(ttlMs)) throw fault('ttlMs is not null or a positive integer');
  if (value['pollIntervalMs'] !== undefined && !positiveInteger(value['pollIntervalMs']))
    throw fault('pollIntervalMs is not a positive integer');
  if (value['statusMessage'] !== undefined && typeof value['statusMessage'] !== 'string')
    throw fault('statusMessage is not a string');
  if (!isPlainObject(value['work'])) throw fault('work is not a plain object');
  if (status === 'completed' && !isPlainObject(value['result'])) throw fault('result is missing');
  if (status === 'failed') {
    const error = value['error'];
    if (!isPlainObject(error) || typeof error['code'] !== 'number' || typeof error['message'] !== 'string')
      throw fault('error is not a JSON-RPC error object');
  }
  if (status === 'input_required' && !isPlainObject(value['inputRequests']))
    throw fault('inputRequests is missing');
  return value as unknown as TaskRecord;
}

/**
 * The task's members on the wire: status and metadata, and for `tasks/get` (`detailed`) also
 * what its status carries. The core's envelope adds `resultType: "complete"` to a `tasks/get`.
 */
export function wireTask(record: TaskRecord, detailed: boolean): JsonObject {
  const body: JsonObject = {
    taskId: record.taskId,
    status: record.status,
    createdAt: record.createdAt,
    lastUpdatedAt: record.lastUpdatedAt,
    ttlMs: record.ttlMs,
  };
  if (record.pollIntervalMs !== undefined) body['pollIntervalMs'] = record.pollIntervalMs;
  if (record.statusMessage !== undefined) body['statusMessage'] = record.statusMessage;
  if (detailed) {
    if (record.status === 'completed') body['result'] = ownCopy(record.result as JsonObject);
    if (record.status === 'failed') body['error'] = ownCopy(record.error as JsonObject);
    if (record.status === 'input_required')
      body['inputRequests'] = ownCopy(record.inputRequests as unknown as JsonObject);
  }
  return body;
}

/** The CreateTaskResult: flat (`Result & Task`), `resultType: "task"`, no result, error or inputRequests. */
export function createTaskResult(server: Server, record: TaskRecord): JsonObject {
  const body = wireTask(record, false);
  body['resultType'] = 'task';
  body['_meta'] = { [META_SERVER_INFO]: ownCopy(server.info) };
  return body;
}
