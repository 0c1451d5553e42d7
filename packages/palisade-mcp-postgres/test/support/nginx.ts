/**
 * nginx in front of the test's processes, configured by docs/deploy.md's nginx block read
 * verbatim from the page; the test writes only the two files that block includes (its upstream
 * `server` lines and its `listen` line). nginx is Debian's package, installed by .ci/run; where it
 * is missing `findNginx()` answers undefined and the tests say NOT RUN.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './embedded-postgres.js';

const DEPLOY_PAGE = fileURLToPath(new URL('../../../../docs/deploy.md', import.meta.url));

export function findNginx(): string | undefined {
  for (const candidate of ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx'])
    if (existsSync(candidate)) return candidate;
  try {
    return execFileSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The page's one ```nginx block, exactly as written. */
export async function deployConfig(): Promise<string> {
  const page = await readFile(DEPLOY_PAGE, 'utf8');
  const blocks = [...page.matchAll(/```nginx\n([\s\S]*?)```/g)];
  if (blocks.length !== 1)
    throw new Error(`docs/deploy.md must hold exactly one nginx block, found ${blocks.length}`);
  return blocks[0]?.[1] as string;
}

export interface RunningNginx {
  readonly port: number;
  /** The master process. */
  readonly pid: number;
  stop(): Promise<void>;
}

export async function startNginx(binary: string, upstreamPorts: readonly number[]): Promise<RunningNginx> {
  const dir = await mkdtemp(join(tmpdir(), 'palisade-nginx-'));
  // Worker processes may run as another user: they must reach the temp paths.
  await chmod(dir, 0o777);
  const port = await freePort();
  await writeFile(
    join(dir, 'palisade-upstreams.conf'),
    upstreamPorts.map((one) => `server 127.0.0.1:${one} max_fails=1 fail_timeout=5s;\n`).join(''),
  );
  await writeFile(join(dir, 'palisade-listen.conf'), `listen 127.0.0.1:${port};\n`);
  await writeFile(join(dir, 'palisade.conf'), await deployConfig());
  await writeFile(
    join(dir, 'nginx.conf'),
    [
      'worker_processes 1;',
      `pid ${join(dir, 'nginx.pid')};`,
      `error_log ${join(dir, 'error.log')} warn;`,
      'events { worker_connections 1024; }',
      'http {',
      '  access_log off;',
      `  client_body_temp_path ${join(dir, 'body')};`,
      `  proxy_temp_path ${join(dir, 'proxy')};`,
      `  fastcgi_temp_path ${join(dir, 'fastcgi')};`,
      `  uwsgi_temp_path ${join(dir, 'uwsgi')};`,
      `  scgi_temp_path ${join(dir, 'scgi')};`,
      `  include ${join(dir, 'palisade.conf')};`,
      '}',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(binary, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Ready once it accepts on its port.
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${errors}`);
    const up = await fetch(`http://127.0.0.1:${port}/`).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`nginx did not start: ${errors}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    port,
    pid: child.pid as number,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
