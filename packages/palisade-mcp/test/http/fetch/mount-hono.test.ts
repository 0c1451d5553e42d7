/**
 * createFetchHandler as a Hono route, served by @hono/node-server on a real listening socket:
 * `app.post('/mcp', (c) => handler(c.req.raw))`, the snippet the README proposes.
 */
import { Hono } from 'hono';
import { describe, expect, test } from 'vitest';
import { createFetchHandler } from '../../../src/http/fetch/handler.js';
import { closeAfterEach } from '../../support/close-after-each.js';
import { listenFetch } from '../../support/fetch-peer.js';
import { ADMIT_ALL, basicServer, exchange, modernRequest, post } from '../../support/http-peer.js';
import { BODY_CONSUMED, expectEchoAnswered } from '../../support/mount-checks.js';

const closeLater = closeAfterEach();

describe('mounted in Hono', () => {
  test('app.post(/mcp, (c) => handler(c.req.raw)) answers a tools/call with its result', async () => {
    const handler = createFetchHandler(basicServer(), ADMIT_ALL);
    const app = new Hono();
    app.post('/mcp', (c) => handler(c.req.raw));
    const mounted = await closeLater(listenFetch(app.fetch));
    await expectEchoAnswered(mounted.port);
  });

  test("with cors, app.on(['POST', 'OPTIONS'], '/mcp', ...) hands the preflight over and it is answered 204", async () => {
    const handler = createFetchHandler(basicServer(), { ...ADMIT_ALL, cors: {} });
    const app = new Hono();
    app.on(['POST', 'OPTIONS'], '/mcp', (c) => handler(c.req.raw));
    const mounted = await closeLater(listenFetch(app.fetch));
    const preflight = [
      'OPTIONS /mcp HTTP/1.1',
      'Host: 127.0.0.1',
      'Origin: http://app.example',
      'Access-Control-Request-Method: POST',
    ];
    const reply = await exchange(mounted.port, `${preflight.join('\r\n')}\r\n\r\n`);
    expect(reply.status).toBe(204);
    expect(reply.headers['access-control-allow-origin']).toBe('http://app.example');
    reply.client.end();
  });

  test('a route that read c.req.json() first is refused 500 by name, and onFault says why', async () => {
    const faults: string[] = [];
    const handler = createFetchHandler(basicServer(), {
      ...ADMIT_ALL,
      onFault: (description) => faults.push(description),
    });
    const app = new Hono();
    app.post('/mcp', async (c) => {
      await c.req.json();
      return handler(c.req.raw);
    });
    const mounted = await closeLater(listenFetch(app.fetch));
    const list = modernRequest(1, 'tools/list');
    const reply = await exchange(mounted.port, post(list.body, list.headers));
    expect(reply.status).toBe(500);
    expect(faults).toEqual([BODY_CONSUMED]);
    reply.client.end();
  });
});
