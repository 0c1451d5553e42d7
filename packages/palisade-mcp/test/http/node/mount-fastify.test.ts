/**
 * createHttpHandler as a Fastify 5 route, through a real listening server. Fastify reads and
 * parses a JSON body itself before a route's handler runs, so the route must hand the raw stream
 * over: inside its own plugin scope the parsers are replaced by a catch-all that leaves the
 * payload unread, and the route hijacks the reply (Fastify then writes nothing) and passes
 * `request.raw` and `reply.raw`, Node's own objects, to the handler.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, test } from 'vitest';
import type { HttpHandlerOptions } from '../../../src/http/http-options.js';
import { createHttpHandler } from '../../../src/http/node/handler.js';
import { ADMIT_ALL, basicServer, exchange, LIST, post } from '../../support/http-peer.js';
import { BODY_CONSUMED, expectEchoAnswered } from '../../support/mount-checks.js';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** The mount the README proposes: the MCP route in a scope of its own, the stream untouched. */
function mcpPlugin(options: HttpHandlerOptions) {
  const handler = createHttpHandler(basicServer(), options);
  return async (scope: FastifyInstance): Promise<void> => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    scope.all('/mcp', (request, reply) => {
      reply.hijack();
      handler(request.raw, reply.raw);
    });
  };
}

async function listen(instance: FastifyInstance): Promise<number> {
  app = instance;
  await instance.listen({ port: 0, host: '127.0.0.1' });
  const address = instance.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('mounted in Fastify 5', () => {
  test('a route handed the raw stream answers a tools/call with its result', async () => {
    const instance = Fastify();
    await instance.register(mcpPlugin(ADMIT_ALL));
    const port = await listen(instance);
    await expectEchoAnswered(port);
  });

  test('a route handed the raw stream gives palisade’s own 415 for text/plain, not Fastify’s', async () => {
    const instance = Fastify();
    await instance.register(mcpPlugin(ADMIT_ALL));
    const port = await listen(instance);
    const reply = await exchange(port, post(LIST.body, { ...LIST.headers, 'Content-Type': 'text/plain' }));
    expect(reply.status).toBe(415);
    expect(JSON.parse(reply.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid request: Content-Type must be application/json' },
    });
    reply.client.end();
  });

  test('a route handed the raw stream gives palisade’s own 415 to a POST with no Content-Type', async () => {
    const instance = Fastify();
    await instance.register(mcpPlugin(ADMIT_ALL));
    const port = await listen(instance);
    const reply = await exchange(port, post(LIST.body, { ...LIST.headers, 'Content-Type': undefined }));
    expect(reply.status).toBe(415);
    expect(JSON.parse(reply.body)).toMatchObject({ error: { code: -32600 } });
    reply.client.end();
  });

  test('a route handed the raw stream leaves a GET to palisade, which answers 405 with Allow: POST', async () => {
    const instance = Fastify();
    await instance.register(mcpPlugin(ADMIT_ALL));
    const port = await listen(instance);
    const reply = await exchange(port, post('', { 'Content-Length': undefined }, 'GET'));
    expect(reply.status).toBe(405);
    expect(reply.headers['allow']).toBe('POST');
    reply.client.end();
  });

  test('Fastify’s own JSON parser in front is refused 500 by name, and onFault says to mount palisade first', async () => {
    const faults: string[] = [];
    const handler = createHttpHandler(basicServer(), {
      ...ADMIT_ALL,
      onFault: (description) => faults.push(description),
    });
    const instance = Fastify();
    instance.post('/mcp', (request, reply) => {
      reply.hijack();
      handler(request.raw, reply.raw);
    });
    const port = await listen(instance);
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.status).toBe(500);
    expect(JSON.parse(reply.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32603, message: 'Internal error' },
    });
    expect(faults).toEqual([BODY_CONSUMED]);
    reply.client.end();
  });
});
