/**
 * The code the README and docs/client.md show is code that compiles and runs: each TypeScript
 * block is a byte-for-byte copy of a file under test/readme/, which the workspace's `tsc`
 * type-checks, imported here as an installed package resolves it and run against real peers (a
 * Palisade server, and oidc-provider for the command-line OAuth flow through loopbackRedirect).
 */
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createHttpHandler } from 'palisade-mcp/http';
import { bearer, protectedResourceMetadata } from 'palisade-mcp-auth';
import { describe, expect, test } from 'vitest';
import {
  browse,
  startAuthorizationServer,
} from '../../palisade-mcp-auth/test/support/authorization-server.js';
import { guardedCatalog } from '../../palisade-mcp-auth/test/support/mcp.js';
import { signedInCall } from './readme/cli-oauth.js';
import { echo } from './readme/quick-start.js';
import { remoteClient } from './readme/trust-boundary.js';
import { serveHttp } from './support/servers.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FILES = fileURLToPath(new URL('./readme/', import.meta.url));
const copies = readdirSync(FILES).map((name) => readFileSync(`${FILES}${name}`, 'utf8'));

function tsBlocks(path: string): string[] {
  return [...readFileSync(`${ROOT}${path}`, 'utf8').matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map(
    (m) => m[1] ?? '',
  );
}

describe('code blocks', () => {
  test('every TypeScript block of the README is a file the workspace type-checks', () => {
    const blocks = tsBlocks('packages/palisade-mcp-client/README.md');
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) expect(copies).toContain(block);
  });

  test('every TypeScript block of docs/client.md is a file the workspace type-checks', () => {
    const blocks = tsBlocks('docs/client.md');
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    for (const block of blocks) expect(copies).toContain(block);
  });
});

describe('the snippets, run', () => {
  test('the quick start calls a tool on a Palisade server', async () => {
    const running = await serveHttp();
    const log = console.log;
    console.log = () => {};
    try {
      expect(await echo(running.url, 'hello')).toBe('hello');
    } finally {
      console.log = log;
      await running.close();
    }
  });

  test('the consent handler is asked about an undeclared origin, and a no blocks it', async () => {
    const questions: string[] = [];
    const warn = console.warn;
    console.warn = () => {};
    try {
      const client = remoteClient('http://[::ffff:7f00:1]:9/mcp', async (question) => {
        questions.push(question);
        return false;
      });
      await expect(client.connect()).rejects.toMatchObject({ code: 'PALISADE_CLIENT_ERR_CONSENT_DENIED' });
      await client.close();
    } finally {
      console.warn = warn;
    }
    expect(questions).toEqual(['Allow this MCP client to reach http://[::ffff:7f00:1]:9 (mcp)?']);
  });

  test('the command-line OAuth flow signs in through the loopback listener and calls a tool', async () => {
    let listener: RequestListener = (_req, res) => res.writeHead(503).end();
    const http: Server = createServer((req, res) => listener(req, res));
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    const resource = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
    const as = await startAuthorizationServer({ jwt: resource, scope: 'mcp:tools' });
    const metadata = protectedResourceMetadata({ resource, authorizationServers: [as.issuer] });
    const handler = createHttpHandler(guardedCatalog(), {
      ...bearer({ resource, issuer: as.issuer, scopes: { required: ['mcp:tools'] } }),
      allowedOrigins: [],
      allowedHosts: ['127.0.0.1'],
      path: '/mcp',
    });
    listener = (req, res) => metadata.node(req, res) || handler(req, res);
    const landings: number[] = [];
    try {
      // The user's browser: signs in, then lands on the loopback redirect URI the client listens on.
      const ok = await signedInCall(resource, async (url) => {
        const redirectUri = url.searchParams.get('redirect_uri') as string;
        const params = await browse(url, redirectUri);
        const landing = await fetch(`${redirectUri}?${params}`);
        landings.push(landing.status);
      });
      expect(ok).toBe(true);
      expect(landings).toEqual([200]);
    } finally {
      http.closeAllConnections();
      http.close();
      await as.close();
    }
  });
});
