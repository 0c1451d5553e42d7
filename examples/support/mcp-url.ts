/**
 * Starts an example (or the demo) as its header says and resolves once it prints its MCP URL on
 * stdout or stderr, the one way every example tells its caller where it listens.
 */
import { type ChildProcess, spawn } from 'node:child_process';

export interface Started {
  readonly child: ChildProcess;
  readonly url: URL;
  /** Everything printed on stdout and stderr up to and including the URL. */
  readonly printed: string;
}

export function startPrintingUrl(
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<Started> {
  const child = spawn(process.execPath, [...args], { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let seen = '';
    const look = (chunk: Buffer): void => {
      seen += chunk.toString('utf8');
      const found = /(http:\/\/127\.0\.0\.1:\d+\/mcp)\b/.exec(seen);
      if (found?.[1] !== undefined) resolve({ child, url: new URL(found[1]), printed: seen });
    };
    child.stdout.on('data', look);
    child.stderr.on('data', look);
    child.on('exit', (code) => reject(new Error(`exited ${code} before printing its URL: ${seen}`)));
  });
}
