/**
 * The README's Quick start, run whole as a newcomer runs it: in an empty folder outside the
 * repository, where nothing of the workspace resolves. The `pack` block's `npm pack` runs in the
 * repository (its `npm ci && npm run build` is what the suite already did) into a scratch folder
 * standing for `~/palisade-packs`; the app's files are written from their blocks; its `npm install`
 * lines run as written (the registry's packages from npm's cache when it has them); `npx tsc`
 * type-checks the app with the tsconfig.json the README shows; then the server runs under
 * `npx tsx` and the official SDK's client makes a real call to it, over HTTP and over stdio.
 *
 * Only the Quick start's blocks are used, from its heading to the next. The HTTP server is
 * started on port 0 rather than the README's 3000 and the client pointed at the URL it prints
 * (tests never bind a fixed port); nothing else is changed.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const PACKS = '~/palisade-packs';

interface Block {
  readonly mode: string;
  readonly args: readonly string[];
  readonly code: string;
}

/** The marked blocks between `## Quick start` and the next `## ` heading, in order. */
function quickStartBlocks(): Block[] {
  const start = README.indexOf('\n## Quick start\n');
  const end = README.indexOf('\n## ', start + 1);
  const section = README.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/<!-- readme-test: (\S+)(.*?) -->\n```\S*\n([\s\S]*?)\n```/g)].map((match) => ({
    mode: match[1] ?? '',
    args: [...(match[2] ?? '').matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? ''),
    code: `${match[3] ?? ''}\n`,
  }));
}

const BLOCKS = quickStartBlocks();
const packs = mkdtempSync(join(tmpdir(), 'palisade-packs-'));
const app = mkdtempSync(join(tmpdir(), 'palisade-quick-start-'));
const children: ChildProcess[] = [];

/** Each command line of a shell block, `~/palisade-packs` pointed at this run's scratch folder. */
function commands(block: Block): string[] {
  return block.code
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => line !== '')
    .map((line) => line.replaceAll(PACKS, packs));
}

/** Runs one command line the way a shell would, in `cwd`; throws with its output if it fails. */
function sh(line: string, cwd: string): string {
  try {
    return execFileSync('sh', ['-c', line], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      // The registry's packages come from npm's cache when it holds them (npm ci filled it).
      env: {
        ...process.env,
        npm_config_prefer_offline: 'true',
        npm_config_audit: 'false',
        npm_config_fund: 'false',
      },
    });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`\`${line}\` failed in ${cwd}:\n${stdout ?? ''}${stderr ?? ''}`);
  }
}

/** `npx tsx FILE` in the app, in its own process group so the server tsx starts stops with it. */
function tsx(file: string): ChildProcess {
  const child = spawn('npx', ['tsx', file], { cwd: app, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  children.push(child);
  return child;
}

function output(child: ChildProcess): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

beforeAll(() => {
  // Packed once for this run: every later step installs from these tarballs.
  const pack = BLOCKS.find((block) => block.mode === 'pack');
  for (const line of pack === undefined ? [] : commands(pack)) {
    if (line === 'npm ci && npm run build') continue; // what the suite's own build already did
    sh(line, ROOT);
  }
}, 120_000);

afterAll(() => {
  for (const child of children) {
    if (child.pid !== undefined && child.exitCode === null) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
  rmSync(app, { recursive: true, force: true });
  rmSync(packs, { recursive: true, force: true });
});

describe('the README Quick start, in an empty folder', () => {
  test('says where it begins that the package is not published, and how to install from a clone', () => {
    const opening = README.slice(README.indexOf('\n## Quick start\n')).slice(0, 400).replace(/\s+/g, ' ');
    expect(opening).toContain(
      '`palisade-mcp` is not on the npm registry yet: `npm install palisade-mcp` answers 404.',
    );
    expect(BLOCKS.map((block) => block.mode)).toEqual(
      expect.arrayContaining(['pack', 'app-file', 'app-install', 'file', 'serve', 'run']),
    );
    const pack = BLOCKS.find((block) => block.mode === 'pack');
    expect(pack && commands(pack)).toContain('npm ci && npm run build');
    expect(homedir()).not.toBe(''); // `~` in the README is a folder every user has
  });

  test('the pack block makes the tarball the install block names', () => {
    const install = BLOCKS.filter((block) => block.mode === 'app-install').flatMap(commands);
    const tarballs = install.flatMap((line) => line.split(/\s+/)).filter((word) => word.endsWith('.tgz'));
    expect(tarballs.length).toBeGreaterThan(0);
    for (const tarball of tarballs) expect(() => readFileSync(tarball)).not.toThrow();
  });

  test('installs, type-checks with its tsconfig.json, and answers a real call over HTTP and stdio', async () => {
    for (const block of BLOCKS.filter((block) => block.mode === 'app-file')) {
      writeFileSync(join(app, block.args[0] ?? ''), block.code);
    }
    for (const block of BLOCKS.filter((block) => block.mode === 'app-install')) {
      for (const line of commands(block)) sh(line, app);
    }
    const manifest = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    expect(manifest.dependencies?.['palisade-mcp']).toMatch(/^file:.*palisade-mcp-[\d.]+\.tgz$/);

    let url = '';
    for (const block of BLOCKS.filter((block) => ['file', 'serve', 'run'].includes(block.mode))) {
      const name = block.args[0] ?? '';
      // Port 0, and the client pointed at the URL the server printed: tests never bind a fixed port.
      const code =
        block.mode === 'serve'
          ? block.code.replace('port: 3000', 'port: 0')
          : block.code.replace('http://127.0.0.1:3000/mcp', url);
      writeFileSync(join(app, name), code);
      if (block.mode === 'file') continue;
      if (block.mode === 'serve') {
        // Type-checked once every file the server imports is written, before it first runs.
        expect(() => sh('npx tsc', app)).not.toThrow();
        const server = tsx(name);
        url = await new Promise<string>((resolve, reject) => {
          let seen = '';
          server.stderr?.on('data', (chunk: Buffer) => {
            seen += chunk.toString('utf8');
            const found = /(http:\/\/\S+\/mcp)\b/.exec(seen);
            if (found?.[1] !== undefined) resolve(found[1]);
          });
          server.on('exit', (code) => reject(new Error(`${name} exited ${code}:\n${seen}`)));
        });
        continue;
      }
      const ran = await output(tsx(name));
      expect(ran.code, ran.stderr).toBe(0);
      expect(ran.stdout).toContain(block.args[1] ?? '');
    }
    expect(() => sh('npx tsc', app)).not.toThrow();
  }, 240_000);
});
