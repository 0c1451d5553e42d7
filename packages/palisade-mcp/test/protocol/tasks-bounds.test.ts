/**
 * The tasks extension's bounds and host faults over a real HTTP socket: at most MAX_RUNNING_TASKS
 * handlers run as tasks in one process, a task id longer than MAX_TASK_ID_CHARS never reaches the
 * store, and a store that breaks its contract is a host fault (-32603), never a guessed answer.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { MAX_RUNNING_TASKS, MAX_TASK_ID_CHARS, type TaskRecord } from '../../src/index.js';
import { Gate, TestTaskStore, tasksDefinition } from '../fixtures/tasks.js';
import { mountTasks, type TasksPeer } from '../support/tasks-http.js';

type Json = Record<string, unknown>;

describe('tasks extension bounds', () => {
  let peer: TasksPeer | undefined;
  const gate = new Gate();
  afterEach(async () => {
    gate.releaseAll();
    await peer?.close();
  });

  test('a tools/call beyond MAX_RUNNING_TASKS running handlers is refused by name and creates no task', {
    tags: ['threat-model'],
  }, async () => {
    const store = new TestTaskStore();
    peer = await mountTasks(tasksDefinition(store, gate));
    const ids: string[] = [];
    for (let index = 0; index < MAX_RUNNING_TASKS; index += 1) {
      const reply = await peer.call('tools/call', { name: 'hold', arguments: {} });
      ids.push((reply.body['result'] as Json)['taskId'] as string);
    }
    const refused = await peer.call('tools/call', { name: 'hold', arguments: {} });
    expect(refused.body['error']).toEqual({
      code: -32603,
      message: 'Server busy: MAX_RUNNING_TASKS task handlers are running',
    });
    expect(store.calls.create).toBe(MAX_RUNNING_TASKS);

    // A cancelled task's handler gives its slot back.
    await peer.call('tasks/cancel', { taskId: ids[0] });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const again = await peer.call('tools/call', { name: 'hold', arguments: {} });
    expect((again.body['result'] as Json)['resultType']).toBe('task');
  });

  test('a taskId longer than MAX_TASK_ID_CHARS is answered as missing without asking the store', {
    tags: ['threat-model'],
  }, async () => {
    const store = new TestTaskStore();
    peer = await mountTasks(tasksDefinition(store, gate));
    const reply = await peer.call('tasks/get', { taskId: 'a'.repeat(MAX_TASK_ID_CHARS + 1) });
    expect(reply.body['error']).toEqual({ code: -32602, message: 'Invalid params: no task has that id' });
    expect(store.calls.get).toBe(0);
  });

  test('a store that returns a malformed task is a host fault answered -32603', {
    tags: ['threat-model'],
  }, async () => {
    const store = new TestTaskStore();
    const broken = Object.assign(Object.create(TestTaskStore.prototype) as TestTaskStore, store);
    broken.get = (taskId: string): TaskRecord => ({ taskId, status: 'finished' }) as unknown as TaskRecord;
    peer = await mountTasks(tasksDefinition(broken, gate));
    const reply = await peer.call('tasks/get', { taskId: 'any' });
    expect(reply.body['error']).toEqual({ code: -32603, message: 'Internal error' });
    expect(peer.faults).toEqual(['tasks.store.get returned a task whose status is not a task status']);
  });

  test('a store whose create returns an id longer than MAX_TASK_ID_CHARS is a host fault', {
    tags: ['threat-model'],
  }, async () => {
    const store = new TestTaskStore();
    const create = store.create.bind(store);
    store.create = (principal, work) => ({
      ...create(principal, work),
      taskId: 'x'.repeat(MAX_TASK_ID_CHARS + 1),
    });
    peer = await mountTasks(tasksDefinition(store, gate));
    const reply = await peer.call('tools/call', { name: 'hold', arguments: {} });
    expect(reply.body['error']).toEqual({ code: -32603, message: 'Internal error' });
    expect(peer.faults).toEqual([
      `tasks.store.create returned a task whose taskId is not a string of 1 to ${MAX_TASK_ID_CHARS} characters`,
    ]);
  });
});
