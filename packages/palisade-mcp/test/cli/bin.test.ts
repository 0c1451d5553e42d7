/**
 * `npx palisade` in a checkout after `npm ci`. npm links a package's commands when it installs,
 * before anything is built, and skips a command whose file does not exist yet: so each command is
 * a committed JavaScript file that loads the build, and says how to build when there is none.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

interface Manifest {
  readonly name: string;
  readonly bin?: Record<string, string>;
}

const COMMANDS = readdirSync(join(ROOT, 'packages')).flatMap((folder) => {
  const manifest = JSON.parse(
    readFileSync(join(ROOT, 'packages', folder, 'package.json'), 'utf8'),
  ) as Manifest;
  return Object.entries(manifest.bin ?? {}).map(([command, target]) => ({ folder, command, target }));
});

function tracked(path: string): boolean {
  const result = spawnSync('git', ['ls-files', '--error-unmatch', path], { cwd: ROOT, encoding: 'utf8' });
  return result.status === 0;
}

describe('the repository’s commands after npm ci', () => {
  test('the workspace declares the palisade and palisade-demo commands', () => {
    expect(COMMANDS.map(({ command }) => command).sort()).toEqual(['palisade', 'palisade-demo']);
  });

  test.each(COMMANDS)(
    '$command is a committed file outside dist/, so npm links it before the build',
    ({ folder, target }) => {
      const path = join('packages', folder, target);
      expect(target).not.toMatch(/^(\.\/)?dist\//);
      expect(tracked(path), `${path} is not committed`).toBe(true);
    },
  );

  test('the lock file, which npm ci links from, names the same command files', () => {
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { bin?: Record<string, string> }>;
    };
    for (const { folder, command, target } of COMMANDS) {
      expect(lock.packages[`packages/${folder}`]?.bin?.[command]).toBe(target.replace(/^\.\//, ''));
    }
  });

  test('npx palisade, run in the repository, runs the built command', () => {
    const out = execFileSync('npx', ['--no-install', 'palisade', '--version'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    const { version } = JSON.parse(
      readFileSync(join(ROOT, 'packages/palisade-mcp/package.json'), 'utf8'),
    ) as { version: string };
    expect(out).toBe(`${version}\n`);
  });

  test('npx palisade-demo, run in the repository, runs the built command', () => {
    const out = execFileSync('npx', ['--no-install', 'palisade-demo', '--help'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(out).toContain('usage: palisade-demo');
  });

  test('the command passes its arguments through and exits with the CLI’s code', () => {
    const result = spawnSync(
      process.execPath,
      [join(ROOT, 'packages/palisade-mcp/bin/palisade.js'), 'frobnicate'],
      { encoding: 'utf8' },
    );
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('unknown command "frobnicate"');
  });

  test.each(COMMANDS)('$command, before the build, says to build and exits 1', ({ folder, target }) => {
    const unbuilt = mkdtempSync(join(tmpdir(), 'palisade-unbuilt-'));
    try {
      cpSync(join(ROOT, 'packages', folder, 'package.json'), join(unbuilt, 'package.json'));
      cpSync(join(ROOT, 'packages', folder, target), join(unbuilt, target));
      const result = spawnSync(process.execPath, [join(unbuilt, target)], { encoding: 'utf8' });
      expect(result.status).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/is not built \(dist\/[a-z/]+\.js is missing\): run `npm run build`/);
    } finally {
      rmSync(unbuilt, { recursive: true, force: true });
    }
  });
});
