/**
 * Drives the MCP Inspector's command-line client, `mcpdo` (from `@modelcontextprotocol/inspector`),
 * as a real process: one `mcpdo` run per command, JSON out. mcpdo keeps its connections in a
 * background daemon, so each driver owns a private directory (HOME, the daemon's socket dir, the
 * secrets file, the server config): a test never meets a user's daemon, and `stop()` ends its own
 * daemon and waits until the daemon and the stdio servers it spawned have exited.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The bin the package declares; the workspace hoists it to the root node_modules. */
const MCPDO = fileURLToPath(
  new URL(
    '../../../node_modules/@modelcontextprotocol/inspector/clients/mcpdo/build/mcp-bin.js',
    import.meta.url,
  ),
);

/** A server entry of mcpdo's config file (the `mcpServers` shape). */
export type ServerEntry =
  | { readonly command: string; readonly args: readonly string[] }
  | { readonly type: 'streamable-http'; readonly url: string };

/** The protocol eras mcpdo's `connect --era` accepts; it defaults to legacy. */
export type Era = 'legacy' | 'auto' | 'modern';

/**
 * A failed mcpdo run: its exit code, the `{error: {code, message}}` it wrote to stderr, and its
 * stdout (a tool result with `isError: true` is printed there, then mcpdo exits 5).
 */
export class McpdoError extends Error {
  constructor(
    readonly exitCode: number,
    readonly errorCode: string,
    message: string,
    readonly stdout: string,
  ) {
    super(message);
  }
}

export interface Connection {
  readonly protocolVersion: string;
  readonly protocolEra: string;
  readonly serverInfo: { readonly name: string };
}

export interface Mcpdo {
  /** Connects the config entry `name` (a connection of the same name) and shows what it negotiated. */
  connect(name: string, era?: Era): Promise<Connection>;
  /** Runs `mcpdo @connection <command...> --format json` and parses its stdout. */
  on(connection: string, ...command: string[]): Promise<Record<string, unknown>>;
  /** Stops the daemon, waits for it and its children to exit, and removes the private directory. */
  stop(): Promise<void>;
}

/** Starts nothing yet: the daemon starts on the first connect, inside a fresh private directory. */
export async function createMcpdo(servers: Record<string, ServerEntry>): Promise<Mcpdo> {
  const home = await mkdtemp(join(tmpdir(), 'palisade-mcpdo-'));
  const config = join(home, 'servers.json');
  await writeFile(config, JSON.stringify({ mcpServers: servers }));
  const env = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_RUNTIME_DIR: join(home, 'run'),
    // Without this mcpdo puts its daemon under /tmp/mcp-conn-<uid>, shared by every shell of the user.
    MCP_INSPECTOR_DAEMON_DIR: join(home, 'daemon'),
    // No keychain on a test machine; naming the store quiets the fallback notice.
    MCP_INSPECTOR_SECRET_STORE: 'file',
  };

  async function mcpdo(...args: string[]): Promise<Record<string, unknown>> {
    try {
      const { stdout } = await run(process.execPath, [MCPDO, ...args, '--format', 'json'], {
        env,
        // A bound on a hung command, not a speed check: each run starts the Inspector CLI in a
        // Node of its own, and a walk runs seven side by side. At 20 s one was cut on a 2-core
        // machine at a load average of 14, on Node 22 and on 20 (2026-12-01); the test's own
        // limit, MCPDO_TEST_MS, is 60 s.
        timeout: 45_000,
      });
      return JSON.parse(stdout) as Record<string, unknown>;
    } catch (caught) {
      const failure = caught as { code?: number; stderr?: string; stdout?: string };
      const found = /\{"error":\{.*\}\}/.exec(failure.stderr ?? '');
      if (typeof failure.code !== 'number' || found === null) throw caught;
      const { error } = JSON.parse(found[0]) as { error: { code: string; message: string } };
      throw new McpdoError(failure.code, error.code, error.message, failure.stdout ?? '');
    }
  }

  return {
    async connect(name, era) {
      await mcpdo('connect', name, '--config', config, ...(era === undefined ? [] : ['--era', era]));
      return (await mcpdo('connections/show', `@${name}`)) as unknown as Connection;
    },
    on: (connection, ...command) => mcpdo(`@${connection}`, ...command),
    async stop() {
      const pid = await daemonPid(home);
      const left: number[] = [];
      if (pid !== undefined) {
        const children = await childrenOf(pid);
        await mcpdo('daemon', 'stop');
        for (const each of [pid, ...children]) if (!(await exited(each))) left.push(each);
      }
      await rm(home, { recursive: true, force: true });
      if (left.length > 0)
        throw new Error(`mcpdo left ${left.join(', ')} running after daemon stop (killed)`);
    },
  };
}

/** The daemon's pid from its lock file, or undefined when no daemon was ever started. */
async function daemonPid(home: string): Promise<number | undefined> {
  const lock = await readFile(join(home, 'daemon', 'mcpdod.lock'), 'utf8').catch(() => undefined);
  const pid = Number.parseInt(lock ?? '', 10);
  return Number.isInteger(pid) ? pid : undefined;
}

async function childrenOf(pid: number): Promise<number[]> {
  const { stdout } = await run('ps', ['-o', 'pid=', '--ppid', String(pid)]).catch(() => ({ stdout: '' }));
  return stdout
    .split('\n')
    .map((line) => Number.parseInt(line, 10))
    .filter(Number.isInteger);
}

/** Waits up to 10 s for a process to be gone (or a zombie awaiting its reaper); else kills it. */
async function exited(pid: number): Promise<boolean> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const state = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
    if (state === undefined || /\) Z /.test(state)) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  process.kill(pid, 'SIGKILL');
  return false;
}
