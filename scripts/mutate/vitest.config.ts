/**
 * The Vitest config Stryker drives for `npm run mutate`, never used by `npm test`: the root
 * config's settings, only the test files of the group being measured (scripts/mutate/groups.mjs),
 * and the hook that hands the active mutant to spawned children.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import shared from '../../vitest.config.ts';
import { selectedGroup } from './groups.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

export default defineConfig({
  root,
  // The repository's settings (timeouts, tags) with this group's files in place of its include.
  test: {
    ...shared.test,
    // On a machine loaded by other work an instrumented test can pass the shared 30 s; failing it
    // would count the mutant as killed. PALISADE_MUTATE_TEST_TIMEOUT_MS raises it for such a run.
    testTimeout:
      process.env.PALISADE_MUTATE_TEST_TIMEOUT_MS === undefined
        ? shared.test?.testTimeout
        : Number(process.env.PALISADE_MUTATE_TEST_TIMEOUT_MS),
    include: selectedGroup().tests,
    setupFiles: [fileURLToPath(new URL('./child-mutant.ts', import.meta.url))],
  },
});
