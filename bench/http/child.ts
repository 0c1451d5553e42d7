/**
 * Parent side of a bench child process: fork it under tsx with `--expose-gc`, then exchange one
 * IPC message at a time with it. Used for the servers and for the dripper.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

export class Child<Out extends { type: string }, In extends { type: string }> {
  private constructor(readonly process: ChildProcess) {}

  /** Forks `file` (beside this one) and waits for its first message, of type `ready`. */
  static async fork<O extends { type: string }, I extends { type: string }>(
    file: string,
    args: readonly string[],
  ): Promise<{ child: Child<O, I>; ready: I }> {
    const child = fork(fileURLToPath(new URL(file, import.meta.url)), args, {
      execArgv: [
        '--import',
        'tsx',
        '--expose-gc',
        ...(process.env['BENCH_CHILD_FLAGS']?.split(' ').filter(Boolean) ?? []),
      ],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const handle = new Child<O, I>(child);
    const ready = await handle.next();
    if (ready.type !== 'ready') throw new Error(`${file}: expected ready, got ${ready.type}`);
    return { child: handle, ready };
  }

  /** The next message from the child; rejects if it exits first. */
  next(): Promise<In> {
    return new Promise((resolve, reject) => {
      const onMessage = (message: In): void => {
        this.process.off('exit', onExit);
        resolve(message);
      };
      const onExit = (code: number | null): void => {
        this.process.off('message', onMessage);
        reject(new Error(`child exited with ${String(code)}`));
      };
      this.process.once('message', onMessage);
      this.process.once('exit', onExit);
    });
  }

  async ask(message: Out): Promise<In> {
    const answer = this.next();
    this.process.send(message);
    return answer;
  }

  /** Asks the child to close, then makes sure it is gone. */
  async stop(message: Out): Promise<void> {
    if (this.process.exitCode !== null || this.process.signalCode !== null) return;
    const exited = once(this.process, 'exit');
    this.process.send(message);
    const timer = setTimeout(() => this.process.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}
