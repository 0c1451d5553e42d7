/**
 * The preload that lets suite 0.2.0-alpha.12 (which imports `globSync` from `fs`, Node 22+) load
 * on Node 20, run in a real process the way the runner runs the suite: `node --import <preload>`.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const PRELOAD = fileURLToPath(new URL('../dist/glob-sync-preload.js', import.meta.url));

test('with the preload an ES module imports globSync from fs and finds checks.json at every depth', () => {
  const root = mkdtempSync(join(tmpdir(), 'glob-'));
  for (const dir of ['a/b', 'c', 'd']) mkdirSync(join(root, dir), { recursive: true });
  for (const file of ['a/b/checks.json', 'c/checks.json', 'd/other.json'])
    writeFileSync(join(root, file), '[]');
  const script = `import { globSync } from 'fs'; console.log(JSON.stringify(globSync('**/checks.json', { cwd: process.argv[1] }).sort()));`;
  const run = spawnSync(process.execPath, ['--import', PRELOAD, '--input-type=module', '-e', script, root], {
    encoding: 'utf8',
  });
  expect(run.stderr).toBe('');
  expect(JSON.parse(run.stdout)).toEqual(['a/b/checks.json', 'c/checks.json']);
});
