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

/** Every command and subcommand the CLI has, as the words that name it. */
const COMMANDS: readonly (readonly string[])[] = [
  [],
  ['demo'],
  ['connectome'],
  ...['declared', 'observed', 'diff', 'reach', 'render'].map((name) => ['connectome', name]),
];

describe('help and usage errors on every command', () => {
  test.each(COMMANDS.flatMap((words) => ['--help', '-h'].map((flag) => [[...words, flag].join(' ')])))(
    "'palisade %s' prints its usage and the exit codes on stdout, nothing on stderr, and exits 0",
    (line) => {
      const words = line.split(' ');
      const result = run(...words);
      expect(result.status).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout.startsWith(`usage: palisade ${words.slice(0, -1).join(' ')}`.trimEnd())).toBe(
        true,
      );
      expect(result.stdout).toMatch(/\nExit codes: 0 [\s\S]*2 usage error\.\n$/);
    },
  );

  test.each(COMMANDS.map((words) => [words.join(' ') || '(no command)', words]))(
    "an unknown flag to 'palisade %s' exits 2 with nothing on stdout and the usage on stderr",
    (_name, words) => {
      const help = run(...words, '--help').stdout;
      const result = run(...words, '--no-such-flag');
      expect(result.status).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain("Unknown option '--no-such-flag'");
      expect(result.stderr.endsWith(help)).toBe(true);
    },
  );
});
