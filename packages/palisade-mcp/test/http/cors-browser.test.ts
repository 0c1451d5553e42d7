/**
 * CORS in a real browser: headless Chromium (test/support/chromium.ts: the one shipped in the
 * `@sparticuz/chromium` npm package unless PALISADE_CHROMIUM names another), driven by
 * playwright-core. A page served from one loopback origin (http://127.0.0.1:A) calls the endpoint
 * on another (http://localhost:B/mcp) with fetch, so Chromium itself sends the preflight, decides
 * from our headers whether the call may go out, and decides what the page may read. The same page
 * from an origin not on the list (http://localhost:A) is refused. The same cases run against both
 * handlers: the node handler on `node:http`, and the fetch handler as a Hono route served by
 * @hono/node-server. A browser that fails to start fails the test rather than skipping it.
 */
import { Hono } from 'hono';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createFetchHandler } from '../../src/http/fetch/handler.js';
import type { HttpHandlerOptions, HttpLogEvent } from '../../src/http/http-options.js';
import { createHttpHandler } from '../../src/http/node/handler.js';
import { launchChromium } from '../support/chromium.js';
import { listenFetch } from '../support/fetch-peer.js';
import { basicServer, type Json, type Mounted, modernRequest, mount } from '../support/http-peer.js';

const TOKEN = 'Bearer page-token';
const LIST = modernRequest(1, 'tools/list');

interface Fetched {
  readonly status: number;
  readonly body: Json;
  readonly wwwAuthenticate: string | null;
}

/** Runs in the page: one fetch to the endpoint, as a browser MCP client would make it. */
function callFromPage(page: Page, url: string, headers: Json, body: string): Promise<Fetched | string> {
  return page.evaluate(
    async ({ url, headers, body }) => {
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
          body,
        });
        return {
          status: response.status,
          body: (await response.json()) as Json,
          wwwAuthenticate: response.headers.get('www-authenticate'),
        };
      } catch (error) {
        return `${(error as Error).name}: ${(error as Error).message}`;
      }
    },
    { url, headers: headers as Record<string, string>, body },
  );
}

/**
 * The endpoint under test, listening: every request's method is pushed to `arrived` before the
 * handler sees it.
 */
type Endpoint = (options: HttpHandlerOptions, arrived: string[]) => Promise<Mounted>;

const ENDPOINTS: ReadonlyArray<readonly [string, Endpoint]> = [
  [
    'createHttpHandler on node:http',
    (options, arrived) => {
      const handler = createHttpHandler(basicServer(), options);
      return mount((req, res) => {
        arrived.push(req.method ?? '');
        handler(req, res);
      });
    },
  ],
  [
    'createFetchHandler in Hono',
    (options, arrived) => {
      const handler = createFetchHandler(basicServer(), options);
      const app = new Hono();
      // OPTIONS as well as POST: with app.post alone, Hono answers the preflight 404 itself.
      app.on(['POST', 'OPTIONS'], '/mcp', (c) => {
        arrived.push(c.req.method);
        return handler(c.req.raw);
      });
      return listenFetch(app.fetch);
    },
  ],
];

describe.each(ENDPOINTS)('CORS in headless Chromium: %s', (_name, listen) => {
  let browser: Browser;
  let pages: Mounted;
  let endpoint: Mounted;
  let url: string;
  /** Every request the endpoint received, as `METHOD` in arrival order. */
  const arrived: string[] = [];
  const logged: HttpLogEvent[] = [];
  let authorizeCalls = 0;

  beforeAll(async () => {
    pages = await mount((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>client</title><p>an MCP client page</p>');
    });
    const pageOrigin = `http://127.0.0.1:${pages.port}`;
    endpoint = await listen(
      {
        allowedOrigins: [pageOrigin],
        allowedHosts: ['localhost', '127.0.0.1', '::1'],
        // A bearer-token gate, as a browser client's server would have: the browser sends no
        // token on a preflight, so a preflight reaching this would be refused.
        authorize: (request) => {
          authorizeCalls += 1;
          return request.headers['authorization'] === TOKEN
            ? { ok: true }
            : { ok: false, status: 401, headers: { 'www-authenticate': 'Bearer realm="mcp"' } };
        },
        cors: {},
        onLog: (event) => logged.push(event),
        onFault: () => {},
      },
      arrived,
    );
    url = `http://localhost:${endpoint.port}/mcp`;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await endpoint?.close();
    await pages?.close();
  });

  async function pageAt(origin: string): Promise<Page> {
    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    return page;
  }

  test('a page on a listed origin reads a tools/list result, after a preflight that authorize never saw', {
    tags: ['threat-model'],
  }, async () => {
    const page = await pageAt(`http://127.0.0.1:${pages.port}`);
    arrived.length = 0;
    authorizeCalls = 0;
    const result = await callFromPage(page, url, { ...LIST.headers, authorization: TOKEN }, LIST.body);
    expect(result).toMatchObject({
      status: 200,
      body: { jsonrpc: '2.0', id: 1, result: { tools: expect.any(Array) } },
    });
    expect(arrived).toEqual(['OPTIONS', 'POST']);
    expect(authorizeCalls).toBe(1);
    await page.close();
  });

  test('a page on a listed origin reads the -32020 refusal of a header that disagrees with the body', {
    tags: ['threat-model'],
  }, async () => {
    const page = await pageAt(`http://127.0.0.1:${pages.port}`);
    const result = await callFromPage(
      page,
      url,
      // Replaces LIST's `Mcp-Method` (same spelling): a second spelling would send two lines.
      { ...LIST.headers, 'Mcp-Method': 'tools/call', authorization: TOKEN },
      LIST.body,
    );
    expect(result).toEqual({
      status: 400,
      body: {
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32020, message: 'Header mismatch: Mcp-Method does not match the body' },
      },
      wwwAuthenticate: null,
    });
    await page.close();
  });

  test('a page on a listed origin reads a 401 and its WWW-Authenticate', async () => {
    const page = await pageAt(`http://127.0.0.1:${pages.port}`);
    const result = await callFromPage(page, url, LIST.headers, LIST.body);
    expect(result).toEqual({
      status: 401,
      body: { jsonrpc: '2.0', error: { code: -32600, message: 'Unauthorized' } },
      wwwAuthenticate: 'Bearer realm="mcp"',
    });
    await page.close();
  });

  test('the same page from an origin not on the list is refused: fetch rejects and no POST arrives', {
    tags: ['threat-model'],
  }, async () => {
    const page = await pageAt(`http://localhost:${pages.port}`);
    arrived.length = 0;
    logged.length = 0;
    authorizeCalls = 0;
    const result = await callFromPage(page, url, { ...LIST.headers, authorization: TOKEN }, LIST.body);
    expect(result).toBe('TypeError: Failed to fetch');
    expect(arrived).toEqual(['OPTIONS']);
    expect(logged).toEqual([{ kind: 'refusal', rule: 'origin-not-allowed', status: 403 }]);
    expect(authorizeCalls).toBe(0);
    await page.close();
  });
});
