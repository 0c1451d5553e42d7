import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'examples/**/*.test.ts'],
    // Wire tests spawn real processes and open real sockets; a shared, noisy machine
    // needs more than the default five seconds for the slowest of them.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // A test tagged `threat-model` holds a row of docs/threat-model.md; the citation census
    // (test/docs/threat-model-citations.test.ts) proves the tagged tests and the cited ones are one set.
    tags: [{ name: 'threat-model', description: 'cited by docs/threat-model.md' }],
  },
});
