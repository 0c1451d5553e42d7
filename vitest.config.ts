import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts'],
    // Wire tests spawn real processes and open real sockets; a shared, noisy machine
    // needs more than the default five seconds for the slowest of them.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
