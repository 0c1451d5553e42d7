/**
 * The module groups `npm run mutate` measures, shared by stryker.config.mjs (what to mutate,
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

// Not progress-rate.test.ts: it times the protocol's progress bucket (one step per 10 ms), a rule
// of src/protocol/handler-context.ts, not of src/http; instrumented code runs its loop slower
// than 10 ms and the dry run failed on it (2026-11-30).
// Not body-memory.test.ts: it sends 100,000 one-byte DATA frames and reads the heap, seconds of
// instrumented work that every mutant of the body readers would repeat, for a bound (memory) that
// the readers' functional tests already pin byte for byte.
// The adversarial tests (test/adversarial) attack the transport from outside, in this process.
// test/http/node holds the connection's edge: raw sockets against every mount, serve() included.
const httpTests = [
  `${test}/http/**/!(progress-rate|body-memory).test.ts`,
  `${test}/adversarial/*.test.ts`,
  `${test}/sessions/*.test.ts`,
];

/** @type {Record<string, { mutate: string[], tests: string[], coverageAnalysis: 'perTest' | 'off' }>} */
export const groups = {
  // The wire folder is measured in two halves so the first report arrives while the second runs.
  'wire-reader': {
    mutate: [`${src}/wire/json-*.ts`, `${src}/wire/utf8-text.ts`, `${src}/wire/refusal.ts`],
    tests: [`${test}/wire/json-reader*.test.ts`, `${test}/wire/json-repeated-key.test.ts`],
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
  // The MCP header rules a client shares with the server: how a value is written and read, which
  // headers a request carries, which x-mcp-header annotations stand. The server's header match
  // and the catalog's construction check reach them too, so their tests are loaded.
  'wire-headers': {
    mutate: [`${src}/wire/header-value.ts`, `${src}/wire/mcp-header*.ts`],
    tests: [
      `${test}/wire/header-value.test.ts`,
      `${test}/wire/mcp-header*.test.ts`,
      `${test}/http/headers/header-match*.test.ts`,
      `${test}/catalog/mcp-header-annotations.test.ts`,
      `${test}/fuzz/header-integer-sentinel.property.test.ts`,
    ],
    coverageAnalysis: 'perTest',
  },
  // src/http is measured in eight parts of at most about 400 mutants, each finishing in well under
  // an hour on two cores: Stryker writes its report and incremental file only when a run ends, so
  // the whole folder (2,800 mutants) in one run, stopped by a deadline after hours, left nothing
  // to reuse and never gave a score. `npm run mutate -- http` runs the parts one after another
  // (`families` below). Every file of src/http is in exactly one part, and each part lists every
  // test under test/http, test/fuzz and test/adversarial that imports one of its files, directly or through
  // others: test/census/mutate-groups.test.ts holds both. A test left out could never be picked
  // for a mutant it reaches, so a kill only it makes would count as a survivor.
  'http-answer': {
    mutate: [
      `${src}/http/answer.ts`,
      `${src}/http/respond.ts`,
      `${src}/http/sse-writer.ts`,
      `${src}/http/linger.ts`,
      `${src}/http/unavailable-answer.ts`,
    ],
    tests: httpTests,
    coverageAnalysis: 'perTest',
  },
  'http-handler': {
    mutate: [
      `${src}/http/node/handler.ts`,
      `${src}/http/node/request.ts`,
      // What handler.attach() answers without a request, and when a pipelined request starts.
      `${src}/http/node/client-error.ts`,
      `${src}/http/node/raw-refusal.ts`,
      `${src}/http/node/connection-turn.ts`,
      `${src}/http/node/index.ts`,
      `${src}/http/exchange-steps.ts`,
      `${src}/http/refusals.ts`,
    ],
    tests: httpTests,
    coverageAnalysis: 'perTest',
  },
  'http-origin': {
    mutate: [`${src}/http/host-origin.ts`, `${src}/http/node/host-allow-list.ts`, `${src}/http/cors.ts`],
    tests: httpTests,
    coverageAnalysis: 'perTest',
  },
  'http-options': {
    mutate: [`${src}/http/http-options.ts`, `${src}/http/authorize.ts`],
    tests: httpTests,
    coverageAnalysis: 'perTest',
  },
  'http-headers': {
    mutate: [`${src}/http/headers/*.ts`],
    // The one fuzz test that reaches src/http: it drives the header match's sentinel and integers.
    tests: [...httpTests, `${test}/fuzz/header-integer-sentinel.property.test.ts`],
    coverageAnalysis: 'perTest',
  },
  'http-body': {
    mutate: [`${src}/http/node/read-body.ts`, `${src}/http/body-bytes.ts`, `${src}/http/media.ts`],
    tests: httpTests,
    coverageAnalysis: 'perTest',
  },
  // HTTP sessions: every handler loads them, so every HTTP test is a candidate; the session tests
  // are the ones that reach past the option's check.
  'http-sessions': {
    mutate: [`${src}/http/sessions/*.ts`],
    tests: httpTests,
    coverageAnalysis: 'perTest',
  },
  // Only these tests import the fetch handler's files, so only they are loaded.
  'http-fetch': {
    mutate: [`${src}/http/fetch/*.ts`],
    tests: [
      `${test}/http/fetch/*.test.ts`,
      `${test}/http/cors*.test.ts`,
      `${test}/adversarial/fetch-repeated-headers.test.ts`,
      `${test}/adversarial/host-absolute-form.test.ts`,
      `${test}/adversarial/logger-sweep.test.ts`,
      `${test}/http/host-origin.test.ts`,
      `${test}/http/host-hooks-throw.test.ts`,
      `${test}/http/stream-probe.test.ts`,
      `${test}/http/host-refusal-log.test.ts`,
      `${test}/http/older-revisions.test.ts`,
      // The session peer mounts both handlers.
      `${test}/sessions/*.test.ts`,
      `${test}/http/unavailable.test.ts`,
    ],
    coverageAnalysis: 'perTest',
  },
  // Only these tests, which start `serve()`, import its files.
  'http-serve': {
    mutate: [
      `${src}/http/node/serve*.ts`,
      `${src}/http/node/routes.ts`,
      `${src}/http/node/protocol-sniff.ts`,
      `${src}/http/node/session-guard.ts`,
    ],
    tests: [
      `${test}/http/node/serve*.test.ts`,
      `${test}/http/node/h2-holds.test.ts`,
      `${test}/http/cors.test.ts`,
      `${test}/http/host-origin.test.ts`,
      `${test}/http/node/handler-refusals.test.ts`,
      `${test}/http/host-refusal-log.test.ts`,
      `${test}/http/node/*.test.ts`,
      // Sessions on every runtime, serve() among them; its close() and its CONNECT answer with sessions.
      `${test}/sessions/session-runtimes.test.ts`,
      `${test}/sessions/session-close.test.ts`,
      `${test}/sessions/session-allow.test.ts`,
    ],
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
      // In-process too: the transport's options, and a host onFault that is not a function or throws.
      `${test}/transports/stdio-options.test.ts`,
      `${test}/fuzz/stdio-transport.property.test.ts`,
      `${test}/telemetry/**/*.test.ts`,
    ],
    coverageAnalysis: 'perTest',
  },
};

/**
 * Names `npm run mutate` accepts for several groups, run one after another in this order; the
 * summary adds a line over the family's groups (scripts/mutate/summary.ts).
 * @type {Record<string, string[]>}
 */
export const families = {
  http: Object.keys(groups).filter((name) => name.startsWith('http-')),
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
