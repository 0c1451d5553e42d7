/**
 * hostAllowList() in front of an Express 5 app serving a route beside MCP, through a real
 * listening server: the DNS-rebinding defence covers the app's other routes with the handler's
 * own answer.
 */
import express from 'express';
import { describe, expect, test } from 'vitest';
import { createHttpHandler } from '../../../src/http/node/handler.js';
import { hostAllowList } from '../../../src/http/node/host-allow-list.js';
import { closeAfterEach } from '../../support/close-after-each.js';
import { ADMIT_ALL, basicServer, exchange, LIST, mount, post } from '../../support/http-peer.js';

const closeLater = closeAfterEach();

const HOST_NOT_ALLOWED = {
  jsonrpc: '2.0',
  error: { code: -32600, message: 'Invalid request: Host not allowed' },
};

/** An app with a page route and the MCP route, both behind the middleware. */
async function appWith(middleware: ReturnType<typeof hostAllowList>): Promise<number> {
  const app = express();
  app.use(middleware);
  app.get('/health', (_req, res) => {
    res.send('ok');
  });
  app.post('/mcp', createHttpHandler(basicServer(), { ...ADMIT_ALL, allowedHosts: 'any' }));
  const mounted = await closeLater(mount(app as unknown as Parameters<typeof mount>[0]));
  return mounted.port;
}

function get(path: string, host: string | string[]): string {
  const hosts = Array.isArray(host) ? host : [host];
  return `GET ${path} HTTP/1.1\r\n${hosts.map((name) => `Host: ${name}\r\n`).join('')}\r\n`;
}

describe('hostAllowList in front of an Express app', () => {
  test('a route beside MCP is served to a loopback Host by default', async () => {
    const port = await appWith(hostAllowList());
    const reply = await exchange(port, get('/health', `127.0.0.1:${port}`));
    expect(reply.status).toBe(200);
    expect(reply.body).toBe('ok');
    reply.client.end();
  });

  test('a route beside MCP is answered 421 with the handler’s own body for a rebinding Host, and closed', {
    tags: ['threat-model'],
  }, async () => {
    const port = await appWith(hostAllowList());
    const reply = await exchange(port, get('/health', 'attacker.example'));
    expect(reply.status).toBe(421);
    expect(reply.headers['connection']).toBe('close');
    expect(JSON.parse(reply.body)).toEqual(HOST_NOT_ALLOWED);
    await reply.client.closed;
  });

  test('the MCP route behind it is refused 421 for a Host off the list even when the handler admits any', {
    tags: ['threat-model'],
  }, async () => {
    const port = await appWith(hostAllowList({ allowedHosts: ['mcp.example'] }));
    const refused = await exchange(port, post(LIST.body, LIST.headers));
    expect(refused.status).toBe(421);
    expect(JSON.parse(refused.body)).toEqual(HOST_NOT_ALLOWED);
    refused.client.end();
    const served = await exchange(port, post(LIST.body, { ...LIST.headers, Host: 'MCP.example:8443' }));
    expect(served.status).toBe(200);
    served.client.end();
  });

  test('two Host lines are answered 400 even when both are allowed', { tags: ['threat-model'] }, async () => {
    const port = await appWith(hostAllowList());
    const reply = await exchange(port, get('/health', ['127.0.0.1', 'localhost']));
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid request: more than one Host header' },
    });
    reply.client.end();
  });
});

describe('hostAllowList options, checked once', () => {
  test('an unknown option is refused by name', () => {
    expect(() => hostAllowList({ allowedHost: ['a'] } as never)).toThrow(/unknown option "allowedHost"/);
  });

  test("allowedHosts: 'any' is refused: it would admit every Host", () => {
    expect(() => hostAllowList({ allowedHosts: 'any' } as never)).toThrow(/option "allowedHosts"/);
  });

  test('an empty allowedHosts list is refused: it would admit none', () => {
    expect(() => hostAllowList({ allowedHosts: [] })).toThrow(
      /option "allowedHosts" must name at least one host/,
    );
  });
});
