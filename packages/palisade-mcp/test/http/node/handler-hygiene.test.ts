import { channel, subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, test } from 'vitest';
import { createHttpHandler } from '../../../src/http/node/handler.js';
import { MARKER } from '../../fixtures/catalogs.js';
import { closeAfterEach } from '../../support/close-after-each.js';
import {
  ADMIT_ALL,
  basicServer,
  exchange,
  LIST,
  modernRequest,
  mount,
  mountHandler,
  post,
} from '../../support/http-peer.js';

const closeLater = closeAfterEach();

const MARKED_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 5,
  method: MARKER,
  params: { [MARKER]: MARKER },
});

describe('no client byte, stack or inspected value in any answer', () => {
  test.each([
    ['Host', post(LIST.body, { ...LIST.headers, Host: `${MARKER}.example` })],
    ['Origin', post(LIST.body, { ...LIST.headers, Origin: `http://${MARKER}.example` })],
    ['method', post(MARKED_BODY, { 'X-Marker': MARKER }, 'PUT')],
    ['Accept', post(LIST.body, { ...LIST.headers, Accept: `text/${MARKER}` })],
    ['Content-Type', post(LIST.body, { ...LIST.headers, 'Content-Type': `text/${MARKER}` })],
    ['body not JSON', post(`{"${MARKER}":`, { 'X-Marker': MARKER })],
    ['header mismatch', post(LIST.body, { ...LIST.headers, 'Mcp-Method': MARKER })],
    ['unknown method', post(MARKED_BODY, {})],
    [
      'a host error carrying the marker',
      post(modernRequest(2, 'tools/call', { name: 'throws', arguments: {} }).body, {
        ...modernRequest(2, 'tools/call', { name: 'throws' }).headers,
      }),
    ],
  ])(
    'a request refused for its %s does not see the marker come back',
    { tags: ['threat-model'] },
    async (_rule, bytes) => {
      const mounted = await closeLater(
        mountHandler({
          authorize: (request) =>
            request.rawHeaders.includes('X-Deny') ? { ok: false, reason: MARKER } : { ok: true },
        }),
      );
      const reply = await exchange(mounted.port, bytes);
      const text = reply.client.text();
      // Refused: an HTTP error status, or for a host fault (a delivered JSON-RPC answer, 200) -32603.
      expect(reply.status >= 400 || text.includes('"error":{"code":-32603,"message":"Internal error"}')).toBe(
        true,
      );
      expect(text).not.toContain(MARKER);
      expect(text).not.toContain('    at ');
      reply.client.end();
    },
  );

  test('an authorize refusal’s reason holding the marker does not come back', {
    tags: ['threat-model'],
  }, async () => {
    const mounted = await closeLater(
      mountHandler({ authorize: () => ({ ok: false, status: 401, reason: MARKER }) }),
    );
    const reply = await exchange(mounted.port, post(LIST.body, { ...LIST.headers, Authorization: MARKER }));
    expect(reply.status).toBe(401);
    expect(reply.client.text()).not.toContain(MARKER);
    reply.client.end();
  });
});

describe('a body parser mounted in front', () => {
  test('a consumed body is answered 500 with -32603 and a fault naming the fix', {
    tags: ['threat-model'],
  }, async () => {
    const faults: string[] = [];
    const handler = createHttpHandler(basicServer(), { ...ADMIT_ALL, onFault: (d) => faults.push(d) });
    // What express.json() does: read the whole stream, then hang the parsed value on req.body.
    const withParser = (req: IncomingMessage, res: ServerResponse): void => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        Object.assign(req, { body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown });
        handler(req, res);
      });
    };
    const mounted = await closeLater(mount(withParser));
    const reply = await exchange(mounted.port, post(LIST.body, LIST.headers));
    expect(reply.statusLine).toBe('HTTP/1.1 500 Internal Server Error');
    expect(JSON.parse(reply.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32603, message: 'Internal error' },
    });
    expect(faults).toEqual([
      'the request body was consumed before palisade saw it: mount palisade before any body parser',
    ]);
    reply.client.end();
  });
});

describe('the palisade:http-refusal channel', () => {
  test('publishes one { rule, status, code } per refusal, authorize refusals included', {
    tags: ['threat-model'],
  }, async () => {
    const events: unknown[] = [];
    const listener = (message: unknown): void => {
      events.push(message);
    };
    subscribe('palisade:http-refusal', listener);
    try {
      const mounted = await closeLater(
        mountHandler({
          authorize: (request) =>
            request.rawHeaders.includes('X-Deny') ? { ok: false, reason: MARKER } : { ok: true },
        }),
      );
      for (const bytes of [
        post(LIST.body, { ...LIST.headers, Origin: `http://${MARKER}` }),
        post(LIST.body, { ...LIST.headers, 'X-Deny': '1' }),
        post(`{"${MARKER}"`, LIST.headers),
        post(LIST.body, { ...LIST.headers, 'Mcp-Method': MARKER }),
        post(LIST.body, LIST.headers),
      ]) {
        const reply = await exchange(mounted.port, bytes);
        reply.client.end();
      }
    } finally {
      unsubscribe('palisade:http-refusal', listener);
    }
    expect(events).toEqual([
      { rule: 'origin-not-allowed', status: 403, code: -32600 },
      { rule: 'authorize', status: 403, code: -32600 },
      { rule: 'not-json', status: 400, code: -32700 },
      { rule: 'header-mismatch', status: 400, code: -32020 },
    ]);
    expect(channel('palisade:http-refusal').hasSubscribers).toBe(false);
  });
});

describe('refusing before the read', () => {
  test('a refused caller’s unread body is not drained: the server stops reading after the answer', {
    tags: ['threat-model'],
  }, async () => {
    const mounted = await closeLater(mountHandler());
    const serverSide = new Promise<number>((resolve) => {
      mounted?.server.once('connection', (socket) => socket.once('close', () => resolve(socket.bytesRead)));
    });
    const head = post('', { ...LIST.headers, Origin: 'http://evil.example', 'Content-Length': 1_000_000 });
    const reply = await exchange(mounted.port, head);
    expect(reply.status).toBe(403);
    // Offer the whole announced body after the answer; a server draining it would read all 1,000,000 bytes.
    reply.client.socket.end(Buffer.alloc(1_000_000, 0x61));
    expect(await serverSide).toBeLessThan(1_000_000);
  });
});
