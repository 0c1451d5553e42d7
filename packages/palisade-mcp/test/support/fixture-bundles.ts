/**
 * The stdio fixture servers, compiled once per test run instead of once per spawn.
 *
 * A wire test spawns a fresh server process for nearly every test: a process is the unit a stdio
 * server lives in, and a 2025-11-25 `initialize` fixes it for good. Started through `--import tsx`,
 * each spawn compiled its TypeScript again and cost about 1.4 s of CPU (measured 2026-11-30, Node 20);
 * started from one esbuild bundle it costs about 0.3 s. The bundle is the same source compiled by the
 * same compiler tsx uses (esbuild), so the process under test is unchanged; packages from
 * node_modules stay imports, resolved as they would be without the bundle.
 *
 * `test/support/global-setup.ts` builds the bundles; a test asks for one by its fixture's name.
 */
import { join } from 'node:path';
import { inject } from 'vitest';

/** The fixture servers global-setup.ts compiles: every `test/fixtures/serve-*.ts`. */
export type StdioFixture =
  | 'serve-stdio'
  | 'serve-changes'
  | 'serve-telemetry-stdio'
  | 'serve-typed'
  | 'serve-http-memory'
  | 'serve-session-stdio';

/** The path of the compiled fixture, for `spawn(process.execPath, [path, ...args])`. */
export function bundledFixture(name: StdioFixture): string {
  return join(inject('fixtureBundleDir'), `${name}.mjs`);
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where global-setup.ts wrote this run's fixture bundles. */
    fixtureBundleDir: string;
  }
}
