/**
 * Every task is bound to the principal that created it (tasks extension): Palisade names the
 * principal of each request to the host's store, and a task the store does not answer for that
 * principal gets exactly the answer a task id that never existed gets, so an id seen in a log
 * tells another caller nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Gate, TestTaskStore, tasksDefinition } from '../fixtures/tasks.js';
import { mountTasks, type TasksPeer } from '../support/tasks-http.js';

type Json = Record<string, unknown>;

describe('tasks are bound to the principal that created them', () => {
  let peer: TasksPeer;
  let store: TestTaskStore;
  let gate: Gate;
  let aliceTask: string;

  beforeAll(async () => {
    store = new TestTaskStore();
    gate = new Gate();
    peer = await mountTasks(tasksDefinition(store, gate));
    const created = await peer.call('tools/call', { name: 'hold', arguments: {} }, { user: 'alice' });
    aliceTask = (created.body['result'] as Json)['taskId'] as string;
  });
  afterAll(async () => {
    gate.releaseAll();
    await peer.close();
  });

  test("the store is asked with the creating request's principal, the canonical JSON of its auth", {
    tags: ['threat-model'],
  }, () => {
    expect(store.tasks.get(aliceTask)?.principal).toBe('{"user":"alice"}');
  });

  test.each([
    ['tasks/get', {}],
    ['tasks/cancel', {}],
    ['tasks/update', { inputResponses: {} }],
  ])(
    "%s on another principal's task is answered byte for byte like a missing task",
    { tags: ['threat-model'] },
    async (method, extra) => {
      const foreign = await peer.call(method, { taskId: aliceTask, ...extra }, { user: 'bob', id: 900 });
      const missing = await peer.call(
        method,
        { taskId: 'b3c1f0de-0000-4000-8000-000000000000', ...extra },
        { user: 'bob', id: 900 },
      );
      expect(foreign.body['error']).toEqual({ code: -32602, message: 'Invalid params: no task has that id' });
      expect(foreign.status).toBe(missing.status);
      expect(foreign.raw).toBe(missing.raw);
    },
  );

  test("another principal's tasks/cancel leaves the task running", { tags: ['threat-model'] }, async () => {
    await peer.call('tasks/cancel', { taskId: aliceTask }, { user: 'bob' });
    const task = await peer.call('tasks/get', { taskId: aliceTask }, { user: 'alice' });
    expect((task.body['result'] as Json)['status']).toBe('working');
    expect(gate.aborted).toBe(0);
  });

  test('the creating principal reads its own task', async () => {
    const task = await peer.call('tasks/get', { taskId: aliceTask }, { user: 'alice' });
    expect((task.body['result'] as Json)['taskId']).toBe(aliceTask);
  });
});
