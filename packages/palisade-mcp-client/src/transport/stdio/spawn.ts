/**
 * Starting a stdio server: the command resolved to an absolute path before anything runs (a
 * relative name is looked up on the PATH the child will get, never through a shell), the working
 * directory and environment explicit, and the parent's environment passed on only when the host
 * asks. By default the child gets the variables a program needs to run (PATH, HOME, locale,
 * temp and TLS trust paths, the user's name) and the ones the host names.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { ClientError } from '../../errors.js';

/** What a child gets from the parent by default: enough to run, nothing the host keeps secret. */
export const BASE_ENVIRONMENT: readonly string[] = Object.freeze([
  'HOME',
  'LANG',
  'LC_ALL',
  'LOGNAME',
  'PATH',
  'SHELL',
  'SSL_CERT_DIR',
  'SSL_CERT_FILE',
  'NODE_EXTRA_CA_CERTS',
  'SYSTEMROOT',
  'TEMP',
  'TMP',
  'TMPDIR',
  'TZ',
  'USER',
]);

function executable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The absolute path `command` names: itself, relative to `cwd`, or found on `path`. */
export function resolveCommand(command: string, cwd: string, path: string | undefined): string {
  if (command.length === 0 || command.includes('\0')) {
    throw new ClientError('PALISADE_CLIENT_ERR_SPAWN', 'the command is empty or holds a NUL');
  }
  if (isAbsolute(command) || command.includes('/') || command.includes('\\')) {
    const full = resolve(cwd, command);
    if (executable(full)) return full;
    throw new ClientError('PALISADE_CLIENT_ERR_SPAWN', 'the command is not an executable file', {
      rule: 'not-found',
    });
  }
  for (const folder of (path ?? '').split(delimiter)) {
    if (folder === '' || !isAbsolute(folder)) continue; // a relative PATH entry would depend on cwd
    const full = join(folder, command);
    if (executable(full)) return full;
  }
  throw new ClientError(
    'PALISADE_CLIENT_ERR_SPAWN',
    'the command was not found on the PATH the server gets',
    {
      rule: 'not-found',
    },
  );
}

export interface SpawnPlan {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly stderr: 'inherit' | 'ignore' | 'pipe';
}

export function environment(
  explicit: Readonly<Record<string, string | false>>,
  inherit: boolean,
  parent: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parent)) {
    if (value === undefined) continue;
    if (inherit || BASE_ENVIRONMENT.includes(name)) env[name] = value;
  }
  for (const [name, value] of Object.entries(explicit)) {
    if (value === false) delete env[name];
    else env[name] = value;
  }
  return env;
}

export function spawnServer(plan: SpawnPlan): ChildProcess {
  const file = resolveCommand(plan.command, plan.cwd, plan.env['PATH']);
  return spawn(file, [...plan.args], {
    cwd: plan.cwd,
    env: plan.env,
    stdio: ['pipe', 'pipe', plan.stderr],
    shell: false,
    windowsHide: true,
  });
}
