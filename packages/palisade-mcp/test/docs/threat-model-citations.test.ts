/**
 * The citation census: every test `docs/threat-model.md` cites exists and runs. The list of tests
 * comes from the test runner itself (`vitest list`, which leaves out skipped and todo tests and
 * never sees a commented-out one or a name inside a string), not from reading test sources.
 *
 * A citation is a backticked path (relative to `packages/palisade-mcp/`) followed by quoted test
 * names separated by commas; a name holding a `test.each` placeholder (`%s`, `%j`, ...) matches
 * the names it expands to. A cited benchmark must exist as a file.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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

let listed: Listed[] = [];

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'palisade-census-'));
  try {
    const out = join(dir, 'tests.json');
    await promisify(execFile)(
      process.execPath,
      [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'list', `--json=${out}`],
      { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 },
    );
    listed = JSON.parse(readFileSync(out, 'utf8')) as Listed[];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 180_000);

describe('the threat-model citation census', () => {
  test('the page cites tests at all, and the runner lists tests', () => {
    expect(citations(readFileSync(PAGE, 'utf8')).length).toBeGreaterThan(100);
    expect(listed.length).toBeGreaterThan(500);
  });

  test('every cited file exists', () => {
    const missing = citations(readFileSync(PAGE, 'utf8'))
      .map((citation) => citation.path)
      .filter((path) => !existsSync(fileOf(path)));
    expect([...new Set(missing)]).toEqual([]);
  });

  test('every cited test is one the runner lists, so it exists and is not skipped', () => {
    const missing: string[] = [];
    for (const { path, name } of citations(readFileSync(PAGE, 'utf8'))) {
      if (path.includes('.bench.')) continue;
      const file = fileOf(path);
      const matches = matcher(name);
      const found = listed.some(
        (entry) => entry.file === file && matches(entry.name.slice(entry.name.lastIndexOf(' > ') + 3)),
      );
      if (!found) missing.push(`${path} "${name}"`);
    }
    expect(missing).toEqual([]);
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
