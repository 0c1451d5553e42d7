/**
 * The contract every TaskStore passes unchanged: the built-in MemoryTaskStore
 * (memory-contracts.test.ts) and any shared store (palisade-mcp-postgres). The factory gives a
 * fresh store whose tasks live `ttlMs`; the suite only calls the contract's methods.
 */
import { describe, expect, test } from 'vitest';
import type { TaskStore } from '../../src/catalog/task-store.js';
import { MAX_TASK_ID_CHARS } from '../../src/limits.js';

/** The TTL the factory must give its store: long enough for a loaded machine to create and read, short enough to watch expire. */
export const CONTRACT_TASK_TTL_MS = 2_000;

export function taskStoreContract(name: string, make: () => TaskStore | Promise<TaskStore>): void {
  describe(`${name}: the TaskStore contract`, () => {
    test('a created task is working, dated, and found by its principal', async () => {
      const store = await make();
      const task = await store.create('alice', { tool: 'slow', args: { n: 1 } });
      expect(task).toMatchObject({
        status: 'working',
        ttlMs: CONTRACT_TASK_TTL_MS,
        work: { tool: 'slow', args: { n: 1 } },
      });
      expect(Date.parse(task.createdAt)).not.toBeNaN();
      expect(task.lastUpdatedAt).toBe(task.createdAt);
      expect(await store.get(task.taskId, 'alice')).toEqual(task);
    });

    test('task ids are distinct and within the id bound', async () => {
      const store = await make();
      const ids = new Set<string>();
      for (let n = 0; n < 20; n += 1) ids.add((await store.create('alice', {})).taskId);
      expect(ids.size).toBe(20);
      for (const id of ids) expect(id.length).toBeLessThanOrEqual(MAX_TASK_ID_CHARS);
      for (const id of ids) expect(id.length).toBeGreaterThanOrEqual(22);
    });

    test("another principal's task looks exactly like a missing one", async () => {
      const store = await make();
      const task = await store.create('alice', {});
      expect(await store.get(task.taskId, 'mallory')).toBeUndefined();
      expect(await store.get('no-such-task', 'alice')).toBeUndefined();
      expect(await store.update(task.taskId, 'mallory', { status: 'cancelled', work: {} })).toBe(false);
      expect(await store.get(task.taskId, 'alice')).toMatchObject({ status: 'working' });
    });

    test('an update applies the change, removes what it does not carry, and moves lastUpdatedAt', async () => {
      const store = await make();
      const task = await store.create('alice', { step: 1 });
      await new Promise((resolve) => setTimeout(resolve, 5));
      const inputRequests = {
        ask: {
          method: 'elicitation/create',
          params: { message: 'm', requestedSchema: { type: 'object', properties: {} } },
        },
      };
      expect(
        await store.update(task.taskId, 'alice', {
          status: 'input_required',
          inputRequests,
          work: { step: 2 },
        } as never),
      ).toBe(true);
      const asked = await store.get(task.taskId, 'alice');
      expect(asked).toMatchObject({ status: 'input_required', inputRequests, work: { step: 2 } });
      expect(Date.parse(asked?.lastUpdatedAt ?? '')).toBeGreaterThan(Date.parse(task.createdAt));
      expect(
        await store.update(task.taskId, 'alice', {
          status: 'completed',
          result: { content: [] },
          work: { step: 3 },
        }),
      ).toBe(true);
      const done = await store.get(task.taskId, 'alice');
      expect(done).toMatchObject({ status: 'completed', result: { content: [] }, work: { step: 3 } });
      expect(done).not.toHaveProperty('inputRequests');
      expect(done?.createdAt).toBe(task.createdAt);
    });

    test('a terminal task takes no further change', async () => {
      const store = await make();
      for (const status of ['completed', 'failed', 'cancelled'] as const) {
        const task = await store.create('alice', {});
        const change =
          status === 'completed'
            ? { status, result: { content: [] }, work: {} }
            : status === 'failed'
              ? { status, error: { code: -32603, message: 'boom' }, work: {} }
              : { status, work: {} };
        expect(await store.update(task.taskId, 'alice', change)).toBe(true);
        expect(await store.update(task.taskId, 'alice', { status: 'working', work: {} })).toBe(false);
        expect(await store.get(task.taskId, 'alice')).toMatchObject({ status });
      }
    });

    test('a task past its TTL is gone for reads and updates', async () => {
      const store = await make();
      const task = await store.create('alice', {});
      await new Promise((resolve) => setTimeout(resolve, CONTRACT_TASK_TTL_MS + 50));
      expect(await store.get(task.taskId, 'alice')).toBeUndefined();
      expect(await store.update(task.taskId, 'alice', { status: 'cancelled', work: {} })).toBe(false);
    });

    test('work and results come back as the JSON they were given, nested and unicode included', async () => {
      const store = await make();
      const work = {
        text: 'naïve 🚀 "quoted" \\ back',
        nested: { list: [1, 2.5, null, true, { deep: 'x' }] },
      };
      const task = await store.create('alice', work);
      expect((await store.get(task.taskId, 'alice'))?.work).toEqual(work);
    });
  });
}
