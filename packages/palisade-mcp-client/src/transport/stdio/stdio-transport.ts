/**
 * The stdio transport: the client starts the server as a child process (spawn.ts), writes one
 * message per line to its stdin, reads its stdout through the bounded framer, hands its stderr
 * to the host, and ends it with a grace: stdin closed, then SIGTERM, then SIGKILL. The URIs of
 * `resources/*` requests and of `resources/list` answers pass the trust boundary
 * (trust/resource-uris.ts): an http(s) URI on an undeclared origin, or a `file:` URI unless
 * `file://` is declared, needs consent, and by default is refused.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { ClientError, invalidOption } from '../../errors.js';
import { STDIO_CLOSE_GRACE_MS } from '../../limits.js';
import { checkObject, isPlainObject, optionalBoolean, positiveInteger, stringList } from '../../options.js';
import type { TrustBoundary } from '../../trust/boundary.js';
import { checkUri, refusedUris } from '../../trust/resource-uris.js';
import { readTrust, TRUST_KEYS, type TrustOptions } from '../../trust/trust-options.js';
import type { SendContext, Transport, TransportSink } from '../types.js';
import { environment, spawnServer } from './spawn.js';
import { StreamChannel } from './stream-channel.js';

export interface StdioTransportOptions extends TrustOptions {
  /** The server program: an absolute path, a path relative to `cwd`, or a name looked up on the child's PATH. */
  readonly command: string;
  readonly args?: readonly string[];
  /** The child's working directory. Default: this process's. */
  readonly cwd?: string;
  /** Variables for the child; `false` removes one it would otherwise get. */
  readonly env?: Readonly<Record<string, string | false>>;
  /** Pass this process's whole environment on. Default false: only BASE_ENVIRONMENT and `env`. */
  readonly inheritEnv?: boolean;
  /** The child's stderr: to this process's stderr (default), dropped, or each line to a function. */
  readonly stderr?: 'inherit' | 'ignore' | ((line: string) => void);
  /** Default 2,000 ms: after stdin closes, and again after SIGTERM. */
  readonly closeGraceMs?: number;
}

const KEYS = [
  ...TRUST_KEYS,
  'command',
  'args',
  'cwd',
  'env',
  'inheritEnv',
  'stderr',
  'closeGraceMs',
] as const;
const MAX_STDERR_LINE = 65_536;

export class StdioTransport implements Transport {
  readonly kind = 'stdio' as const;
  readonly #options: StdioTransportOptions;
  readonly #boundary: TrustBoundary;
  readonly #grace: number;
  #child: ChildProcess | undefined;
  #channel: StreamChannel | undefined;

  constructor(options: StdioTransportOptions) {
    const opts = checkObject(options, '', KEYS);
    if (typeof opts['command'] !== 'string') throw invalidOption('command', 'must be a string');
    stringList(opts['args'], 'args');
    if (opts['cwd'] !== undefined && typeof opts['cwd'] !== 'string')
      throw invalidOption('cwd', 'must be a string');
    const env = opts['env'];
    if (
      env !== undefined &&
      (!isPlainObject(env) || Object.values(env).some((v) => typeof v !== 'string' && v !== false))
    ) {
      throw invalidOption('env', 'must map names to strings, or to false to remove one');
    }
    optionalBoolean(opts['inheritEnv'], 'inheritEnv');
    const stderr = opts['stderr'];
    if (stderr !== undefined && stderr !== 'inherit' && stderr !== 'ignore' && typeof stderr !== 'function') {
      throw invalidOption('stderr', "must be 'inherit', 'ignore' or a function");
    }
    this.#grace = positiveInteger(opts['closeGraceMs'], 'closeGraceMs', STDIO_CLOSE_GRACE_MS, 600_000);
    this.#boundary = readTrust(opts).boundary;
    this.#options = options;
  }

  /** The child's process id, once started. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  async start(sink: TransportSink): Promise<void> {
    const o = this.#options;
    const stderr = o.stderr ?? 'inherit';
    const child = spawnServer({
      command: o.command,
      args: o.args ?? [],
      cwd: o.cwd ?? process.cwd(),
      env: environment(o.env ?? {}, o.inheritEnv === true),
      stderr: typeof stderr === 'function' ? 'pipe' : stderr,
    });
    this.#child = child;
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (cause) =>
        reject(new ClientError('PALISADE_CLIENT_ERR_SPAWN', 'the server could not be started', { cause })),
      );
    });
    if (typeof stderr === 'function' && child.stderr !== null) forwardLines(child.stderr, stderr);
    const channel = new StreamChannel(
      child.stdout as NonNullable<ChildProcess['stdout']>,
      child.stdin as NonNullable<ChildProcess['stdin']>,
    );
    this.#channel = channel;
    channel.start(sink);
    child.once('exit', (code, signal) => {
      channel.end(new ClientError('PALISADE_CLIENT_ERR_CLOSED', `the server exited (${signal ?? code})`));
    });
  }

  async send(message: Readonly<Record<string, unknown>>, _context: SendContext): Promise<void> {
    const channel = this.#channel;
    if (channel === undefined)
      throw new ClientError('PALISADE_CLIENT_ERR_CLOSED', 'the transport was not started');
    await channel.send(message);
  }

  checkResourceUri(uri: string): Promise<void> {
    return checkUri(this.#boundary, uri);
  }

  refusedResourceUris(uris: readonly string[]): Promise<ReadonlySet<string>> {
    return refusedUris(this.#boundary, uris);
  }

  async close(): Promise<void> {
    const child = this.#child;
    this.#channel?.end(new ClientError('PALISADE_CLIENT_ERR_CLOSED', 'the client was closed'));
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit').then(() => true);
    const wait = (): Promise<boolean> =>
      Promise.race([
        exited,
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), this.#grace).unref()),
      ]);
    child.stdin?.end();
    if (await wait()) return;
    child.kill('SIGTERM');
    if (await wait()) return;
    child.kill('SIGKILL');
    await exited;
  }
}

function forwardLines(stream: NodeJS.ReadableStream, sink: (line: string) => void): void {
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (text: string) => {
    pending += text;
    let at = pending.indexOf('\n');
    while (at >= 0) {
      emit(pending.slice(0, at));
      pending = pending.slice(at + 1);
      at = pending.indexOf('\n');
    }
    if (pending.length > MAX_STDERR_LINE) {
      emit(pending.slice(0, MAX_STDERR_LINE));
      pending = '';
    }
  });
  stream.on('end', () => {
    if (pending !== '') emit(pending);
  });
  function emit(line: string): void {
    try {
      sink(line);
    } catch {
      // The host's stderr hook failing loses that line, not the connection.
    }
  }
}

/** A stdio transport that starts `options.command`. Options are checked here, once. */
export function stdioTransport(options: StdioTransportOptions): StdioTransport {
  return new StdioTransport(options);
}
