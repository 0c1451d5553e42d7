/**
 * The URL `serve()` reports is one a client can use. Bound to one address it names that address;
 * bound to every interface (0.0.0.0, ::) it names a host that reaches the server and that the
 * Host rule admits, and a request to it is answered, where `http://0.0.0.0:PORT` named nothing a
 * client should dial and a Host the rule did not list.
 */
import { networkInterfaces } from 'node:os';
import { afterEach, describe, expect, test } from 'vitest';
import { type ServeOptions, type Serving, serve } from '../../src/http/node/serve.js';
import { basicServer, modernRequest } from '../support/http-peer.js';

const LIST = modernRequest(1, 'tools/list');

let serving: Serving | undefined;
afterEach(async () => {
  await serving?.close();
  serving = undefined;
});

async function servedAt(options: Partial<ServeOptions>): Promise<string> {
  serving = await serve(basicServer(), {
    authorize: () => ({ ok: true }),
    allowedOrigins: [],
    port: 0,
    onLog: () => {},
    ...options,
  });
  return serving.url;
}

async function listStatus(url: string): Promise<number> {
  const response = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...(LIST.headers as object) },
    body: LIST.body,
  });
  await response.arrayBuffer();
  return response.status;
}

const hasIpv6Loopback = Object.values(networkInterfaces()).some((addresses) =>
  addresses?.some((address) => address.address === '::1'),
);

describe('the URL serve() reports', () => {
  test('bound to 127.0.0.1, names it', async () => {
    const url = await servedAt({ host: '127.0.0.1' });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await listStatus(url)).toBe(200);
  });

  test('bound to 0.0.0.0 with loopback allowed, names 127.0.0.1, and a request there is answered', async () => {
    const url = await servedAt({ host: '0.0.0.0', allowedHosts: ['127.0.0.1'] });
    expect(url).toBe(`http://127.0.0.1:${serving?.port}`);
    expect(await listStatus(url)).toBe(200);
  });

  test('bound to 0.0.0.0 with only localhost allowed, names localhost', async () => {
    const url = await servedAt({ host: '0.0.0.0', allowedHosts: ['LocalHost'] });
    expect(url).toBe(`http://localhost:${serving?.port}`);
  });

  test('bound to 0.0.0.0 with no loopback name allowed, names the first allowed host', async () => {
    const url = await servedAt({ host: '0.0.0.0', allowedHosts: ['mcp.internal', 'other.internal'] });
    expect(url).toBe(`http://mcp.internal:${serving?.port}`);
  });

  test('bound to 0.0.0.0 with any Host allowed, names 127.0.0.1', async () => {
    const url = await servedAt({ host: '0.0.0.0', allowedHosts: 'any' });
    expect(url).toBe(`http://127.0.0.1:${serving?.port}`);
  });

  test.runIf(hasIpv6Loopback)(
    'bound to :: with ::1 allowed, names [::1], and a request there is answered',
    async () => {
      const url = await servedAt({ host: '::', allowedHosts: ['::1'] });
      expect(url).toBe(`http://[::1]:${serving?.port}`);
      expect(await listStatus(url)).toBe(200);
    },
  );
});
