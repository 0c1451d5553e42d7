/**
 * The four module groups `npm run mutate` measures, shared by stryker.config.mjs (what to mutate,
 * how to pick tests) and scripts/mutate/vitest.config.ts (which test files to load).
 *
 * Every group is measured per test: Stryker records which in-process test reaches each mutant and
 * runs only those. The stdio group once ran its whole set against every mutant
 * (`coverageAnalysis: 'off'`), because its tests spawned servers whose coverage Stryker cannot
 * see; it now has in-process tests over real pipes instead. scripts/mutate/child-mutant.ts still
 * hands the active mutant to any child a test spawns, and handles 'off' should a group need it.
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
    // Not progress-rate.test.ts: it times the protocol's progress bucket (one step per 10 ms), a
    // rule of src/protocol/handler-context.ts, not of src/http; instrumented code runs its loop
    // slower than 10 ms and the dry run failed on it (2026-11-30).
    tests: [`${test}/http/!(progress-rate).test.ts`, `${test}/fuzz/**/*.test.ts`],
    coverageAnalysis: 'perTest',
  },
  stdio: {
    mutate: [`${src}/transports/stdio.ts`],
    // Only tests that run the transport in this process, so Stryker sees which test reaches which
    // mutant: test/transports/stdio-sockets.test.ts drives it over real unix-socket pipes with
    // exact bytes. The spawned tests (stdio.test.ts, test/protocol/**) stay the end-to-end
    // guarantee in `npm test`; here they would reach no mutant Stryker can see, and a mutant only
    // they would kill counts as survived, never as killed.
    tests: [
      `${test}/transports/stdio-sockets.test.ts`,
      `${test}/transports/stdio-mutants.test.ts`,
      `${test}/fuzz/stdio-transport.property.test.ts`,
      `${test}/telemetry/**/*.test.ts`,
    ],
    coverageAnalysis: 'perTest',
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
