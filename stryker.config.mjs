/**
 * Mutation testing of the wire reader, the stdio transport and the HTTP transport (`npm run
 * mutate`; docs/mutation-testing.md). One group per run, named by PALISADE_MUTATE_GROUP; the
 * groups live in scripts/mutate/groups.mjs. Not part of `npm test`: a run takes many minutes.
 */
import { selectedGroup } from './scripts/mutate/groups.mjs';

const group = selectedGroup();
const reports = `reports/mutation/${group.name}`;

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: group.mutate,
  testRunner: 'vitest',
  vitest: { configFile: 'scripts/mutate/vitest.config.ts', related: false },
  coverageAnalysis: group.coverageAnalysis,
  // Two shared cores: two workers, and room for the sockets and children the tests open. On a
  // machine loaded by other work, PALISADE_MUTATE_CONCURRENCY=1 and a larger
  // PALISADE_MUTATE_TIMEOUT_MS keep slow-but-correct runs from counting as timeouts (detected).
  concurrency: Number(process.env.PALISADE_MUTATE_CONCURRENCY ?? 2),
  timeoutMS: Number(process.env.PALISADE_MUTATE_TIMEOUT_MS ?? 8_000),
  timeoutFactor: 2,
  // A static mutant (one run while a module loads) needs a fresh environment and every test
  // loaded; on two shared cores that is minutes per mutant. They are counted as ignored, and the
  // summary shows how many.
  // (Stryker accepts it only with per-test coverage, which every group now uses.)
  ignoreStatic: group.coverageAnalysis === 'perTest',
  incremental: true,
  incrementalFile: `${reports}/incremental.json`,
  plugins: ['@stryker-mutator/vitest-runner', './scripts/mutate/live-reporter.mjs'],
  reporters: ['progress', 'json', 'html', 'live'],
  jsonReporter: { fileName: `${reports}/mutation.json` },
  htmlReporter: { fileName: `${reports}/mutation.html` },
  ignorePatterns: ['dist', '**/dist', 'reports', 'coverage', 'docs', 'bench'],
  // Stryker rewrites tsconfig paths through the `typescript` package's JS API, which TypeScript 7
  // no longer has; nothing here needs the rewrite (Vitest strips types), so it is pointed at no file.
  tsconfigFile: 'scripts/mutate/no-tsconfig.json',
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
