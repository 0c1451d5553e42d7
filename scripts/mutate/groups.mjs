/**
 * The three module groups `npm run mutate` measures, shared by stryker.config.mjs (what to mutate,
 * how to pick tests) and scripts/mutate/vitest.config.ts (which test files to load).
 *
 * wire and http are measured per test: Stryker records which in-process test reaches each mutant
 * and runs only those. The stdio transport is tested mostly through spawned child processes,
 * whose coverage Stryker cannot see, so per-test analysis would call most of its mutants
 * uncovered; that group runs its whole test set against every mutant instead, and
 * scripts/mutate/child-mutant.ts hands the active mutant to the children.
 */
const src = 'packages/palisade-mcp/src';
const test = 'packages/palisade-mcp/test';

/** @type {Record<string, { mutate: string[], tests: string[], coverageAnalysis: 'perTest' | 'off' }>} */
export const groups = {
  // The wire folder is measured in two halves so the first report arrives while the second runs.
  'wire-reader': {
    mutate: [`${src}/wire/json-*.ts`, `${src}/wire/utf8-text.ts`, `${src}/wire/refusal.ts`],
    tests: [`${test}/wire/json-reader*.test.ts`, `${test}/wire/repeated-key*.test.ts`],
    coverageAnalysis: 'perTest',
  },
  'wire-framing': {
    mutate: [`${src}/wire/stdio-*.ts`, `${src}/wire/legacy-header.ts`, `${src}/wire/encode.ts`],
    // The stdio property test runs the transport in this process, so it reaches the encoder.
    tests: [
      `${test}/wire/stdio-framer*.test.ts`,
      `${test}/wire/encode*.test.ts`,
      `${test}/wire/legacy-header*.test.ts`,
      `${test}/fuzz/stdio-transport.property.test.ts`,
    ],
    coverageAnalysis: 'perTest',
  },
  http: {
    mutate: [`${src}/http/**/*.ts`],
    tests: [`${test}/http/**/*.test.ts`, `${test}/fuzz/**/*.test.ts`],
    coverageAnalysis: 'perTest',
  },
  stdio: {
    mutate: [`${src}/transports/stdio.ts`],
    // Every protocol test also goes through this transport (test/protocol/*.test.ts spawn it), but
    // each surviving mutant runs the whole set: with tools and subscriptions added, that set took
    // 87 s (2026-11-30, two loaded cores), so they are left out.
    tests: [
      `${test}/transports/**/*.test.ts`,
      `${test}/fuzz/stdio-transport.property.test.ts`,
      `${test}/telemetry/**/*.test.ts`,
    ],
    coverageAnalysis: 'off',
  },
};

/** The group named by PALISADE_MUTATE_GROUP; an unknown name is refused rather than guessed. */
export function selectedGroup() {
  const name = process.env.PALISADE_MUTATE_GROUP ?? 'wire-reader';
  const group = groups[name];
  if (group === undefined) {
    throw new Error(`PALISADE_MUTATE_GROUP=${name} is not one of ${Object.keys(groups).join(', ')}`);
  }
  return { name, ...group };
}
