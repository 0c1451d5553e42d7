/**
 * The `http-*` mutation groups (scripts/mutate/groups.mjs) share src/http out between them. Every
 * file is mutated by exactly one group, so the groups' reports add up to the folder's score. Each
 * group loads every test under test/http, test/sessions, test/fuzz and test/adversarial that imports one of its files, directly or
 * through other modules: Stryker picks, per mutant, only tests it saw reach it, so a kill that
 * only a test left out of the group would make is counted as a survivor, and nothing says so.
 *
 * Patterns are matched with minimatch, the matcher Stryker applies to `mutate` (a dev dependency at
 * the version @stryker-mutator/core brings); Vitest reads the test patterns used there the same way.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { minimatch } from 'minimatch';
import { describe, expect, test } from 'vitest';
import { families, type Group, groups } from '../../../../scripts/mutate/groups.mjs';
import { importsOf, parse, resolveRelative } from './source.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const PACKAGE = 'packages/palisade-mcp';

/**
 * Left out of every group on purpose; groups.mjs says why (one times the protocol, not src/http;
 * the other measures the heap over 100,000 frames, too slow to repeat for every mutant).
 */
const LEFT_OUT = new Set([
  `${PACKAGE}/test/http/progress-rate.test.ts`,
  `${PACKAGE}/test/http/body-memory.test.ts`,
]);

/** The `.ts` files under a folder of the package, as paths from the repository root, sorted. */
function filesUnder(folder: string, suffix: string): string[] {
  return readdirSync(`${ROOT}${PACKAGE}/${folder}`, { recursive: true, encoding: 'utf8' })
    .map((entry) => `${PACKAGE}/${folder}/${entry.split('\\').join('/')}`)
    .filter((file) => file.endsWith(suffix))
    .sort();
}

const HTTP_SOURCES = filesUnder('src/http', '.ts');
const CANDIDATE_TESTS = [
  ...filesUnder('test/http', '.test.ts'),
  ...filesUnder('test/sessions', '.test.ts'),
  ...filesUnder('test/fuzz', '.test.ts'),
  ...filesUnder('test/adversarial', '.test.ts'),
];
const HTTP_GROUPS = (families['http'] ?? []).map((name): [string, Group] => {
  const group = groups[name];
  if (group === undefined) throw new Error(`family http names ${name}, which is no group`);
  return [name, group];
});

function matches(file: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => minimatch(file, pattern));
}

/** Every module a file loads when it runs, itself included; type-only imports are erased, so not followed. */
function loads(start: string): Set<string> {
  const seen = new Set([start]);
  const pending = [start];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    const source = readFileSync(`${ROOT}${file}`, 'utf8');
    for (const record of importsOf(parse(file, source))) {
      if (record.typeOnly) continue;
      const target = resolveRelative(file, record.specifier);
      if (target === null || seen.has(target) || !target.endsWith('.ts')) continue;
      seen.add(target);
      pending.push(target);
    }
  }
  return seen;
}

describe('the http mutation groups', () => {
  test('the http family is every http-* group', () => {
    const named = Object.keys(groups).filter((name) => name.startsWith('http-'));
    expect(HTTP_GROUPS.map(([name]) => name)).toEqual(named);
    expect(named.length).toBeGreaterThan(1);
  });

  test('every file of src/http is mutated by exactly one http group', () => {
    const misplaced = HTTP_SOURCES.flatMap((file) => {
      const owners = HTTP_GROUPS.filter(([, group]) => matches(file, group.mutate)).map(([name]) => name);
      return owners.length === 1 ? [] : [`${file}: ${owners.length === 0 ? 'no group' : owners.join(', ')}`];
    });
    expect(misplaced).toEqual([]);
  });

  test('an http group mutates nothing outside src/http, and each of its patterns names a file', () => {
    const wrong = HTTP_GROUPS.flatMap(([name, group]) =>
      group.mutate
        .filter((pattern) => !pattern.startsWith(`${PACKAGE}/src/http/`))
        .map((pattern) => `${name}: ${pattern} is outside src/http`)
        .concat(
          group.mutate
            .filter((pattern) => !HTTP_SOURCES.some((file) => minimatch(file, pattern)))
            .map((pattern) => `${name}: ${pattern} names no file`),
        ),
    );
    expect(wrong).toEqual([]);
  });

  test('each http group loads every test under test/http, test/fuzz and test/adversarial that imports one of its files', () => {
    const reach = new Map(CANDIDATE_TESTS.map((file) => [file, loads(file)]));
    const missing = HTTP_GROUPS.flatMap(([name, group]) => {
      const own = HTTP_SOURCES.filter((file) => matches(file, group.mutate));
      return CANDIDATE_TESTS.filter(
        (file) =>
          !LEFT_OUT.has(file) &&
          own.some((source) => reach.get(file)?.has(source)) &&
          !matches(file, group.tests),
      ).map((file) => `${name}: ${file}`);
    });
    expect(missing).toEqual([]);
    // The check above must see the import graph: the handler's own tests reach answer.ts.
    expect(reach.get(`${PACKAGE}/test/http/handler-body.test.ts`)?.has(`${PACKAGE}/src/http/answer.ts`)).toBe(
      true,
    );
    // It parses the import closure of every candidate test, synchronously: 24 s in a busy npm test
    // on this 2-core machine (2026-12-01), and past the default 30 s once on Node 20.19 under load.
  }, 120_000);

  test('each test pattern of an http group names a test file, and none names progress-rate', () => {
    const wrong = HTTP_GROUPS.flatMap(([name, group]) =>
      group.tests
        .filter((pattern) => !CANDIDATE_TESTS.some((file) => minimatch(file, pattern)))
        .map((pattern) => `${name}: ${pattern} names no test file`)
        .concat(
          [...LEFT_OUT].filter((file) => matches(file, group.tests)).map((file) => `${name}: loads ${file}`),
        ),
    );
    expect(wrong).toEqual([]);
  });
});
