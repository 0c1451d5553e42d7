/**
 * `npm run fuzz` runs the property files under this config: the same properties CI runs, with
 * scripts/fuzz/setup.ts raising their run counts. Only *.property.test.ts files are included.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('../..', import.meta.url));
const timeout = Number(process.env['PALISADE_FUZZ_TEST_TIMEOUT_MS']) || 600_000;

export default defineConfig({
  root,
  test: {
    include: ['packages/*/test/**/*.property.test.ts'],
    setupFiles: [fileURLToPath(new URL('./setup.ts', import.meta.url))],
    testTimeout: timeout,
    hookTimeout: 30_000,
  },
});
