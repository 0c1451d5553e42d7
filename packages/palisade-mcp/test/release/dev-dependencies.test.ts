/**
 * Every development dependency earns its place in writing: CONTRIBUTING.md's table names each one
 * the workspace declares, with the reason, and names nothing it does not declare, so the list a
 * reader trusts cannot drift from the manifest.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const declared = Object.keys(
  (JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { devDependencies: Record<string, string> })
    .devDependencies,
).sort();

/** The table under `## Development dependencies`: each row's packages and its reason. */
function table(markdown: string): Array<{ packages: string[]; reason: string }> {
  const start = markdown.indexOf('\n## Development dependencies\n');
  if (start === -1) throw new Error('CONTRIBUTING.md has no "## Development dependencies" section');
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown
    .slice(start, end === -1 ? undefined : end)
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [, names = '', reason = ''] = line.split('|');
      return { packages: [...names.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? ''), reason: reason.trim() };
    });
}

const rows = table(readFileSync(`${ROOT}CONTRIBUTING.md`, 'utf8'));

describe('the development dependencies', () => {
  test('CONTRIBUTING.md names exactly the ones package.json declares', () => {
    expect(rows.flatMap((row) => row.packages).sort()).toEqual(declared);
  });

  test('every row gives its reason', () => {
    expect(rows.filter((row) => row.reason.length < 20)).toEqual([]);
  });
});
