/**
 * RFC 9728 protected-resource metadata: the document, the well-known paths derived from the
 * resource, its answers to each method (with CORS for browser clients), and the same document
 * mounted beside the MCP endpoint on node:http, Express, Fastify, Hono and a fetch runtime.
 */
import { once } from 'node:events';
import { createServer, type Server as NodeServer } from 'node:http';
import { connect as http2Connect } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { createFetchHandler } from 'palisade-mcp/fetch';
import { createHttpHandler, serve } from 'palisade-mcp/http';
import { afterEach, describe, expect, test } from 'vitest';
import { AuthError, bearer, protectedResourceMetadata } from '../src/index.js';
import { guardedCatalog, LOOPBACK, whoami } from './support/mcp.js';
import { ISSUER, jwksOf, RESOURCE, testKey } from './support/tokens.js';

const options = {
  resource: RESOURCE,
  authorizationServers: [ISSUER],
  scopesSupported: ['mcp:tools'],
  resourceName: 'Example MCP',
};
const metadata = protectedResourceMetadata(options);

describe('the metadata document', () => {
  test('holds the resource, its authorization servers, its scopes and the header as its one bearer method', {
    tags: ['threat-model'],
  }, () => {
    expect(metadata.document).toEqual({
      resource: RESOURCE,
      authorization_servers: [ISSUER],
      scopes_supported: ['mcp:tools'],
      bearer_methods_supported: ['header'],
      resource_name: 'Example MCP',
    });
    expect(Object.isFrozen(metadata.document)).toBe(true);
  });

  test('is answered at the path-suffixed well-known path and at the root form', {
    tags: ['threat-model'],
  }, () => {
    expect(metadata.url).toBe('https://mcp.example.com/.well-known/oauth-protected-resource/mcp');
    expect(metadata.paths).toEqual([
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource',
    ]);
  });

  test('a resource at the origin root has one path; root: false leaves the root form to others', () => {
    expect(protectedResourceMetadata({ ...options, resource: 'https://mcp.example.com' }).paths).toEqual([
      '/.well-known/oauth-protected-resource',
    ]);
    expect(protectedResourceMetadata({ ...options, root: false }).paths).toEqual([
      '/.well-known/oauth-protected-resource/mcp',
    ]);
  });

  test('without an authorization server it throws: MCP requires at least one', () => {
    expect(() => protectedResourceMetadata({ ...options, authorizationServers: [] })).toThrow(AuthError);
  });

  test('GET is 200 JSON any origin may read, HEAD the same without a body', {
    tags: ['threat-model'],
  }, () => {
    const get = metadata.answer('GET', '/.well-known/oauth-protected-resource');
    expect(get?.status).toBe(200);
    expect(get?.headers).toMatchObject({
      'content-type': 'application/json',
      'access-control-allow-origin': '*',
      'cache-control': 'public, max-age=300',
    });
    expect(JSON.parse(get?.body ?? '')).toEqual(metadata.document);
    const head = metadata.answer('HEAD', '/.well-known/oauth-protected-resource');
    expect(head?.body).toBeUndefined();
    expect(head?.headers['content-length']).toBe(get?.headers['content-length']);
  });

  test('a preflight is 204 allowing GET and the MCP-Protocol-Version header; POST is 405', {
    tags: ['threat-model'],
  }, () => {
    expect(metadata.answer('OPTIONS', '/.well-known/oauth-protected-resource/mcp')).toEqual({
      status: 204,
      headers: {
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'GET, HEAD, OPTIONS',
        'access-control-allow-headers': 'mcp-protocol-version',
        'access-control-max-age': '600',
      },
      body: undefined,
    });
    expect(metadata.answer('POST', '/.well-known/oauth-protected-resource/mcp')?.status).toBe(405);
  });

  test('any other path is not ours', () => {
    expect(metadata.answer('GET', '/.well-known/oauth-protected-resource/other')).toBeUndefined();
    expect(metadata.answer('GET', '/mcp')).toBeUndefined();
  });

  test('the 401 challenge of bearer() names the same URL the document is served at', async () => {
    const hooks = bearer({ resource: RESOURCE, issuer: ISSUER, jwks: jwksOf(testKey()) });
    const { handle } = {
      handle: createFetchHandler(guardedCatalog(), { ...hooks, allowedOrigins: [], allowedHosts: LOOPBACK }),
    };
    const response = await handle(whoami('http://127.0.0.1/mcp', undefined));
    expect(response.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadata.url}"`);
  });
});

let closeServer: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeServer?.();
  closeServer = undefined;
});

async function listen(server: NodeServer): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  closeServer = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const hooks = bearer({ resource: RESOURCE, issuer: ISSUER, jwks: jwksOf(testKey()) });
const mcpOptions = { ...hooks, allowedOrigins: [], allowedHosts: LOOPBACK };

/** Both well-known paths answer the document to a browser origin, and /mcp beside them is still the guarded MCP endpoint. */
async function expectMounted(origin: string): Promise<void> {
  for (const path of metadata.paths) {
    const response = await fetch(`${origin}${path}`, { headers: { origin: 'https://app.example' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toEqual(metadata.document);
  }
  const preflight = await fetch(`${origin}${metadata.paths[0]}`, {
    method: 'OPTIONS',
    headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' },
  });
  expect(preflight.status).toBe(204);
  const guarded = await fetch(whoami(`${origin}/mcp`, undefined));
  expect(guarded.status).toBe(401);
  expect(guarded.headers.get('www-authenticate')).toContain(metadata.url);
}

describe('mounted beside the MCP endpoint', () => {
  test('on node:http, metadata.node answers its paths and hands every other request on', async () => {
    const handler = createHttpHandler(guardedCatalog(), { ...mcpOptions, path: '/mcp' });
    await expectMounted(
      await listen(createServer((req, res) => metadata.node(req, res) || handler(req, res))),
    );
  });

  test('in Express 5, app.use(metadata.node) before the MCP route', async () => {
    const app = express();
    app.use(metadata.node);
    app.post('/mcp', createHttpHandler(guardedCatalog(), mcpOptions));
    await expectMounted(await listen(createServer(app)));
  });

  test('in Fastify 5, a route per path hijacks the reply for metadata.node', async () => {
    const app = Fastify();
    const handler = createHttpHandler(guardedCatalog(), mcpOptions);
    for (const path of metadata.paths) {
      app.route({
        method: ['GET', 'HEAD', 'OPTIONS'],
        url: path,
        handler: (request, reply) => {
          reply.hijack();
          metadata.node(request.raw, reply.raw);
        },
      });
    }
    await app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
      scope.post('/mcp', (request, reply) => {
        reply.hijack();
        handler(request.raw, reply.raw);
      });
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    closeServer = () => app.close();
    const port = (app.server.address() as AddressInfo).port;
    await expectMounted(`http://127.0.0.1:${port}`);
  });

  test('in Hono, app.on([GET, HEAD, OPTIONS], metadata.paths, ...) with metadata.fetch', async () => {
    const app = new Hono();
    const handler = createFetchHandler(guardedCatalog(), mcpOptions);
    app.on(['GET', 'HEAD', 'OPTIONS'], [...metadata.paths], (c) => metadata.fetch(c.req.raw) ?? c.notFound());
    app.post('/mcp', (c) => handler(c.req.raw));
    await expectMounted(await listen(createAdaptorServer({ fetch: app.fetch }) as NodeServer));
  });

  test('on a bare fetch runtime, metadata.fetch(request) ?? handler(request)', async () => {
    const handler = createFetchHandler(guardedCatalog(), mcpOptions);
    const serveFetch = (request: Request): Response | Promise<Response> =>
      metadata.fetch(request) ?? handler(request);
    await expectMounted(await listen(createAdaptorServer({ fetch: serveFetch }) as NodeServer));
  });

  test('by serve(), routes: metadata.routes beside the guarded /mcp on the one port', async () => {
    const served = await serve(guardedCatalog(), { ...mcpOptions, routes: metadata.routes });
    closeServer = () => served.close();
    await expectMounted(served.url);
  });
});

describe('served by serve({ routes }) on HTTP/1.1 and HTTP/2', () => {
  test('the document is read at both paths with its headers, and a HEAD without its body, over HTTP/1.1', {
    tags: ['threat-model'],
  }, async () => {
    const served = await serve(guardedCatalog(), { ...mcpOptions, routes: metadata.routes });
    closeServer = () => served.close();
    for (const path of metadata.paths) {
      const response = await fetch(`${served.url}${path}`);
      expect(response.status).toBe(200);
      expect(Object.fromEntries(response.headers)).toMatchObject({
        'content-type': 'application/json',
        'cache-control': 'public, max-age=300',
        'x-content-type-options': 'nosniff',
        'content-length': String(JSON.stringify(metadata.document).length),
      });
      expect(await response.json()).toEqual(metadata.document);
      const head = await fetch(`${served.url}${path}`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');
    }
    const preflight = await fetch(`${served.url}${metadata.paths[0]}`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'mcp-protocol-version',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toBe('mcp-protocol-version');
    expect((await fetch(`${served.url}${metadata.paths[0]}`, { method: 'POST' })).status).toBe(405);
  });

  test('the challenge of a call without a token leads, on the same port, to the document naming the same resource', {
    tags: ['threat-model'],
  }, async () => {
    const served = await serve(guardedCatalog(), { ...mcpOptions, routes: metadata.routes });
    closeServer = () => served.close();
    const challenge =
      (await fetch(whoami(`${served.url}/mcp`, undefined))).headers.get('www-authenticate') ?? '';
    const pointed = new URL(/resource_metadata="([^"]+)"/.exec(challenge)?.[1] as string);
    const document = (await (await fetch(`${served.url}${pointed.pathname}`)).json()) as Record<
      string,
      unknown
    >;
    expect(document['resource']).toBe(RESOURCE);
  });

  test('over HTTP/2 the document is read from any origin, and a rebinding :authority is refused 421', {
    tags: ['threat-model'],
  }, async () => {
    const served = await serve(guardedCatalog(), { ...mcpOptions, routes: metadata.routes });
    closeServer = () => served.close();
    const session = http2Connect(served.url);
    session.on('error', () => {});
    const get = (headers: Record<string, string>): Promise<{ status: number; cors: unknown; body: string }> =>
      new Promise((resolve) => {
        const stream = session.request({
          ':method': 'GET',
          ':path': metadata.paths[0] as string,
          ...headers,
        });
        let status = 0;
        let cors: unknown;
        const chunks: Buffer[] = [];
        stream.on('response', (head) => {
          status = Number(head[':status']);
          cors = head['access-control-allow-origin'];
        });
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('error', () => {});
        stream.on('close', () => resolve({ status, cors, body: Buffer.concat(chunks).toString('utf8') }));
      });
    try {
      const read = await get({ origin: 'https://app.example' });
      expect(read.status).toBe(200);
      expect(read.cors).toBe('*');
      expect(JSON.parse(read.body)).toEqual(metadata.document);
      expect((await get({ ':authority': 'rebound.example' })).status).toBe(421);
    } finally {
      session.close();
    }
  });

  test.each([
    ['at the origin’s root', 'https://mcp.example.com', ['/.well-known/oauth-protected-resource']],
    [
      'at /mcp',
      'https://mcp.example.com/mcp',
      ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource'],
    ],
    [
      'at a deeper path',
      'https://mcp.example.com/tenants/a/mcp',
      ['/.well-known/oauth-protected-resource/tenants/a/mcp', '/.well-known/oauth-protected-resource'],
    ],
    [
      'at a path ending in a slash',
      'https://mcp.example.com/mcp/',
      ['/.well-known/oauth-protected-resource/mcp/', '/.well-known/oauth-protected-resource'],
    ],
  ])(
    'a resource %s is served at the paths RFC 9728 §3.1 derives',
    { tags: ['threat-model'] },
    async (_where, resource, paths) => {
      const derived = protectedResourceMetadata({ resource, authorizationServers: [ISSUER] });
      expect(Object.keys(derived.routes)).toEqual(paths);
      const served = await serve(guardedCatalog(), { ...mcpOptions, routes: derived.routes });
      closeServer = () => served.close();
      for (const path of paths) {
        const response = await fetch(`${served.url}${path}`);
        expect(response.status).toBe(200);
        expect(((await response.json()) as Record<string, unknown>)['resource']).toBe(resource);
      }
    },
  );
});
