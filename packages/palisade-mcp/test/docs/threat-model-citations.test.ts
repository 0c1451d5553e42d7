/**
 * The citation census: every test `docs/threat-model.md` cites exists and runs. The list of tests
 * comes from the test runner itself (`vitest list`, which leaves out skipped and todo tests and
 * never sees a commented-out one or a name inside a string), not from reading test sources.
 *
 * A citation is a backticked path (relative to `packages/palisade-mcp/`) followed by quoted test
 * names separated by commas; a name holding a `test.each` placeholder (`%s`, `%j`, ...) matches
 * the names it expands to. A cited benchmark must exist as a file.
 *
 * And the reverse: a test holding a row carries the `threat-model` tag
 * (`test('...', { tags: ['threat-model'] }, ...)`), and the tagged tests, listed by the runner
 * with `--tags-filter=threat-model`, are exactly the cited ones: a tagged test the page does not
 * cite fails, and so does a cited one left untagged.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, test } from 'vitest';

const PACKAGE = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const ROOT = resolve(PACKAGE, '../..');
const PAGE = join(ROOT, 'docs/threat-model.md');

interface Citation {
  readonly path: string;
  readonly name: string;
}

interface Listed {
  readonly name: string;
  readonly file: string;
}

/** A closing quote is one followed by a comma, semicolon, bracket, cell border or end of line. */
const CLOSING_QUOTE = /^"(?=\s*(?:[,;)\]]|\||\(|$))/;

/** Every (path, name) the page cites, in order. */
function citations(page: string): Citation[] {
  const found: Citation[] = [];
  for (const line of page.split('\n')) {
    for (const match of line.matchAll(/`((?:\.\.\/[a-z-]+\/)?(?:test|bench)\/[^`\s]+\.ts)`/g)) {
      const path = match[1] ?? '';
      let rest = line.slice((match.index ?? 0) + match[0].length);
      // Quoted names, separated by commas; a quote inside a name is one not followed by a separator.
      while (rest.trimStart().startsWith('"')) {
        rest = rest.trimStart().slice(1);
        let end = 0;
        while (end < rest.length && !CLOSING_QUOTE.test(rest.slice(end))) end += 1;
        found.push({ path, name: rest.slice(0, end) });
        rest = rest.slice(end + 1);
        if (!rest.trimStart().startsWith(',')) break;
        rest = rest.trimStart().slice(1);
      }
    }
  }
  return found;
}

/** Not global: a global RegExp's `test` keeps its position between calls. */
const PLACEHOLDER = /%[sdijfoOc#%]/;

function matcher(name: string): (listed: string) => boolean {
  if (!PLACEHOLDER.test(name)) return (listed) => listed === name;
  const pattern = name
    .split(new RegExp(PLACEHOLDER.source, 'g'))
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.+?');
  const regex = new RegExp(`^${pattern}$`);
  return (listed) => regex.test(listed);
}

function fileOf(path: string): string {
  const inPackage = resolve(PACKAGE, path);
  return existsSync(inPackage) ? inPackage : resolve(ROOT, path);
}

/**
 * The test files the runner is asked to list: every one the page cites, and every one whose source
 * spells the tag. Listing means importing, and importing all ~150 test files took 122 s beside a
 * running suite; a tag is only ever written as the literal 'threat-model' (vitest.config.ts
 * defines tags by name), so a file without that text holds no tagged test. Which tests in these
 * files are tagged, and whether they run, is still the runner's answer, not this filter's.
 */
function candidateFiles(): string[] {
  const files = new Set(citations(readFileSync(PAGE, 'utf8')).map((citation) => fileOf(citation.path)));
  for (const base of [join(ROOT, 'packages'), join(ROOT, 'examples')]) {
    for (const name of readdirSync(base, { recursive: true, encoding: 'utf8' })) {
      if (!name.endsWith('.test.ts') || name.includes('node_modules')) continue;
      const path = join(base, name);
      if (readFileSync(path, 'utf8').includes('threat-model')) files.add(path);
    }
  }
  return [...files].filter((path) => path.endsWith('.test.ts') && existsSync(path));
}

/**
 * The tests tagged `threat-model` (vitest.config.ts defines the tag), as the runner lists them:
 * one listing serves both directions, since a cited test found here exists, runs and is tagged.
 */
let tagged: Listed[] = [];

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'palisade-census-'));
  try {
    const out = join(dir, 'tests.json');
    await promisify(execFile)(
      process.execPath,
      [
        join(ROOT, 'node_modules/vitest/vitest.mjs'),
        'list',
        `--json=${out}`,
        '--tags-filter=threat-model',
        ...candidateFiles(),
      ],
      { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 },
    );
    tagged = JSON.parse(readFileSync(out, 'utf8')) as Listed[];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 480_000);

/** A listed name without its `describe` path (`outer > inner > name`); a top-level test has none. */
function ownName(listed: string): string {
  const at = listed.lastIndexOf(' > ');
  return at === -1 ? listed : listed.slice(at + 3);
}

/**
 * Whether a listed test is the one a citation names. The file and the name's matcher are worked
 * out once per citation: both directions compare every citation with every tagged test, and
 * building them per pair (a file lookup and a RegExp each time) took over 30 s on a loaded machine.
 */
const resolved = new WeakMap<Citation, { file: string; matches: (listed: string) => boolean }>();
function cites(citation: Citation, entry: Listed): boolean {
  let known = resolved.get(citation);
  if (known === undefined) {
    known = { file: fileOf(citation.path), matches: matcher(citation.name) };
    resolved.set(citation, known);
  }
  return entry.file === known.file && known.matches(ownName(entry.name));
}

describe('the threat-model citation census', () => {
  test('the page cites tests at all, and the runner lists tagged tests', () => {
    expect(citations(readFileSync(PAGE, 'utf8')).length).toBeGreaterThan(100);
    expect(tagged.length).toBeGreaterThan(100);
  });

  test('every cited file exists', () => {
    const missing = citations(readFileSync(PAGE, 'utf8'))
      .map((citation) => citation.path)
      .filter((path) => !existsSync(fileOf(path)));
    expect([...new Set(missing)]).toEqual([]);
  });

  test('every cited test is one the runner lists under the threat-model tag, so it exists, runs and is tagged', () => {
    const untagged = citations(readFileSync(PAGE, 'utf8'))
      .filter(({ path }) => !path.includes('.bench.'))
      .filter((citation) => !tagged.some((entry) => cites(citation, entry)))
      .map(({ path, name }) => `${path} "${name}"`);
    expect(untagged).toEqual([]);
  });

  test('every test tagged threat-model is cited by the page', () => {
    const page = citations(readFileSync(PAGE, 'utf8'));
    const uncited = tagged
      .filter((entry) => !page.some((citation) => cites(citation, entry)))
      .map((entry) => `${entry.file.slice(PACKAGE.length + 1)} "${entry.name}"`);
    expect(tagged.length).toBeGreaterThan(100);
    expect(uncited).toEqual([]);
  });
});

describe('reading citations', () => {
  test('names after a path are split on their commas and end at the cell', () => {
    const page =
      '| v | c | w | `test/a.test.ts` "one", "two, with a comma", "%s is refused"; `test/b.test.ts` "three" | none |';
    expect(citations(page)).toEqual([
      { path: 'test/a.test.ts', name: 'one' },
      { path: 'test/a.test.ts', name: 'two, with a comma' },
      { path: 'test/a.test.ts', name: '%s is refused' },
      { path: 'test/b.test.ts', name: 'three' },
    ]);
  });

  test('a placeholder matches what test.each expands it to, and nothing longer', () => {
    const matches = matcher('%s is answered 405');
    expect(matches('GET is answered 405')).toBe(true);
    expect(matches('GET is answered 4050')).toBe(false);
  });
});
