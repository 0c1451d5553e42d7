/**
 * Every code block in the README is run, and every marked block of the docs pages the README hands
 * its longer examples to (RUN_PAGES, test/support/run-pages.ts), so none of them can go stale. A
 * block is preceded by an HTML comment saying how it is run (invisible when rendered):
 *
 *   <!-- readme-test: first-screen -->       `npm ci && npm start` / `npm test`: the demo is started with
 *                                            `npm start` and answers; `.ci/run` runs `npm ci` and `npm test`
 *   <!-- readme-test: stdio-config -->       an MCP client's JSON entry: the command it names is spawned and
 *                                            answers `initialize` over stdio
 *   <!-- readme-test: pack -->               the Quick start's commands in a clone, and
 *   <!-- readme-test: app-install -->        its `npm install` lines in the new app's folder: both run by
 *                                            quick-start.test.ts, in an empty folder outside the repository
 *   <!-- readme-test: published-install --> `npm install a b` once published: each name is a workspace
 *                                            package's, or one the app-install block installs
 *   <!-- readme-test: app-file NAME -->      a file of the new app (package.json, tsconfig.json): written to
 *                                            NAME in the scratch project here (the type check uses them) and
 *                                            in quick-start.test.ts's empty folder
 *   <!-- readme-test: palisade-cli -->       `npx -p palisade-mcp ... palisade ARGS` lines: the workspace's own `palisade`
 *                                            bin runs with ARGS (HTTP: `--port 0` added, then tools/list is
 *                                            answered at the URL it prints; `--stdio`: it answers initialize)
 *   <!-- readme-test: file NAME -->          written to NAME in a scratch project
 *   <!-- readme-test: serve NAME -->         written and started (with tsx, or by Node itself where it strips
 *                                            types; the server an earlier block started is stopped first); it
 *                                            must print its MCP URL on stderr, and a tools/list to that URL
 *                                            must be answered
 *   <!-- readme-test: run NAME "TEXT" -->    written and run (as `serve` is) to exit 0, TEXT on its stdout
 *
 * Blocks run in README order, so a client block talks to the server a `serve` block started. The
 * scratch project lives inside the repository (`.readme-test-*`, git-ignored) so its imports resolve
 * through the workspace's own node_modules, exactly as an installed package would; the TypeScript
 * blocks are also type-checked together by the workspace's `tsc`.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RUN_PAGES } from '../support/run-pages.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

interface Block {
  readonly page: string;
  readonly mode: string;
  readonly args: readonly string[];
  readonly language: string;
  readonly code: string;
  readonly line: number;
}

function blocks(page: string, markdown: string): Block[] {
  const found: Block[] = [];
  const lines = markdown.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const fence = /^```(\S*)$/.exec(lines[index] ?? '');
    if (fence === null) continue;
    const end = lines.indexOf('```', index + 1);
    const marker = /^<!-- readme-test: (\S+)(.*?) -->$/.exec(lines[index - 1] ?? '');
    const args = [...(marker?.[2] ?? '').matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? '');
    found.push({
      page,
      mode: marker?.[1] ?? 'unmarked',
      args,
      language: fence[1] ?? '',
      code: `${lines.slice(index + 1, end).join('\n')}\n`,
      line: index + 1,
    });
    index = end;
  }
  return found;
}

const ALL_BLOCKS = RUN_PAGES.flatMap(({ page }) => blocks(page, readFileSync(join(ROOT, page), 'utf8')));
const BLOCKS = ALL_BLOCKS.filter(
  (block) =>
    block.mode !== 'unmarked' || RUN_PAGES.find((page) => page.page === block.page)?.everyBlockMarked,
);
const project = mkdtempSync(join(ROOT, '.readme-test-'));
const children: ChildProcess[] = [];
// The README says `npx tsx http.ts` everywhere and `node http.ts` on Node 22.18 or newer: where this
// Node strips types itself (process.features.typescript), the blocks run as plain `node FILE.ts`,
// which tests that sentence and spares tsx's start-up on each spawn; on Node 20 they run through tsx.
const TSX = (process.features as { typescript?: unknown }).typescript ? [] : ['--import', 'tsx'];

/**
 * The blocks say ports 3000 to 3009, as a reader types them; run, each uses a port that was free at
 * the start of this file instead, so a test running beside another (or a server a developer left
 * on 3000) cannot make them fail with EADDRINUSE.
 */
const ports = new Map<string, number>();
beforeAll(async () => {
  // All ten held at once, so no two come out the same.
  const probes = Array.from({ length: 10 }, () => createNetServer().listen(0, '127.0.0.1'));
  await Promise.all(probes.map((probe) => once(probe, 'listening')));
  probes.forEach((probe, index) => {
    ports.set(String(3000 + index), (probe.address() as AddressInfo).port);
  });
  await Promise.all(probes.map((probe) => new Promise((resolve) => probe.close(resolve))));
});
const asRun = (code: string): string =>
  code.replace(
    /(port: |listen\(|127\.0\.0\.1:|localhost:)(300\d)\b/g,
    (_match, before: string, shown: string) => `${before}${ports.get(shown) ?? shown}`,
  );

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(project, { recursive: true, force: true });
});

const servers: ChildProcess[] = [];

/** Stops the servers earlier blocks started, so the next block may bind the same port. */
async function stopServers(): Promise<void> {
  await Promise.all(
    servers.splice(0).map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
}

/** Starts `node args` in the project and resolves with the first MCP URL it prints on stderr. */
async function startServer(args: readonly string[], cwd = project): Promise<string> {
  await stopServers();
  const child = spawn(process.execPath, [...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  servers.push(child);
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stderr.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const url = /(https?:\/\/[^\s]+\/mcp)\b/.exec(seen);
      if (url?.[1] !== undefined) resolve(url[1]);
    });
    child.on('exit', (code) => reject(new Error(`exited ${code} before printing its URL:\n${seen}`)));
  });
}

async function listTools(url: string): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { result: unknown }).result;
}

/** Spawns `node args`, sends `initialize` on its stdin, and resolves with the revision it answered. */
async function initializeOverStdio(args: readonly string[]): Promise<string | undefined> {
  const child = spawn(process.execPath, [...args], { stdio: ['pipe', 'pipe', 'ignore'] });
  children.push(child);
  const line = new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      if (seen.includes('\n')) resolve(seen.slice(0, seen.indexOf('\n')));
    });
    child.on('exit', (code) => reject(new Error(`exited ${code} without answering`)));
  });
  child.stdin.write(
    `${JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    })}\n`,
  );
  const answer = JSON.parse(await line) as { result?: { protocolVersion?: string } };
  child.stdin.end();
  return answer.result?.protocolVersion;
}

function run(file: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [...TSX, file], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

describe('the code blocks of the README and of the docs pages it hands examples to', () => {
  test('every code block of the README says how it is run', () => {
    expect(BLOCKS.filter((block) => block.mode === 'unmarked').map((block) => block.line)).toEqual([]);
    expect(BLOCKS.filter((block) => block.page === 'README.md').length).toBeGreaterThan(5);
  });

  test('each docs page on the list has blocks that run, and no two blocks write one file', () => {
    for (const { page } of RUN_PAGES)
      expect(
        BLOCKS.some((block) => block.page === page),
        page,
      ).toBe(true);
    const written = BLOCKS.filter((block) => ['file', 'serve', 'run'].includes(block.mode)).map(
      (block) => block.args[0],
    );
    expect(written.length).toBe(new Set(written).size);
  });

  test('the TypeScript blocks type-check together', () => {
    for (const block of BLOCKS) {
      if (block.mode === 'file' || block.mode === 'serve' || block.mode === 'run') {
        writeFileSync(join(project, block.args[0] ?? ''), asRun(block.code));
      }
    }
    // The new app's package.json and tsconfig.json, as the Quick start writes them.
    for (const block of BLOCKS) {
      if (block.mode === 'app-file') writeFileSync(join(project, block.args[0] ?? ''), block.code);
    }
    expect(JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'))).toMatchObject({ type: 'module' });
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    expect(() => execFileSync(process.execPath, [tsc, '-p', project], { encoding: 'utf8' })).not.toThrow();
  });

  for (const block of BLOCKS) {
    const title = `${block.page} line ${block.line}: ${block.mode} ${block.args.join(' ')}`.trim();
    switch (block.mode) {
      case 'first-screen':
        test(`${title}: npm start serves the demo, and CI runs npm ci and npm test`, async () => {
          expect(block.code).toContain('npm ci && npm start');
          expect(block.code).toContain('npm test');
          const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8');
          expect(ci).toMatch(/^npm ci\b/m);
          expect(ci).toMatch(/^npm test\b/m);
          const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
          const child = spawn(npm, ['start', '--silent', '--', '--port', '0'], {
            cwd: ROOT,
            stdio: ['ignore', 'pipe', 'pipe'],
            detached: true,
          });
          children.push(child);
          try {
            const url = await new Promise<string>((resolve, reject) => {
              let seen = '';
              const look = (chunk: Buffer): void => {
                seen += chunk.toString('utf8');
                const found = /(http:\/\/127\.0\.0\.1:\d+\/mcp)\b/.exec(seen);
                if (found?.[1] !== undefined) resolve(found[1]);
              };
              child.stdout.on('data', look);
              child.stderr.on('data', look);
              child.on('exit', (code) => reject(new Error(`npm start exited ${code}:\n${seen}`)));
            });
            expect(JSON.stringify(await listTools(url))).toContain('"name":"echo"');
          } finally {
            if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
          }
        }, 120_000);
        break;
      case 'stdio-config':
        test(`${title}: the command it names answers initialize over stdio`, async () => {
          const config = JSON.parse(block.code.replaceAll('/path/to/palisade/', ROOT)) as {
            command: string;
            args: string[];
          };
          expect(config.command).toBe('node');
          expect(await initializeOverStdio(config.args)).toBe('2025-11-25');
        });
        break;
      case 'published-install':
        test(`${title}: it installs the packages the tarball install gives, by their published names`, () => {
          const names = block.code
            .trim()
            .replace(/^npm install /, '')
            .split(/\s+/);
          const installed = BLOCKS.filter((other) => other.mode === 'app-install')
            .map((other) => other.code)
            .join(' ');
          const tarball = /palisade-packs\/(\S+)-\d+\.\d+\.\d+\.tgz/.exec(installed)?.[1];
          const own = JSON.parse(readFileSync(join(ROOT, 'packages/palisade-mcp/package.json'), 'utf8')) as {
            name: string;
          };
          expect(tarball).toBe(own.name);
          for (const name of names) {
            expect(name === own.name || installed.split(/\s+/).includes(name), name).toBe(true);
          }
        });
        break;
      case 'pack':
      case 'app-install':
      case 'app-file':
        break; // run in an empty folder by quick-start.test.ts; the app files are written above
      case 'palisade-cli':
        test(`${title}: each command serves the demo`, async () => {
          const lines = block.code
            .split('\n')
            .map((line) => line.replace(/#.*$/, '').trim())
            .filter((line) => line !== '');
          expect(lines.length).toBeGreaterThan(0);
          for (const line of lines) {
            const args = line.replace(/^npx( -p \S+)+ palisade /, '').split(/\s+/);
            expect(line, 'an npx line running the palisade bin').not.toBe(args.join(' '));
            const bin = join(ROOT, 'packages/palisade-mcp/dist/cli/main.js');
            if (args.includes('--stdio')) {
              expect(await initializeOverStdio([bin, ...args])).toBe('2025-11-25');
            } else {
              const url = await startServer([bin, ...args, '--port', '0'], ROOT);
              expect(JSON.stringify(await listTools(url))).toContain('"name":"echo"');
            }
          }
        }, 60_000);
        break;
      case 'file':
        break; // written and type-checked above, run by the blocks that import it
      case 'serve':
        test(`${title}: it serves, and tools/list is answered`, async () => {
          const url = await startServer([...TSX, block.args[0] ?? '']);
          const result = (await listTools(url)) as { tools: unknown[] };
          expect(result.tools.length).toBeGreaterThan(0);
        }, 60_000);
        break;
      case 'run':
        test(`${title}: it runs to exit 0 and prints ${block.args[1]}`, async () => {
          const outcome = await run(block.args[0] ?? '');
          expect(outcome.code, outcome.stderr).toBe(0);
          expect(outcome.stdout).toContain(block.args[1] ?? '');
        }, 60_000);
        break;
      default:
        test(`${title}: the mode is one this test knows`, () => {
          expect.fail(`unknown readme-test mode ${block.mode}`);
        });
    }
  }

  test('the Express block, with its port already taken, fails naming EADDRINUSE and prints no URL', async () => {
    const express = BLOCKS.find((block) => block.mode === 'serve' && block.args[0] === 'express.ts');
    expect(express?.code).toContain('3000');
    const taken = createNetServer().listen(0, '127.0.0.1');
    await once(taken, 'listening');
    try {
      const port = (taken.address() as AddressInfo).port;
      writeFileSync(join(project, 'express-busy.ts'), (express?.code ?? '').replaceAll('3000', String(port)));
      const outcome = await run('express-busy.ts');
      expect(outcome.code).not.toBe(0);
      expect(outcome.stderr).toContain('EADDRINUSE');
      expect(outcome.stderr).not.toContain('MCP server at');
    } finally {
      taken.close();
    }
  }, 60_000);
});
