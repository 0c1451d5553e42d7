/**
 * The `tasks` server option, checked once at construction, and the one table Palisade keeps for
 * tasks: an AbortController per handler this process started, so `tasks/cancel` can stop it.
 * Bounded by MAX_RUNNING_TASKS; the store holds everything else.
 */
import { HostFault } from '../../catalog/host-fault.js';
import type { TaskStore } from '../../catalog/task-store.js';
import { invalidOption } from '../../errors.js';
import { MAX_RUNNING_TASKS } from '../../limits.js';
import { refuseUnknownKeys, requireFunction, requireObject } from '../../options.js';
import { canonicalJson } from '../canonical-json.js';

export interface TasksConfig {
  readonly store: TaskStore;
  readonly principal: ((auth: unknown) => string) | undefined;
  readonly running: RunningTasks;
}

/**
 * The handlers this process runs as tasks, by task id. A slot is reserved before the store is
 * asked to create or resume a task, so a task is never stored as `working` with no room to run it.
 */
export class RunningTasks {
  readonly #controllers = new Map<string, AbortController>();
  #reserved = 0;

  get size(): number {
    return this.#controllers.size + this.#reserved;
  }

  /** Undefined when MAX_RUNNING_TASKS handlers are running or reserved. */
  reserve(): Slot | undefined {
    if (this.size >= MAX_RUNNING_TASKS) return undefined;
    this.#reserved += 1;
    let held = true;
    const release = (): void => {
      if (!held) return;
      held = false;
      this.#reserved -= 1;
    };
    return {
      release,
      bind: (taskId: string): AbortController | undefined => {
        release();
        // One handler per task in this process: a second resume of the same task does not start another.
        if (this.#controllers.has(taskId)) return undefined;
        const controller = new AbortController();
        this.#controllers.set(taskId, controller);
        return controller;
      },
    };
  }

  finish(taskId: string, controller: AbortController): void {
    if (this.#controllers.get(taskId) === controller) this.#controllers.delete(taskId);
  }

  /** Aborts the handler running for this task here, if one is. */
  abort(taskId: string): void {
    this.#controllers.get(taskId)?.abort();
  }
}

export interface Slot {
  /** Turns the reservation into a running handler's controller; undefined when this task already runs here. */
  bind(taskId: string): AbortController | undefined;
  /** Gives the reservation back unused; a no-op once bound or released. */
  release(): void;
}

const STORE_METHODS = ['create', 'get', 'update'] as const;

export function tasksConfig(value: unknown): TasksConfig | undefined {
  if (value === undefined) return undefined;
  const options = requireObject(value, 'tasks');
  refuseUnknownKeys(options, ['store', 'principal'], 'tasks');
  const store = options['store'];
  if (typeof store !== 'object' || store === null)
    throw invalidOption('tasks.store', 'must be an object with create, get and update functions');
  const bound: Record<string, unknown> = {};
  for (const name of STORE_METHODS) {
    const method = requireFunction<(...args: never[]) => unknown>(
      (store as Record<string, unknown>)[name],
      `tasks.store.${name}`,
    );
    // Called as methods of the host's object, so a store written as a class keeps its `this`.
    bound[name] = (...args: never[]) => method.apply(store, args);
  }
  const principal =
    options['principal'] === undefined
      ? undefined
      : requireFunction<(auth: unknown) => string>(options['principal'], 'tasks.principal');
  return Object.freeze({
    store: Object.freeze(bound) as unknown as TaskStore,
    principal,
    running: new RunningTasks(),
  });
}

/**
 * Who a request acts for, as the store keys it: `tasks.principal`, else `requestState.principal`
 * (one notion of "who" for both features), else the canonical JSON of `auth` ('' when undefined).
 */
export function principalOf(
  config: TasksConfig,
  fallback: ((auth: unknown) => string) | undefined,
  auth: unknown,
): string {
  const name = config.principal ?? fallback;
  if (name === undefined) {
    const text = auth === undefined ? '' : canonicalJson(auth);
    if (text === undefined)
      throw new HostFault(
        'ctx.auth is not plain JSON data: give tasks.principal to name who a request acts for',
      );
    return text;
  }
  let principal: unknown;
  try {
    principal = name(auth);
  } catch (error) {
    throw new HostFault('tasks.principal threw', error);
  }
  if (typeof principal !== 'string') throw new HostFault('tasks.principal must return a string');
  return principal;
}
