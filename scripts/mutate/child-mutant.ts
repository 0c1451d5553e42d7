/**
 * Loaded by scripts/mutate/vitest.config.ts only. Stryker's Vitest runner activates a mutant in
 * the test worker's global scope; a child process spawned by a wire test (test/support/
 * stdio-peer.ts) starts with none. Stryker's instrumented code also reads the active mutant from
 * the __STRYKER_ACTIVE_MUTANT__ environment variable, so the variable is set here, after
 * Stryker's own hook has chosen the mutant, and every child inherits it.
 */
import { afterAll, beforeAll } from 'vitest';
import { selectedGroup } from './groups.mjs';

const VARIABLE = '__STRYKER_ACTIVE_MUTANT__';

interface StrykerGlobal {
  activeMutant?: string;
  mutantCoverage?: unknown;
}

function namespace(): StrykerGlobal | undefined {
  return (globalThis as { __stryker__?: StrykerGlobal }).__stryker__;
}

function handToChildren(): void {
  const active = namespace()?.activeMutant;
  if (active === undefined) delete process.env[VARIABLE];
  else process.env[VARIABLE] = active;
}

handToChildren();
beforeAll(handToChildren);

// Stryker 9.6.1's Vitest runner reports the coverage it saw in this process even when
// `coverageAnalysis` is 'off', and Stryker then runs only the in-process tests that reached a
// mutant: a spawned test would never run. Dropping the coverage before Stryker's own hook reads it
// (after-hooks run in reverse order, and Stryker's setup file is loaded first) makes every mutant
// run against the whole group, children included.
if (selectedGroup().coverageAnalysis === 'off') {
  afterAll(() => {
    const ns = namespace();
    if (ns !== undefined) ns.mutantCoverage = undefined;
  });
}
