/**
 * `palisade connectome ...` is the palisade-mcp-connectome package's command, loaded on demand:
 * served when the package is installed beside palisade-mcp (the workspace links it), refused by
 * name when it is not (a copy of the built server package in a scratch directory, where no
 * node_modules above it holds the connectome).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';

const PACKAGE = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(PACKAGE, 'dist/cli/main.js');
/** The connectome's worked example, the bytes its golden test pins (packages/palisade-mcp-connectome/test/fixtures). */
const WORKED = fileURLToPath(
  new URL('../../../palisade-mcp-connectome/test/fixtures/worked-example.jcs', import.meta.url),
);

const scratch = mkdtempSync(join(tmpdir(), 'palisade-connectome-optional-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('palisade connectome with palisade-mcp-connectome installed', () => {
  test('the command is the package’s: its usage on --help, and a declared graph back byte for byte', () => {
    const help = spawnSync(process.execPath, [CLI, 'connectome', '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout.startsWith('usage: palisade connectome <command> [options]\n')).toBe(true);
    const declared = spawnSync(process.execPath, [CLI, 'connectome', 'declared', WORKED]);
    expect(declared.status).toBe(0);
    expect(declared.stderr.toString()).toBe('');
    expect(declared.stdout.equals(readFileSync(WORKED))).toBe(true);
  });
});

describe('palisade connectome without palisade-mcp-connectome installed', () => {
  test('any connectome command is refused by name on one line, with the install command, exit code 1', () => {
    const isolated = join(scratch, 'isolated', 'palisade-mcp');
    cpSync(join(PACKAGE, 'dist'), join(isolated, 'dist'), { recursive: true });
    cpSync(join(PACKAGE, 'package.json'), join(isolated, 'package.json'));
    for (const args of [['declared', WORKED], ['--help'], []]) {
      const r = spawnSync(process.execPath, [join(isolated, 'dist/cli/main.js'), 'connectome', ...args], {
        encoding: 'utf8',
        cwd: scratch,
      });
      expect(r.status).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        'palisade connectome: PALISADE_ERR_CLI_CONNECTOME_MISSING: the connectome command is in the package palisade-mcp-connectome, which is not installed; install it beside palisade-mcp (npm install palisade-mcp-connectome), or run npx -p palisade-mcp -p palisade-mcp-connectome palisade connectome ...\n',
      );
    }
  });

  test('the rest of the command still works there', () => {
    const isolated = join(scratch, 'isolated', 'palisade-mcp');
    const r = spawnSync(process.execPath, [join(isolated, 'dist/cli/main.js'), '--version'], {
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('0.1.0\n');
  });
});
