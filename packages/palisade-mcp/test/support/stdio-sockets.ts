/**
 * Runs the stdio transport in this process over real kernel pipes: two connections on a unix
 * domain socket, one standing for stdin (the test writes, the transport reads) and one for stdout
 * (the transport writes, the test reads), with exact bytes both ways. In this process, so that
 * mutation testing can see which test reaches which line (a spawned server hides that); the
 * spawned tests in test/transports/stdio.test.ts stay the end-to-end guarantee.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from '../../src/index.js';
import { type StdioHandle, type StdioOptions, serveStdio } from '../../src/transports/stdio.js';

/** Both ends of one unix-socket connection: `near` is the test's, `far` is handed to the transport. */
export async function connectedPair(): Promise<{ near: Socket; far: Socket }> {
  const dir = mkdtempSync(join(tmpdir(), 'palisade-stdio-'));
  const path = join(dir, 'pipe.sock');
  const listener = createServer();
  await new Promise<void>((resolve) => listener.listen(path, resolve));
  const accepted = new Promise<Socket>((resolve) => listener.once('connection', resolve));
  const near = connect(path);
  await new Promise<void>((resolve) => near.once('connect', resolve));
  const far = await accepted;
  listener.close();
  rmSync(dir, { recursive: true, force: true });
  return { near, far };
}

export class SocketPeer {
  /** Every byte the transport wrote so far, in order. */
  received = Buffer.alloc(0);
  private read = 0;
  private readonly waiters: Array<() => void> = [];

  constructor(
    /** The test's end of "stdin". */
    readonly stdin: Socket,
    /** The test's end of "stdout". */
    readonly stdout: Socket,
    /** The transport's ends. */
    readonly input: Socket,
    readonly output: Socket,
    readonly handle: StdioHandle,
  ) {
    stdout.on('data', (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  send(bytes: string | Uint8Array): void {
    this.stdin.write(bytes);
  }

  sendJson(message: unknown): void {
    this.send(`${JSON.stringify(message)}\n`);
  }

  /** Ends "stdin" and waits for the transport to settle `closed`. */
  async end(): Promise<void> {
    this.stdin.end();
    await this.handle.closed;
  }

  /** Waits until at least `count` bytes beyond those already taken have arrived. */
  async waitForBytes(count: number, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length - this.read < count) {
      const remaining = deadline - Date.now();
      if (remaining <= 0)
        throw new Error(
          `waited for ${count} bytes, have ${this.received.length - this.read}: ${this.unread()}`,
        );
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The next `count` bytes, exactly. */
  async take(count: number): Promise<string> {
    await this.waitForBytes(count);
    const text = this.received.subarray(this.read, this.read + count).toString('utf8');
    this.read += count;
    return text;
  }

  /** The next line, its newline included. */
  async nextLine(timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const newline = this.received.indexOf(0x0a, this.read);
      if (newline !== -1) return this.take(newline + 1 - this.read);
      await this.waitForBytes(this.received.length - this.read + 1, Math.max(1, deadline - Date.now()));
    }
  }

  async nextMessage(): Promise<Record<string, unknown>> {
    return JSON.parse(await this.nextLine()) as Record<string, unknown>;
  }

  /** What has arrived and was not taken yet. */
  unread(): string {
    return this.received.subarray(this.read).toString('utf8');
  }

  destroy(): void {
    for (const socket of [this.stdin, this.stdout, this.input, this.output]) socket.destroy();
  }
}

/** Starts the transport over two fresh socket connections (`exitOnClose` left to its default: false, the input not being process.stdin). */
export async function runOverSockets(
  server: Server,
  options: Omit<StdioOptions, 'input' | 'output'> = {},
): Promise<SocketPeer> {
  const stdin = await connectedPair();
  const stdout = await connectedPair();
  const handle = serveStdio(server, { ...options, input: stdin.far, output: stdout.far });
  return new SocketPeer(stdin.near, stdout.near, stdin.far, stdout.far, handle);
}
