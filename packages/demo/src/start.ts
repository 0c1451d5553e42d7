/**
 * `startDemo(options)`: the demo catalog served over stateless Streamable HTTP or over stdio, with
 * its collector running so `connectome://observed` and `connectome://diff` have something to read.
 * Both ways in call it: this package's own `main.ts` (`npm start`) and `palisade demo`, which loads
 * this package on demand. Printing and signal handling stay with the caller, which knows its name.
 */
import type { Serving } from 'palisade-mcp/http';
import { startCollector } from 'palisade-mcp-connectome';
import { createDemoServer } from './connectome.js';

export interface DemoOptions {
  /** Serve over stdin/stdout instead of HTTP. Default false. */
  readonly stdio?: boolean;
  /** HTTP only: the port to bind; 0 picks a free one. Default 3000. */
  readonly port?: number;
  /** HTTP only: the address to bind. Default 127.0.0.1. */
  readonly host?: string;
  /** HTTP only: browser origins allowed to call. Default none (only requests without Origin). */
  readonly allowedOrigins?: readonly string[];
  /** HTTP only: Host names served; required by `serve` when `host` is not loopback. */
  readonly allowedHosts?: readonly string[];
  /**
   * HTTP only: keep sessions for the handshake revisions (docs/sessions.md), with every default:
   * a GET stream for list changes, requests to the client, cancellation. Default false (stateless).
   */
  readonly sessions?: boolean;
}

export interface HttpDemo {
  readonly transport: 'http';
  /** The MCP endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: string;
  /** Stops accepting, ends open connections, stops the collector; resolves once the port is free. */
  close(): Promise<void>;
}

export interface StdioDemo {
  readonly transport: 'stdio';
  /** Settles once stdin has ended and output was flushed (the process then exits). */
  readonly closed: Promise<void>;
}

export type RunningDemo = HttpDemo | StdioDemo;

const DEMO_KEYS: readonly string[] = ['stdio', 'port', 'host', 'allowedOrigins', 'allowedHosts', 'sessions'];
const HTTP_ONLY_KEYS: readonly string[] = ['port', 'host', 'allowedOrigins', 'allowedHosts', 'sessions'];

/** Thrown for options this function refuses itself; `serve` refuses the rest with its own code. */
export class DemoOptionError extends Error {
  readonly code = 'PALISADE_DEMO_ERR_OPTION';
}

/**
 * Starts the demo. Resolves once it serves; rejects when the options are refused or the port
 * cannot be bound (`EADDRINUSE` and the like, as Node reports them). One demo per process: the
 * collector it starts is the process's one collector.
 */
export function startDemo(options: DemoOptions & { readonly stdio: true }): Promise<StdioDemo>;
export function startDemo(options?: DemoOptions & { readonly stdio?: false }): Promise<HttpDemo>;
export function startDemo(options?: DemoOptions): Promise<RunningDemo>;
export async function startDemo(options: DemoOptions = {}): Promise<RunningDemo> {
  for (const key of Object.keys(options)) {
    if (!DEMO_KEYS.includes(key)) throw new DemoOptionError(`unknown option ${JSON.stringify(key)}`);
  }
  if (options.stdio === true) {
    // Silently ignoring --port with --stdio would let a user believe a port is open.
    const stray = HTTP_ONLY_KEYS.find((key) => (options as Record<string, unknown>)[key] !== undefined);
    if (stray !== undefined)
      throw new DemoOptionError(`option ${JSON.stringify(stray)} applies to HTTP only`);
  }
  const server = createDemoServer();
  // Watching from before the first request can arrive, so the observed graph misses none.
  const collector = startCollector();
  // Each transport is loaded only when it serves: a client spawning the demo over stdio, once per
  // session, does not wait for the HTTP modules (docs/benchmarks.md, cold start).
  if (options.stdio === true) {
    const { serveStdio } = await import('palisade-mcp/stdio');
    return { transport: 'stdio', closed: serveStdio(server).closed };
  }
  let serving: Serving;
  try {
    const { serve } = await import('palisade-mcp/http');
    serving = await serve(server, {
      port: options.port ?? 3000,
      host: options.host ?? '127.0.0.1',
      // The demo admits every caller that reaches it; a real host checks credentials here.
      authorize: () => ({ ok: true }),
      allowedOrigins: options.allowedOrigins ?? [],
      ...(options.allowedHosts === undefined ? {} : { allowedHosts: options.allowedHosts }),
      ...(options.sessions === true ? { sessions: {} } : {}),
    });
  } catch (error) {
    // A refused start leaves no collector behind in the process.
    collector.stop();
    throw error;
  }
  return {
    transport: 'http',
    url: `${serving.url}/mcp`,
    close: async () => {
      collector.stop();
      await serving.close();
    },
  };
}
