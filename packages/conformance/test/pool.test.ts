/**
 * The client runner's pool (`src/pool.ts`): each conformance scenario runs in a suite process of
 * its own, and no more of them at once than the runner's `--concurrency`.
 */
import { describe, expect, test } from 'vitest';
import { pool } from '../src/pool.ts';

describe('the scenario pool', () => {
  test('runs every task, never more at once than its limit, starting them in order', async () => {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const tasks = Array.from({ length: 7 }, (_, index) => async () => {
      started.push(index);
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5 + (index % 3) * 5));
      running -= 1;
    });
    await pool(tasks, 2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(most).toBe(2);
  });

  test('refuses a limit below one rather than running nothing', async () => {
    await expect(pool([async () => {}], 0)).rejects.toThrow(RangeError);
  });
});
