/**
 * createHttpHandler as an Express 5 route, through a real listening server: Express's req and res
 * are Node's own objects, so the handler serves them as `node:http` would. A body parser mounted
 * in front has already read the stream; the handler then refuses by name instead of reading nothing.
 */
import express from 'express';
import { describe, expect, test } from 'vitest';
import { createHttpHandler } from '../../../src/http/node/handler.js';
import { closeAfterEach } from '../../support/close-after-each.js';
import { ADMIT_ALL, basicServer, exchange, LIST, mount, post } from '../../support/http-peer.js';
import { BODY_CONSUMED, expectEchoAnswered } from '../../support/mount-checks.js';

const closeLater = closeAfterEach();

async function listen(app: express.Express): Promise<number> {
  const mounted = await closeLater(mount(app as unknown as Parameters<typeof mount>[0]));
  return mounted.port;
}

describe('mounted in Express 5', () => {
  test('app.post(/mcp, handler) answers a tools/call with its result', async () => {
    const app = express();
    app.post('/mcp', createHttpHandler(basicServer(), ADMIT_ALL));
    const port = await listen(app);
    await expectEchoAnswered(port);
  });

  test('app.all(/mcp, handler) leaves a GET to the handler, which answers 405 with Allow: POST', async () => {
    const app = express();
    app.all('/mcp', createHttpHandler(basicServer(), ADMIT_ALL));
    const port = await listen(app);
    const reply = await exchange(port, post('', { 'Content-Length': undefined }, 'GET'));
    expect(reply.status).toBe(405);
    expect(reply.headers['allow']).toBe('POST');
    expect(JSON.parse(reply.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid request: only POST is served here' },
    });
    reply.client.end();
  });

  test('express.json() in front is refused 500 by name, and the host’s onFault says to mount palisade first', async () => {
    const faults: Array<[string, unknown]> = [];
    const app = express();
    app.use(express.json());
    app.post(
      '/mcp',
      createHttpHandler(basicServer(), {
        ...ADMIT_ALL,
        onFault: (description, cause) => faults.push([description, cause]),
      }),
    );
    const port = await listen(app);
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.status).toBe(500);
    expect(JSON.parse(reply.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32603, message: 'Internal error' },
    });
    expect(faults).toEqual([[BODY_CONSUMED, undefined]]);
    reply.client.end();
  });
});
