/**
 * The connection's edge, seen from every place the node handler is mounted: `serve()`, a plain
 * `node:http` server, Express 5 behind `hostAllowList()`, and Fastify 5 in the scope docs/mounts.md
 * shows. Each is a real listening server on 127.0.0.1 port 0, so a raw client writes exact bytes
 * and reads exactly what comes back. What host code ran is counted: every `authorize` call and
 * every run of the `record` tool; what the transport refused is what the refusal channel and
 * `onLog` saw.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { once } from 'node:events';
import { createServer as createHttpServer, type RequestListener } from 'node:http';
import express from 'express';
import Fastify from 'fastify';
import type { HttpHandlerOptions, HttpLogEvent } from '../../src/http/http-options.js';
import { createHttpHandler } from '../../src/http/node/handler.js';
import { hostAllowList } from '../../src/http/node/host-allow-list.js';
import { type ServeOptions, serve } from '../../src/http/node/serve.js';
import { createServer, defineTool, type Server } from '../../src/index.js';
import { modernRequest, post } from './http-peer.js';

/** What the host's code did, as the host would see it. */
export interface HostRecord {
  /** One entry per `authorize` call. */
  readonly authorized: string[];
  /** One entry per run of a tool: its name and the `n` it was called with. */
  readonly ran: string[];
  /** Every event `onLog` received. */
  readonly logged: HttpLogEvent[];
  /** Every `onFault` description. */
  readonly faults: string[];
}

/**
 * Tools that record every run: `record` answers at once, `slow` after `ms`, and `stream` sends
 * two progress notifications `ms` apart before its result (an SSE answer when the client accepts one).
 */
export function recordingHost(record: HostRecord): Server {
  const schema = {
    type: 'object',
    properties: { n: { type: 'integer' }, ms: { type: 'integer' } },
  } as const;
  const done = (text: string) => ({ content: [{ type: 'text' as const, text }] });
  return createServer({
    name: 'edge',
    version: '1',
    tools: [
      defineTool<{ n?: number }>({
        name: 'record',
        inputSchema: schema,
        handler: ({ n }) => {
          record.ran.push(`record ${n ?? ''}`.trim());
          return done(`record ${n ?? ''}`.trim());
        },
      }),
      defineTool<{ n?: number; ms?: number }>({
        name: 'slow',
        inputSchema: schema,
        handler: async ({ n, ms }) => {
          record.ran.push(`slow ${n ?? ''}`.trim());
          await new Promise((resolve) => setTimeout(resolve, ms ?? 100));
          record.ran.push(`slow ${n ?? ''} done`.trim());
          return done('slow');
        },
      }),
      defineTool<{ n?: number; ms?: number }>({
        name: 'stream',
        inputSchema: schema,
        handler: async ({ n, ms }, ctx) => {
          record.ran.push(`stream ${n ?? ''}`.trim());
          ctx.progress(1, 2);
          await new Promise((resolve) => setTimeout(resolve, ms ?? 100));
          ctx.progress(2, 2);
          record.ran.push(`stream ${n ?? ''} done`.trim());
          return done('streamed');
        },
      }),
    ],
  });
}

export function newRecord(): HostRecord {
  return { authorized: [], ran: [], logged: [], faults: [] };
}

/** The raw bytes of a 2026-07-28 `tools/call` of `name`, with headers that match its body. */
export function call(id: number, name: string, args: Record<string, unknown> = {}, extra = {}): string {
  const request = modernRequest(id, 'tools/call', { name, arguments: args });
  return post(request.body, { ...request.headers, ...extra });
}

/** Options every mount below shares: `authorize` admits and records, logs and faults are recorded. */
export function recordingOptions(record: HostRecord): HttpHandlerOptions {
  return {
    authorize: (request) => {
      record.authorized.push(request.target);
      return request.headers['x-refuse'] === undefined ? { ok: true } : { ok: false, status: 401 };
    },
    allowedOrigins: ['http://app.example'],
    allowedHosts: ['127.0.0.1', 'localhost'],
    onLog: (event) => record.logged.push(event),
    onFault: (description) => record.faults.push(description),
  };
}

export interface EdgeMount {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * `node:http` is the handler in a server of its own, attached (`handler.attach`), made with
 * `requireHostHeader: false` as docs/http.md shows; `node:http, plain` is `createServer(handler)`
 * and nothing else, for what Node answers on its own.
 */
export type MountName = 'serve()' | 'node:http' | 'node:http, plain' | 'Express 5' | 'Fastify 5';

export const MOUNTS: readonly MountName[] = ['serve()', 'node:http', 'Express 5', 'Fastify 5'];

/**
 * The handler for `record`'s server, at `/mcp`, mounted as `name` says, each the way docs/http.md
 * and docs/mounts.md show: `handler.attach(server)` on the server the handler is mounted in.
 */
export async function mountAt(
  name: MountName,
  record: HostRecord,
  options: Partial<HttpHandlerOptions> = {},
  serveOptions: Partial<ServeOptions> = {},
): Promise<EdgeMount> {
  const server = recordingHost(record);
  const handlerOptions = { ...recordingOptions(record), ...options };
  if (name === 'serve()') {
    const served = await serve(server, { ...handlerOptions, ...serveOptions });
    return { port: served.port, close: () => served.close() };
  }
  const handler = createHttpHandler(server, handlerOptions);
  if (name === 'Fastify 5') {
    // Fastify listens for clientError itself: its clientErrorHandler option is where ours goes.
    const app = Fastify({ clientErrorHandler: handler.clientError });
    await app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
      scope.all('/mcp', (request, reply) => {
        reply.hijack();
        handler(request.raw, reply.raw);
      });
    });
    handler.attach(app.server);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    return {
      port: address.port,
      close: async () => {
        app.server.closeAllConnections();
        await app.close();
      },
    };
  }
  let listener: RequestListener = handler;
  if (name === 'Express 5') {
    const app = express();
    app.use(hostAllowList({ allowedHosts: ['127.0.0.1', 'localhost'] }));
    app.all('/mcp', handler);
    listener = app as unknown as typeof listener;
  }
  const http =
    name === 'node:http, plain'
      ? createHttpServer(listener)
      : handler.attach(createHttpServer({ requireHostHeader: name !== 'node:http' }, listener));
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  const address = http.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
    close: async () => {
      http.closeAllConnections();
      http.close();
      await once(http, 'close');
    },
  };
}

/** Every `{ rule, status, code }` the refusal channel publishes while `action` runs. */
export async function publishedDuring(action: () => Promise<void>): Promise<unknown[]> {
  const published: unknown[] = [];
  const listener = (message: unknown): void => {
    published.push(message);
  };
  subscribe('palisade:http-refusal', listener);
  try {
    await action();
  } finally {
    unsubscribe('palisade:http-refusal', listener);
  }
  return published;
}

/** The status lines in what a raw client read, in order. */
export function statusLines(text: string): string[] {
  return [...text.matchAll(/HTTP\/1\.1 \d{3}[^\r]*/g)].map((match) => match[0]);
}

export function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
