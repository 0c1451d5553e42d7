/**
 * `palisade demo`, through the built CLI in a child process: the workspace's `palisade-demo` is
 * loaded on demand and called over a real socket and a real pipe; a copy of the built package in
 * a scratch directory, where `palisade-demo` cannot be resolved, shows the refusal when it is absent.
 */
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, test } from 'vitest';

const PACKAGE = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(PACKAGE, 'dist/cli/main.js');
const USAGE = spawnSync(process.execPath, [CLI, 'demo', '--help'], { encoding: 'utf8' }).stdout;

const scratch = mkdtempSync(join(tmpdir(), 'palisade-cli-demo-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

function start(...args: string[]): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, [CLI, 'demo', ...args]);
  children.push(child);
  return child;
}

/** Collects a stream's text from now on. */
function collect(stream: NodeJS.ReadableStream): { text: string } {
  const seen = { text: '' };
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    seen.text += chunk;
  });
  return seen;
}

/** The URL the demo prints on stderr once it listens, in `mode`. */
function servedUrl(
  child: ChildProcessWithoutNullStreams,
  mode: 'stateless' | 'sessions on' = 'stateless',
): Promise<string> {
  const stderr = collect(child.stderr);
  const banner = new RegExp(
    `^palisade demo: serving MCP \\(Streamable HTTP, ${mode}\\) at (http://\\S+/mcp)$`,
    'm',
  );
  return new Promise((resolve, reject) => {
    child.stderr.on('data', () => {
      const found = banner.exec(stderr.text);
      if (found) resolve(found[1]!);
    });
    child.once('exit', (code) =>
      reject(new Error(`the demo exited (${code}) before serving: ${stderr.text}`)),
    );
  });
}

function exited(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return child.exitCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

function post(url: string, body: unknown): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify(body),
  });
}

describe('palisade demo over HTTP', () => {
  test('demo --port 0 prints the URL it bound on stderr and serves the demo catalog there', async () => {
    const child = start('--port', '0');
    const stdout = collect(child.stdout);
    const url = await servedUrl(child);
    const response = await post(url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'add', arguments: { a: 2, b: 3 } },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { content: [{ type: 'text', text: '{"sum":5}' }], structuredContent: { sum: 5 } },
    });
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
    // Diagnostics only on stderr: stdout stays empty in HTTP mode.
    expect(stdout.text).toBe('');
  });

  test('a port already in use exits 1 with one line naming EADDRINUSE', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const child = start('--port', String(port));
      const stderr = collect(child.stderr);
      expect(await exited(child)).toBe(1);
      expect(stderr.text).toBe(
        `palisade demo: cannot serve: EADDRINUSE: port ${port} is in use; pass --port with another one (0 picks a free port)\n`,
      );
    } finally {
      blocker.close();
    }
  });

  test('bound to 0.0.0.0, it prints a URL a client can use and says it listens on every interface', async () => {
    const child = start('--host', '0.0.0.0', '--allowed-host', '127.0.0.1', '--port', '0');
    const stderr = collect(child.stderr);
    const url = await servedUrl(child);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(stderr.text).toContain('Bound to 0.0.0.0: listening on every interface of this machine.');
    const response = await post(url, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(response.status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
  });

  test('demo --sessions keeps sessions: initialize issues Mcp-Session-Id and a GET opens the session stream', async () => {
    expect(USAGE).toContain('--sessions');
    const child = start('--port', '0', '--sessions');
    const url = await servedUrl(child, 'sessions on');
    const initialized = await post(url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
    });
    expect(initialized.status).toBe(200);
    const id = initialized.headers.get('mcp-session-id');
    expect(id).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const stream = await fetch(url, {
      headers: {
        accept: 'text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        'mcp-session-id': id as string,
      },
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    await stream.body?.cancel();
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
  });

  test('without --sessions a GET is 405: the demo is stateless by default', async () => {
    const child = start('--port', '0');
    const url = await servedUrl(child);
    const stream = await fetch(url, { headers: { accept: 'text/event-stream' } });
    expect(stream.status).toBe(405);
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
  });

  test('binding an address that is not loopback without --allowed-host exits 1 under the option code', async () => {
    const child = start('--host', '0.0.0.0', '--port', '0');
    const stderr = collect(child.stderr);
    expect(await exited(child)).toBe(1);
    expect(stderr.text).toMatch(/^palisade demo: cannot serve: PALISADE_ERR_INVALID_OPTION: .*allowedHosts/);
  });
});

describe('palisade demo over stdio', () => {
  test('demo --stdio answers a request over a real pipe with protocol bytes only on stdout, and exits 0 when stdin ends', async () => {
    const child = start('--stdio');
    const stdout = collect(child.stdout);
    const stderr = collect(child.stderr);
    const messages = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'test', version: '1' },
        },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'add', arguments: { a: 4, b: 5 } } },
    ];
    child.stdin.end(messages.map((message) => `${JSON.stringify(message)}\n`).join(''));
    expect(await exited(child)).toBe(0);
    const lines = stdout.text.split('\n');
    expect(lines.pop()).toBe('');
    const [initialized, called, ...rest] = lines.map((line) => JSON.parse(line));
    expect(initialized.result.serverInfo.name).toBe('palisade-demo');
    expect(called).toEqual({
      jsonrpc: '2.0',
      id: 7,
      result: { content: [{ type: 'text', text: '{"sum":9}' }], structuredContent: { sum: 9 } },
    });
    expect(rest).toEqual([]);
    expect(stderr.text).toBe('palisade demo: serving MCP over stdio; the demo exits when stdin ends\n');
  });
});

describe('palisade demo: usage', () => {
  test('an HTTP-only flag with --stdio is a usage error, not silently ignored', () => {
    const r = spawnSync(process.execPath, [CLI, 'demo', '--stdio', '--port', '8080'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`palisade demo: --port applies to HTTP only, not with --stdio\n\n${USAGE}`);
  });

  test('--sessions with --stdio is a usage error: a stdio connection is its own session', () => {
    const r = spawnSync(process.execPath, [CLI, 'demo', '--stdio', '--sessions'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`palisade demo: --sessions applies to HTTP only, not with --stdio\n\n${USAGE}`);
  });

  test('a port outside 0 to 65535 is a usage error', () => {
    const r = spawnSync(process.execPath, [CLI, 'demo', '--port', '65536'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      `palisade demo: --port must be an integer from 0 to 65535, got "65536"\n\n${USAGE}`,
    );
  });
});

describe('palisade demo without palisade-demo installed', () => {
  test('the command is refused by name with exit code 1 and the npx command that runs it', () => {
    // The built package alone, where no node_modules above it holds palisade-demo.
    const isolated = join(scratch, 'isolated', 'palisade-mcp');
    cpSync(join(PACKAGE, 'dist'), join(isolated, 'dist'), { recursive: true });
    cpSync(join(PACKAGE, 'package.json'), join(isolated, 'package.json'));
    const r = spawnSync(process.execPath, [join(isolated, 'dist/cli/main.js'), 'demo', '--port', '0'], {
      encoding: 'utf8',
      cwd: scratch,
    });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'palisade demo: cannot serve: PALISADE_ERR_CLI_DEMO_MISSING: the demo catalog is in the package palisade-demo, which is not installed; run npx -p palisade-mcp -p palisade-demo palisade demo, or install it beside palisade-mcp (npm install palisade-demo)\n',
    );
  });
});
