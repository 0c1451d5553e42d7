/**
 * Every relative link in the README, CONTRIBUTING.md, the pages under docs/ and examples/, and the packages' own
 * READMEs leads somewhere: the file exists, and an anchor names a heading of that file (GitHub's
 * slug rules). Pages move; a link that silently stops resolving is documentation that lies about
 * where the answer is.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const PAGES = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
  ...readdirSync(join(ROOT, 'examples'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => `examples/${name}`),
  ...readdirSync(join(ROOT, 'packages'))
    .map((name) => `packages/${name}/README.md`)
    .filter((page) => existsSync(join(ROOT, page))),
];

/** Text outside fenced code blocks and inline code, where a `[x](y)` is not a link. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's heading anchor: lower-cased, punctuation dropped (hyphens and underscores kept), spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/`/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(path: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const match of prose(readFileSync(path, 'utf8')).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(match[1] ?? '');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

interface Link {
  readonly page: string;
  readonly target: string;
}

const LINKS: Link[] = PAGES.flatMap((page) =>
  [...prose(readFileSync(join(ROOT, page), 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] ?? '')
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
    .map((target) => ({ page, target })),
);

describe('links in the README and docs/', () => {
  test('the pages hold relative links to check', () => {
    expect(LINKS.length).toBeGreaterThan(20);
  });

  test('the READMEs npm shows for the published packages are among the pages', () => {
    expect(PAGES).toEqual(
      expect.arrayContaining(['packages/palisade-mcp/README.md', 'packages/demo/README.md']),
    );
  });

  test('the README links every page under docs/, so its documentation index misses none', () => {
    const fromReadme = new Set(
      LINKS.filter((link) => link.page === 'README.md').map((link) => link.target.split('#')[0]),
    );
    const pages = PAGES.filter((page) => page.startsWith('docs/'));
    expect(pages.length).toBeGreaterThan(20);
    expect(pages.filter((page) => !fromReadme.has(page))).toEqual([]);
  });

  test.each(LINKS)('$page links to $target, which exists', ({ page, target }) => {
    const [file = '', anchor] = target.split('#');
    const path = file === '' ? join(ROOT, page) : join(ROOT, dirname(page), file);
    expect(existsSync(path), `${relative(ROOT, path)} does not exist`).toBe(true);
    if (anchor !== undefined && path.endsWith('.md')) {
      expect([...anchors(path)], `no heading #${anchor} in ${relative(ROOT, path)}`).toContain(anchor);
    }
  });
});
