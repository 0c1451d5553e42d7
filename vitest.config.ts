import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'examples/**/*.test.ts'],
    // Wire tests spawn real processes and open real sockets; a shared, noisy machine
    // needs more than the default five seconds for the slowest of them.
    testTimeout: 30_000,
    // Vitest's default is one worker fewer than the cores: one, here, so 155 files ran one at a
    // time (559 s). They mostly wait on spawned servers, sockets and timers, not the CPU: four
    // workers ran the same suite in 268 s with every test green (2026-11-30, 2 cores).
    maxWorkers: 4,
    hookTimeout: 30_000,
    // A test tagged `threat-model` holds a row of docs/threat-model.md; the citation census
    // (test/docs/threat-model-citations.test.ts) proves the tagged tests and the cited ones are one set.
    tags: [{ name: 'threat-model', description: 'cited by docs/threat-model.md' }],
  },
});
