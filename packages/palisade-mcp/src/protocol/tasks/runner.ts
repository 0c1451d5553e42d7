/**
 * Running a tool handler as a task: the store creates the task (and mints its id) before the
 * CreateTaskResult is sent, so a `tasks/get` right after it resolves; the handler then runs in
 * this process under its own AbortController, and what it settles to is written to the store:
 * a tool result (its `isError` included) is `completed`, a host fault `failed` with -32603, an
 * `inputRequired` answer `input_required` with the requests. `tasks/update` resumes the handler
 * from the notes kept in the task (`work`), so any process sharing the store can resume it.
 */
import { HostFault } from '../../catalog/host-fault.js';
import type { TaskChange } from '../../catalog/task-store.js';
import type { InputRequest, JsonObject } from '../../catalog/types.js';
import { isPlainObject } from '../../options.js';
import { MODERN_REVISION } from '../../revisions.js';
import { INTERNAL_ERROR } from '../../wire/codes.js';
import { errorResponse, type JsonRpcError, type RequestId } from '../../wire/jsonrpc.js';
import { canonicalJson } from '../canonical-json.js';
import { missingClientCapability } from '../errors.js';
import { openContext } from '../handler-context.js';
import { lackedForInput } from '../input-required.js';
import type { Call, Outcome } from '../methods/call.js';
import { principalOf, type Slot, type TasksConfig } from './config.js';
import { checkRecord, createTaskResult } from './record.js';

/** Runs the tool's handler once with the given call: the tools/call dispatch itself. */
export type Invoke = (call: Call, args: JsonObject) => Promise<Outcome>;

/** Palisade's notes in a task: enough to run the handler again in any process. Plain JSON. */
export interface TaskWork {
  readonly tool: string;
  readonly arguments: JsonObject;
  readonly clientCapabilities: JsonObject;
  /** The handler's `inputRequired` state, handed back as `ctx.requestState` on the next round. */
  readonly hasState: boolean;
  readonly state?: unknown;
  /** The client's answers to this round's input requests, gathered across `tasks/update` calls. */
  readonly answers: JsonObject;
}

export function busy(id: RequestId): JsonRpcError {
  return errorResponse(id, INTERNAL_ERROR, 'Server busy: MAX_RUNNING_TASKS task handlers are running');
}

export function tasksOf(call: Call): TasksConfig {
  const config = call.server.tasks;
  if (config === undefined) throw new HostFault('a task was asked of a server without tasks.store');
  return config;
}

export function principalFor(call: Call): string {
  return principalOf(tasksOf(call), call.server.requestState?.principal, call.ctx.auth);
}

/** The store's copy must not share objects with what the handler holds. */
function plainCopy(value: JsonObject): JsonObject {
  if (canonicalJson(value) === undefined) throw new HostFault('task notes are not plain JSON data');
  return JSON.parse(JSON.stringify(value)) as JsonObject;
}

/** `work` as read back from the store; anything else is a host fault. */
export function checkWork(value: unknown): TaskWork {
  if (
    !isPlainObject(value) ||
    typeof value['tool'] !== 'string' ||
    !isPlainObject(value['arguments']) ||
    !isPlainObject(value['clientCapabilities']) ||
    typeof value['hasState'] !== 'boolean' ||
    !isPlainObject(value['answers'])
  )
    throw new HostFault('tasks.store returned a task whose work is not the notes Palisade stored');
  return value as unknown as TaskWork;
}

/** `tools/call` for a tool that runs as a task on this request: create, start, answer the CreateTaskResult. */
export async function createTask(
  call: Call,
  tool: string,
  args: JsonObject,
  invoke: Invoke,
): Promise<Outcome> {
  const config = tasksOf(call);
  const principal = principalFor(call);
  const slot = config.running.reserve();
  if (slot === undefined) return { kind: 'error', error: busy(call.id) };
  try {
    const work: TaskWork = {
      tool,
      arguments: args,
      clientCapabilities: call.ctx.clientCapabilities,
      hasState: false,
      answers: {},
    };
    const record = checkRecord(
      await config.store.create(principal, plainCopy({ ...work })),
      'tasks.store.create',
    );
    if (record.status !== 'working')
      throw new HostFault('tasks.store.create returned a task that is not working');
    startRound(call, principal, record.taskId, work, slot, invoke);
    return { kind: 'task', result: createTaskResult(call.server, record) };
  } finally {
    slot.release();
  }
}

/**
 * Starts one round of the handler in the background. `call` is the request that starts it (its
 * auth and `_meta`); the handler's `ctx.signal` is the task's own, not that request's, and it can
 * send nothing on that request's stream, which ends with the CreateTaskResult or the ack.
 */
export function startRound(
  call: Call,
  principal: string,
  taskId: string,
  work: TaskWork,
  slot: Slot,
  invoke: Invoke,
): void {
  const config = tasksOf(call);
  const controller = slot.bind(taskId);
  if (controller === undefined) return;
  const answered = Object.keys(work.answers).length > 0;
  const context = openContext({
    revision: MODERN_REVISION,
    meta: call.ctx.meta,
    clientCapabilities: work.clientCapabilities,
    // The request that starts (or resumes) the task is the one whose trace its handler joins.
    traceContext: call.ctx.traceContext,
    signalSource: controller,
    auth: call.ctx.auth,
    logLevel: undefined,
    emit: () => {},
    inputResponses: answered ? (work.answers as Record<string, JsonObject>) : undefined,
    requestState: work.hasState ? work.state : undefined,
  });
  const taskCall: Call = {
    server: call.server,
    id: call.id,
    params: { name: work.tool, arguments: work.arguments },
    revision: MODERN_REVISION,
    transport: call.transport,
    ctx: context.ctx,
    reportFault: call.reportFault,
  };
  const report = (description: string, cause: unknown): void => call.reportFault?.(description, cause);
  void (async () => {
    let change: TaskChange;
    try {
      change = settle(call.id, work, await invoke(taskCall, work.arguments));
    } catch (error) {
      // A handler that stops by throwing once its task is cancelled did what the signal asked.
      if (!controller.signal.aborted)
        report(error instanceof HostFault ? error.description : `task ${taskId} failed in host code`, error);
      change = {
        status: 'failed',
        error: { code: INTERNAL_ERROR, message: 'Internal error' },
        work: plainCopy({ ...work }),
      };
    } finally {
      context.close();
    }
    try {
      // False when the task went terminal meanwhile (cancelled): the store keeps that status.
      await config.store.update(taskId, principal, change);
    } catch (error) {
      report('tasks.store.update threw', error);
    } finally {
      config.running.finish(taskId, controller);
    }
  })();
}

function settle(id: RequestId, work: TaskWork, outcome: Outcome): TaskChange {
  const notes = plainCopy({ ...work, answers: {} });
  switch (outcome.kind) {
    case 'result':
      return { status: 'completed', result: plainCopy(outcome.result), work: notes };
    case 'error':
      return {
        status: 'failed',
        error: plainCopy(outcome.error.error as unknown as JsonObject),
        work: notes,
      };
    case 'input-required': {
      const value = outcome.value;
      // Never ask for what the creating request did not declare (spec §9), as on the MRTR path.
      const lacked = lackedForInput(value, work.clientCapabilities);
      if (lacked !== undefined)
        return {
          status: 'failed',
          error: plainCopy(missingClientCapability(id, lacked).error as unknown as JsonObject),
          work: notes,
        };
      if (Object.keys(value.requests).length === 0)
        throw new HostFault('ctx.inputRequired asked for nothing in a task');
      const next: JsonObject = {
        tool: work.tool,
        arguments: work.arguments,
        clientCapabilities: work.clientCapabilities,
        hasState: value.hasState,
        answers: {},
      };
      if (value.hasState) next['state'] = value.state;
      return {
        status: 'input_required',
        inputRequests: plainCopy(value.requests as JsonObject) as unknown as Record<string, InputRequest>,
        work: plainCopy(next),
      };
    }
    case 'task':
      throw new HostFault('a task handler answered with another task');
  }
}
