import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

function run(...args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
}

describe('the palisade command', () => {
  test('--version prints the package version on stdout and exits 0', () => {
    const result = run('--version');
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('0.1.0\n');
  });

  test('--help prints usage on stdout and exits 0', () => {
    const result = run('--help');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('usage: palisade');
  });

  test('an unknown command is a usage error on stderr with exit code 2', () => {
    const result = run('frobnicate');
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('unknown command');
  });

  test('an unknown flag is a usage error with exit code 2', () => {
    expect(run('--frobnicate').status).toBe(2);
  });
});
