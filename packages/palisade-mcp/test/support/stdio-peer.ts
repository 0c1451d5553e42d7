/**
 * A real peer for stdio tests: spawns a fixture server as a child process and talks to it over
 * its real stdin and stdout pipes, with exact bytes. Nothing here calls Palisade's internals.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { bundledFixture } from './fixture-bundles.js';

export type Json = Record<string, unknown>;

export class StdioPeer {
  private buffered = Buffer.alloc(0);
  private readonly waiters: Array<() => void> = [];
  stderr = '';
  readonly exited: Promise<number | null>;

  constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.on('data', (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      for (const wake of this.waiters.splice(0)) wake();
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      this.stderr += text;
    });
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    child.stdout.once('end', () => {
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  /** Writes bytes exactly as given. */
  send(bytes: string | Uint8Array): void {
    this.child.stdin.write(bytes);
  }

  sendJson(message: unknown): void {
    this.send(`${JSON.stringify(message)}\n`);
  }

  /** The next raw line of stdout, without its newline. */
  async nextLine(timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const newline = this.buffered.indexOf(0x0a);
      if (newline !== -1) {
        const line = this.buffered.subarray(0, newline).toString('utf8');
        this.buffered = this.buffered.subarray(newline + 1);
        return line;
      }
      if (this.child.stdout.readableEnded) throw new Error('stdout ended');
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`no line within ${timeoutMs} ms; stderr: ${this.stderr}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Raw bytes of stdout received so far and not yet read as lines. */
  get pending(): Buffer {
    return this.buffered;
  }

  async nextMessage(timeoutMs?: number): Promise<Json> {
    return JSON.parse(await this.nextLine(timeoutMs)) as Json;
  }

  /** Sends a request and returns the next message, which for a lone request is its response. */
  async request(message: Json): Promise<Json> {
    this.sendJson(message);
    return this.nextMessage();
  }

  /** Closes stdin and waits for the process to exit. */
  async close(): Promise<number | null> {
    this.child.stdin.end();
    return this.exited;
  }

  kill(): void {
    this.child.kill('SIGKILL');
  }
}

/** Starts `test/fixtures/serve-stdio.ts` with the named fixture catalog. */
export function startStdioServer(catalog = 'basic', extraArgs: readonly string[] = []): StdioPeer {
  const child = spawn(process.execPath, [bundledFixture('serve-stdio'), catalog, ...extraArgs], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  return new StdioPeer(child);
}

export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
} as const;

/** A 2026-07-28 request with the required `_meta`. */
export function modern(id: number | string, method: string, params: Json = {}): Json {
  const meta = { ...MODERN_META, ...((params['_meta'] as Json | undefined) ?? {}) };
  return { jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } };
}

export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
} as const;
