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

/** The store's list: every store that passes this contract has one (it is optional to the server only). */
function list(store: TaskStore, principal: string, cursor: string | undefined, limit: number) {
  if (store.list === undefined) throw new Error('this store has no list');
  return store.list(principal, cursor, limit);
}

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

    test("a principal's list holds its own tasks only, oldest first, on one page when they fit", async () => {
      const store = await make();
      const mine = [];
      for (let n = 0; n < 3; n += 1) {
        mine.push((await store.create('alice', { n })).taskId);
        await store.create('bob', { n });
      }
      const page = await list(store, 'alice', undefined, 10);
      expect(page?.tasks.map((task) => task.taskId)).toEqual(mine);
      expect(page?.tasks[0]).toMatchObject({ status: 'working', work: { n: 0 } });
      expect(page).not.toHaveProperty('nextCursor');
      expect((await list(store, 'mallory', undefined, 10))?.tasks).toEqual([]);
    });

    test('a page holds at most the limit, and its cursor continues where it ended', async () => {
      const store = await make();
      const made = [];
      for (let n = 0; n < 5; n += 1) made.push((await store.create('alice', { n })).taskId);
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let pages = 0; pages < 3; pages += 1) {
        const page = await list(store, 'alice', cursor, 2);
        expect(page?.tasks.length).toBeLessThanOrEqual(2);
        seen.push(...(page?.tasks ?? []).map((task) => task.taskId));
        cursor = page?.nextCursor;
        if (pages < 2) expect(typeof cursor).toBe('string');
      }
      expect(cursor).toBeUndefined();
      expect(seen).toEqual(made);
    });

    test('a task past its TTL is not listed', async () => {
      const store = await make();
      await store.create('alice', {});
      await new Promise((resolve) => setTimeout(resolve, CONTRACT_TASK_TTL_MS + 50));
      expect((await list(store, 'alice', undefined, 10))?.tasks).toEqual([]);
    });

    test('a cursor the store did not issue is answered undefined', async () => {
      const store = await make();
      await store.create('alice', {});
      expect(await list(store, 'alice', 'not-a-cursor', 10)).toBeUndefined();
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
