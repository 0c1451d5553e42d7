/**
 * `tasks/get`, `tasks/update` and `tasks/cancel` (tasks extension, SEP-2663; 2026-07-28, served
 * only when the host gave `tasks.store`). Each needs the extension in this request's
 * `clientCapabilities` (-32021 otherwise). A task id the store does not answer for this
 * principal (missing, expired, someone else's, or longer than MAX_TASK_ID_CHARS) is one error,
 * byte for byte: -32602 "no task has that id". The two acks are empty results.
 */
import { HostFault } from '../../catalog/host-fault.js';
import type { TaskRecord } from '../../catalog/task-store.js';
import type { JsonObject } from '../../catalog/types.js';
import { MAX_TASK_ID_CHARS } from '../../limits.js';
import { isPlainObject } from '../../options.js';
import { invalidParams } from '../errors.js';
import type { TasksConfig } from '../tasks/config.js';
import { declaresTasks, lacksTasks } from '../tasks/negotiation.js';
import { checkRecord, isTerminal, wireTask } from '../tasks/record.js';
import { busy, checkWork, principalFor, startRound, tasksOf } from '../tasks/runner.js';
import { type Call, failure, type Outcome, result } from './call.js';
import { invokeTool } from './tools-call.js';

export const NO_SUCH_TASK = 'no task has that id';

type Found =
  | {
      readonly ok: true;
      readonly config: TasksConfig;
      readonly principal: string;
      readonly record: TaskRecord;
    }
  | { readonly ok: false; readonly outcome: Outcome };

async function find(call: Call): Promise<Found> {
  if (!declaresTasks(call.ctx.clientCapabilities)) return { ok: false, outcome: lacksTasks(call) };
  const taskId = call.params['taskId'];
  if (typeof taskId !== 'string')
    return { ok: false, outcome: failure(invalidParams(call.id, 'params.taskId must be a string')) };
  const config = tasksOf(call);
  const principal = principalFor(call);
  const missing: Found = { ok: false, outcome: failure(invalidParams(call.id, NO_SUCH_TASK)) };
  if (taskId.length === 0 || taskId.length > MAX_TASK_ID_CHARS) return missing;
  const found = await config.store.get(taskId, principal);
  if (found === undefined) return missing;
  const record = checkRecord(found, 'tasks.store.get');
  if (record.taskId !== taskId)
    throw new HostFault('tasks.store.get returned another task than the one asked for');
  return { ok: true, config, principal, record };
}

export async function getTask(call: Call): Promise<Outcome> {
  const found = await find(call);
  if (!found.ok) return found.outcome;
  return result(wireTask(found.record, true));
}

/**
 * Marks the task `cancelled` in the store, then aborts its handler if this process runs it: in
 * that order, so whatever the aborted handler settles to finds the task terminal and is dropped.
 * A terminal task is acked unchanged (idempotent).
 */
export async function cancelTask(call: Call): Promise<Outcome> {
  const found = await find(call);
  if (!found.ok) return found.outcome;
  const { config, principal, record } = found;
  if (!isTerminal(record.status)) {
    await config.store.update(record.taskId, principal, { status: 'cancelled', work: record.work });
    config.running.abort(record.taskId);
  }
  return result({});
}

/**
 * Delivers answers to the outstanding input requests. Keys not outstanding are ignored (SEP-2663:
 * SHOULD); a partial set keeps the task `input_required` with the rest; the last answer resumes
 * the handler here, with this round's answers as `ctx.inputResponses`.
 */
export async function updateTask(call: Call): Promise<Outcome> {
  if (!declaresTasks(call.ctx.clientCapabilities)) return lacksTasks(call);
  const given = call.params['inputResponses'];
  if (!isPlainObject(given) || !Object.values(given).every(isPlainObject))
    return failure(
      invalidParams(call.id, 'params.inputResponses must be an object whose values are objects'),
    );
  const found = await find(call);
  if (!found.ok) return found.outcome;
  const { config, principal, record } = found;
  if (record.status !== 'input_required') return result({});
  const outstanding = record.inputRequests ?? {};
  const answered = Object.keys(given).filter((key) => Object.hasOwn(outstanding, key));
  if (answered.length === 0) return result({});
  const work = checkWork(record.work);
  const answers: JsonObject = { ...work.answers };
  for (const key of answered) answers[key] = given[key];
  const remaining: Record<string, (typeof outstanding)[string]> = {};
  for (const key of Object.keys(outstanding))
    if (!answered.includes(key)) remaining[key] = outstanding[key] as (typeof outstanding)[string];
  const next = JSON.parse(JSON.stringify({ ...work, answers })) as JsonObject;
  if (Object.keys(remaining).length > 0) {
    await config.store.update(record.taskId, principal, {
      status: 'input_required',
      inputRequests: remaining,
      work: next,
    });
    return result({});
  }
  const slot = config.running.reserve();
  if (slot === undefined) return failure(busy(call.id));
  try {
    const applied = await config.store.update(record.taskId, principal, { status: 'working', work: next });
    if (applied) startRound(call, principal, record.taskId, checkWork(next), slot, invokeTool);
  } finally {
    slot.release();
  }
  return result({});
}
