/**
 * Loaded by scripts/fuzz/vitest.config.ts only, never by `npm test`: multiplies every property's
 * run count by PALISADE_FUZZ_RUNS / 100 (fast-check's default of 100 becomes PALISADE_FUZZ_RUNS),
 * pins one seed for all so a failure replays, bounds each property in time, and records what each
 * property actually ran for the summary.
 */
import { appendFileSync } from 'node:fs';
import fc from 'fast-check';
import { expect, vi } from 'vitest';

const runs = Number(process.env['PALISADE_FUZZ_RUNS']);
const seed = Number(process.env['PALISADE_FUZZ_SEED']);
const budgetMs = Number(process.env['PALISADE_FUZZ_PROPERTY_MS']);
const report = process.env['PALISADE_FUZZ_REPORT'];

/**
 * A property that names its own count (`{ numRuns: 300 }`) overrides fast-check's global one, so
 * `assert` is wrapped: every count is multiplied by runs / 100, keeping a costly property as rare
 * relative to the others as it is in CI.
 */
vi.mock('fast-check', async (importOriginal) => {
  const original = await importOriginal<typeof import('fast-check')>();
  // Hoisted above this file's constants, so it reads the variable itself.
  const configured = Number(process.env['PALISADE_FUZZ_RUNS']);
  const scale = Number.isSafeInteger(configured) && configured > 0 ? configured / 100 : 1;
  const assert = ((property: unknown, params?: { numRuns?: number }) =>
    original.default.assert(
      property as never,
      (params?.numRuns === undefined
        ? params
        : { ...params, numRuns: Math.max(1, Math.round(params.numRuns * scale)) }) as never,
    )) as typeof original.default.assert;
  return { ...original, assert, default: { ...original.default, assert } };
});

function record(out: fc.RunDetails<unknown>): void {
  if (report === undefined) return;
  const { currentTestName, testPath } = expect.getState();
  const line = {
    file: testPath,
    test: currentTestName,
    numRuns: out.numRuns,
    seed: out.seed,
    failed: out.failed,
    interrupted: out.interrupted,
  };
  appendFileSync(report, `${JSON.stringify(line)}\n`);
}

fc.configureGlobal({
  ...(Number.isSafeInteger(runs) && runs > 0 ? { numRuns: runs } : {}),
  ...(Number.isSafeInteger(seed) ? { seed } : {}),
  // A time budget ends a long property early without failing it; the summary shows the runs made.
  ...(Number.isSafeInteger(budgetMs) && budgetMs > 0
    ? { interruptAfterTimeLimit: budgetMs, markInterruptAsFailure: false }
    : {}),
  reporter: (out) => {
    record(out);
    const message = fc.defaultReportMessage(out);
    if (out.failed && message !== undefined) throw new Error(message);
  },
});
