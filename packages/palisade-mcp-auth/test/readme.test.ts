/**
 * The code this package's README and docs/auth.md show is code that compiles: each TypeScript
 * block is a byte-for-byte copy of a file under test/readme/, which the workspace's `tsc`
 * type-checks with the rest of the tests (as an installed package resolves, through the
 * workspace's node_modules). The same mount, on a port of 0, runs in test/metadata.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FILES = fileURLToPath(new URL('./readme/', import.meta.url));
const copies = readdirSync(FILES).map((name) => readFileSync(`${FILES}${name}`, 'utf8'));

function tsBlocks(path: string): string[] {
  return [...readFileSync(`${ROOT}${path}`, 'utf8').matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map(
    (m) => m[1] ?? '',
  );
}

describe('code blocks', () => {
  test('the README’s TypeScript block is a file the workspace type-checks', () => {
    const blocks = tsBlocks('packages/palisade-mcp-auth/README.md');
    expect(blocks).toHaveLength(1);
    expect(copies).toContain(blocks[0]);
  });

  test('docs/auth.md opens with the same server', () => {
    expect(copies).toContain(tsBlocks('docs/auth.md')[0]);
  });
});
