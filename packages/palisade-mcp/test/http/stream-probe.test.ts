/**
 * A client's GET is its probe for a stream of server messages (the official SDK clients send one
 * at every connection); the transport spec answers 405 when none is offered. It is routine, not a
 * caller doing something wrong: answered like any other method, but under its own rule, logged at
 * `debug` rather than `warn`, and not written to stderr, so the log an operator reads holds the
 * refusals worth reading. Any other method is still a `warn`.
 */
import { Hono } from 'hono';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createFetchHandler } from '../../src/http/fetch/handler.js';
import type { HttpLogEvent } from '../../src/http/http-options.js';
import { createHttpHandler, type HttpHandlerOptions } from '../../src/http/node/handler.js';
import type { PalisadeLogger } from '../../src/telemetry/logger.js';
import { listenFetch } from '../support/fetch-peer.js';
import { basicServer, exchange, type Mounted, modernRequest, mount, post } from '../support/http-peer.js';

const LIST = modernRequest(1, 'tools/list');
const BASE = {
  authorize: () => ({ ok: true as const }),
  allowedOrigins: [],
  allowedHosts: ['127.0.0.1'],
};

let mounted: Mounted | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await mounted?.close();
  mounted = undefined;
});

async function serveWith(options: Partial<HttpHandlerOptions>): Promise<number> {
  mounted = await mount(createHttpHandler(basicServer(), { ...BASE, ...options }));
  return mounted.port;
}

async function send(port: number, method: string): Promise<number> {
  const reply = await exchange(port, post(LIST.body, LIST.headers, method));
  reply.client.end();
  return reply.status;
}

function recordingLogger(withDebug: boolean): { calls: unknown[]; logger: PalisadeLogger } {
  const calls: unknown[] = [];
  const record =
    (level: string) =>
    (entry: object, message: string): void => {
      calls.push([level, entry, message]);
    };
  const logger: PalisadeLogger = { warn: record('warn'), error: record('error') };
  return { calls, logger: withDebug ? { ...logger, debug: record('debug') } : logger };
}

describe('a client’s GET probe', () => {
  test('is answered 405 with Allow: POST, and onLog gets it as get-stream-not-offered', async () => {
    const events: HttpLogEvent[] = [];
    const port = await serveWith({ onLog: (event) => events.push(event) });
    const reply = await exchange(port, post(LIST.body, LIST.headers, 'GET'));
    reply.client.end();
    expect(reply.status).toBe(405);
    expect(reply.headers['allow']).toBe('POST');
    expect(events).toStrictEqual([{ kind: 'refusal', rule: 'get-stream-not-offered', status: 405 }]);
  });

  test('is a debug record for a logger, not a warn', async () => {
    const log = recordingLogger(true);
    const port = await serveWith({ logger: log.logger });
    expect(await send(port, 'GET')).toBe(405);
    expect(log.calls).toStrictEqual([
      [
        'debug',
        { event: 'palisade.refusal', transport: 'http', rule: 'get-stream-not-offered', status: 405 },
        'palisade: request refused',
      ],
    ]);
  });

  test('is not logged by a logger without debug', async () => {
    const log = recordingLogger(false);
    const port = await serveWith({ logger: log.logger });
    expect(await send(port, 'GET')).toBe(405);
    expect(log.calls).toEqual([]);
  });

  test('is not written to stderr when neither onLog nor logger is given', async () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      if (String(chunk).startsWith('palisade:')) written.push(String(chunk));
      return true;
    });
    const port = await serveWith({});
    expect(await send(port, 'GET')).toBe(405);
    expect(await send(port, 'DELETE')).toBe(405);
    expect(written).toEqual(['palisade: http refusal method-not-allowed 405\n']);
  });

  test('any other method is still a warn record under method-not-allowed', async () => {
    const log = recordingLogger(true);
    const port = await serveWith({ logger: log.logger });
    expect(await send(port, 'DELETE')).toBe(405);
    expect(log.calls).toStrictEqual([
      [
        'warn',
        { event: 'palisade.refusal', transport: 'http', rule: 'method-not-allowed', status: 405 },
        'palisade: request refused',
      ],
    ]);
  });

  test('to the fetch handler is get-stream-not-offered too', async () => {
    const events: HttpLogEvent[] = [];
    const handler = createFetchHandler(basicServer(), {
      ...BASE,
      allowedHosts: ['127.0.0.1', 'localhost'],
      onLog: (event) => events.push(event),
    });
    const app = new Hono();
    app.all('/mcp', (c) => handler(c.req.raw));
    mounted = await listenFetch(app.fetch);
    const response = await fetch(`http://127.0.0.1:${mounted.port}/mcp`, { method: 'GET' });
    expect(response.status).toBe(405);
    expect(events).toStrictEqual([{ kind: 'refusal', rule: 'get-stream-not-offered', status: 405 }]);
  });

  test('a logger whose debug is not a function is refused at construction', () => {
    expect(() =>
      createHttpHandler(basicServer(), {
        ...BASE,
        logger: { warn: () => {}, error: () => {}, debug: 'loud' } as unknown as PalisadeLogger,
      }),
    ).toThrow('option "logger.debug" must be a function taking (object, message) when present');
  });
});
