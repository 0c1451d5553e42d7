/**
 * The READMEs npm shows on the pages of the published packages (npm takes README.md from the
 * package folder, not the repository root) say nothing the repository does not hold true.
 *
 * Their code blocks are not run here: each must be a byte-for-byte copy of a block
 * readme-blocks.test.ts runs (any block of the root README, or a marked block of a docs page it
 * runs), with the same info string. One runner, so a package page cannot show code that stopped
 * working while the root README was fixed. The rest of what the pages state that changes with the
 * code is held to its source: the Node range to `engines`, the entry points to `exports` and
 * `bin`, the dependency table to the root README's (held in turn to the manifest), and the demo's
 * names and flags to its catalog and usage text.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CONNECTOME_DECLARED_URI,
  CONNECTOME_DIFF_URI,
  CONNECTOME_OBSERVED_URI,
} from 'palisade-mcp-connectome';
import { describe, expect, test } from 'vitest';
import { demoCatalog } from '../../../demo/src/catalog.js';
import { RUN_PAGES } from '../support/run-pages.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const ROOT_README = readFileSync(join(ROOT, 'README.md'), 'utf8');

interface Manifest {
  readonly name: string;
  readonly engines: { readonly node: string };
  readonly exports: Readonly<Record<string, unknown>>;
  readonly bin: Readonly<Record<string, string>>;
}

/**
 * The published packages whose README blocks are the root README's; palisade-mcp-static and
 * palisade-mcp-auth keep READMEs of their own, whose blocks are their own (palisade-mcp-auth's
 * test/readme.test.ts holds its blocks to files the workspace type-checks).
 */
const PUBLISHED = ['packages/palisade-mcp', 'packages/demo'].map((dir) => ({
  dir,
  readme: readFileSync(join(ROOT, dir, 'README.md'), 'utf8'),
  manifest: JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as Manifest,
}));

function published(name: string): (typeof PUBLISHED)[number] {
  const found = PUBLISHED.find((entry) => entry.manifest.name === name);
  if (found === undefined) throw new Error(`no published package named ${name}`);
  return found;
}

interface Block {
  readonly info: string;
  readonly code: string;
  readonly line: number;
  /** Preceded by a `<!-- readme-test: ... -->` line, so readme-blocks.test.ts runs it on any page. */
  readonly marked: boolean;
}

/** Fenced blocks read as readme-blocks.test.ts reads them: a line of three backticks and an info string, to the next bare fence. */
function blocks(markdown: string): Block[] {
  const found: Block[] = [];
  const lines = markdown.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const fence = /^```(\S*)$/.exec(lines[index] ?? '');
    if (fence === null) continue;
    const end = lines.indexOf('```', index + 1);
    if (end === -1) throw new Error(`the fence on line ${index + 1} is never closed`);
    found.push({
      info: fence[1] ?? '',
      code: lines.slice(index + 1, end).join('\n'),
      line: index + 1,
      marked: (lines[index - 1] ?? '').startsWith('<!-- readme-test: '),
    });
    index = end;
  }
  return found;
}

/** The blocks readme-blocks.test.ts runs: every block of a page marked whole, the marked ones elsewhere. */
const RUN_BLOCKS = RUN_PAGES.flatMap(({ page, everyBlockMarked }) =>
  blocks(readFileSync(join(ROOT, page), 'utf8')).filter((block) => everyBlockMarked || block.marked),
);

/** `>=X.Y.Z` as the READMEs write it: "Node.js X.Y or newer" (the patch only when it is not 0). */
function nodePhrase(range: string): string {
  const found = /^>=(\d+)\.(\d+)\.(\d+)$/.exec(range);
  if (found === null)
    throw new Error(`engines.node ${JSON.stringify(range)} is a form this test cannot phrase`);
  const [, major, minor, patch] = found;
  return `Node.js ${major}.${minor}${patch === '0' ? '' : `.${patch}`} or newer`;
}

/** The rows of a `## heading` section's table, as written. */
function sectionTable(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start === -1) throw new Error(`no "## ${heading}" section`);
  const rest = markdown.slice(start + 1);
  const next = rest.indexOf('\n## ');
  const section = next === -1 ? rest : rest.slice(0, next);
  return section
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .join('\n');
}

describe('the README of each published package', () => {
  for (const { dir, readme, manifest } of PUBLISHED) {
    test(`${dir}/README.md holds code blocks to check`, () => {
      expect(blocks(readme).length).toBeGreaterThan(0);
    });

    test(`every code block of ${dir}/README.md is a block that runs, info string included`, () => {
      const copied = (block: Block): boolean =>
        RUN_BLOCKS.some((run) => run.info === block.info && run.code === block.code);
      const strays = blocks(readme)
        .filter((block) => !copied(block))
        .map((block) => `line ${block.line} (\`\`\`${block.info})`);
      expect(strays, 'in no block that runs; copy one exactly, or add it to a page that runs').toEqual([]);
    });

    test(`${dir}/README.md names the Node versions its engines field admits`, () => {
      expect(readme).toContain(nodePhrase(manifest.engines.node));
    });
  }
});

describe('the README of palisade-mcp', () => {
  const { readme, manifest } = published('palisade-mcp');

  test('names the CI release lines in the root README words', () => {
    const named =
      /CI runs the whole suite on Node (\d+) and on ([\d.]+), the oldest `engines`\s+admits, and every test that runs code again on Node ([\d, ]+ and \d+)/.exec(
        ROOT_README.replace(/\s+/g, ' '),
      );
    expect(named, 'the root README names the CI release lines').not.toBeNull();
    expect(readme).toContain(
      `CI runs every test that runs code on Node ${named?.[1]}, ${named?.[2]}, ${named?.[3]}.`,
    );
  });

  test('names every entry point of the exports map and every command', () => {
    const entries = Object.keys(manifest.exports)
      .filter((key) => key !== './package.json')
      .map((key) => `\`${manifest.name}${key.slice(1)}\``);
    const commands = Object.keys(manifest.bin).map((name) => `\`${name}\` (command)`);
    expect(entries.length).toBeGreaterThan(3);
    expect([...entries, ...commands].filter((name) => !readme.includes(name))).toEqual([]);
  });

  test('carries the root README runtime dependency table row for row', () => {
    const table = sectionTable(ROOT_README, 'Runtime dependencies');
    expect(table.split('\n').length).toBeGreaterThan(2);
    expect(sectionTable(readme, 'Runtime dependencies')).toBe(table);
  });
});

describe('the README of palisade-demo', () => {
  const { readme, manifest } = published('palisade-demo');

  test('names every tool, resource, resource template and prompt the demo serves', () => {
    const names = [
      ...(demoCatalog.tools ?? []).map((tool) => tool.name),
      ...(demoCatalog.resources ?? []).map((resource) => resource.uri),
      ...(demoCatalog.resourceTemplates ?? []).map((template) => template.uriTemplate),
      ...(demoCatalog.prompts ?? []).map((prompt) => prompt.name),
      CONNECTOME_DECLARED_URI,
      CONNECTOME_OBSERVED_URI,
      CONNECTOME_DIFF_URI,
    ];
    expect(names.length).toBeGreaterThan(10);
    expect(names.filter((name) => !readme.includes(`\`${name}\``))).toEqual([]);
  });

  test('names its own command and every flag of its usage text', () => {
    const main = readFileSync(join(ROOT, 'packages/demo/src/main.ts'), 'utf8');
    const usage = /const USAGE = `([^`]*)`/.exec(main)?.[1];
    expect(usage, 'packages/demo/src/main.ts keeps its usage in USAGE').toBeDefined();
    const flags = [...new Set((usage ?? '').match(/(?<![\w-])--?[a-z][a-z-]*/g))];
    expect(flags).toContain('--stdio');
    const names = [...Object.keys(manifest.bin), ...flags];
    expect(names.filter((name) => !readme.includes(`\`${name}`))).toEqual([]);
  });
});

describe('the README of palisade-mcp-auth', () => {
  const dir = 'packages/palisade-mcp-auth';
  const readme = readFileSync(join(ROOT, dir, 'README.md'), 'utf8');
  const manifest = JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as Manifest & {
    readonly dependencies: Readonly<Record<string, string>>;
    readonly peerDependencies: Readonly<Record<string, string>>;
  };

  test('names the Node versions its engines field admits, and its entry point', () => {
    expect(readme).toContain(nodePhrase(manifest.engines.node));
    expect(Object.keys(manifest.exports)).toEqual(['.', './package.json']);
    expect(readme).toContain(`from '${manifest.name}'`);
  });

  test('gives a reason for every runtime and peer dependency, and lists no other', () => {
    const rows = sectionTable(readme, 'Runtime dependencies')
      .split('\n')
      .map((line) => line.split('|').map((cell) => cell.trim()))
      .filter((cells) => /^`[^`]+`/.test(cells[1] ?? ''));
    const named = rows.map((cells) => /^`([^`]+)`( \(peer\))?$/.exec(cells[1] ?? '')?.slice(1, 3));
    expect(named).toEqual([
      ...Object.keys(manifest.dependencies).map((name) => [name, undefined]),
      ...Object.keys(manifest.peerDependencies).map((name) => [name, ' (peer)']),
    ]);
    for (const cells of rows)
      expect((cells[2] ?? '').split(/\s+/).length, cells[1]).toBeGreaterThanOrEqual(3);
  });
});
