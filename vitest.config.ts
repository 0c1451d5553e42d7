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
    // Each worker loads the library's modules once and runs its files one after another, rather
    // than a fresh module graph per file: on the 133 lighter files that cut 229 s of CPU to 146 s
    // and their wall time from 122 s to 77 s (2026-11-30), which is what lets the whole suite run on
    // four Node versions inside CI's ten minutes. It holds because no test leaves state behind:
    // fake timers are restored, diagnostics channel subscribers removed, nothing is mocked by module.
    isolate: false,
    hookTimeout: 30_000,
    // Compiles the stdio fixture servers once per run: a spawn then costs about 0.3 s of CPU
    // instead of tsx's 1.4 s (packages/palisade-mcp/test/support/fixture-bundles.ts).
    globalSetup: ['packages/palisade-mcp/test/support/global-setup.ts'],
    // A test tagged `threat-model` holds a row of docs/threat-model.md; the citation census
    // (test/docs/threat-model-citations.test.ts) proves the tagged tests and the cited ones are one set.
    tags: [{ name: 'threat-model', description: 'cited by docs/threat-model.md' }],
  },
});
