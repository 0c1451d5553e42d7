/**
 * A bounded pool: tasks started in order, at most `limit` running at once. The client runner
 * starts each conformance scenario in a suite process of its own through it, since a suite
 * process per scenario, all at once, is what overran a loaded machine.
 */
export async function pool(tasks: readonly (() => Promise<unknown>)[], limit: number): Promise<void> {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError('limit must be a positive integer');
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < tasks.length) {
      const task = tasks[next++] as () => Promise<unknown>;
      await task();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
}
