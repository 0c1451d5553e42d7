/**
 * The outbound path over real sockets: redirects (never across origins, never with credentials,
 * never for the MCP exchange), TLS verified by default and loud when turned off, and consent
 * failing closed through a real client, every failing answer leaving the server unasked.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeCertificate } from '../../palisade-mcp/test/support/tls-certificate.js';
import {
  type ClientWarning,
  type ConsentHandler,
  createClient,
  HttpTransport,
  httpTransport,
} from '../src/index.js';

interface Recorded {
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

async function listen(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const DISCOVERED = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  result: {
    resultType: 'complete',
    supportedVersions: ['2026-07-28'],
    capabilities: {},
    serverInfo: { name: 'x', version: '1' },
    ttlMs: 0,
    cacheScope: 'private',
  },
});

/** A server that records every request and answers each path as `routes` says. */
async function recordingServer(
  routes: (path: string, host: string) => { status: number; headers?: Record<string, string>; body?: string },
) {
  const hits: Recorded[] = [];
  const listener: RequestListener = (req, res) => {
    hits.push({ url: req.url ?? '', headers: req.headers });
    req.resume();
    req.on('end', () => {
      const answer = routes(req.url ?? '', host);
      res.writeHead(answer.status, { connection: 'close', ...(answer.headers ?? {}) }).end(answer.body ?? '');
    });
  };
  const server = createServer(listener);
  const host = await listen(server);
  return {
    host,
    hits,
    close: async () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

describe('redirects', () => {
  test('a same-origin redirect of a metadata GET is followed with every credential header dropped', {
    tags: ['threat-model'],
  }, async () => {
    const server = await recordingServer((path) =>
      path === '/start'
        ? { status: 302, headers: { location: '/next' } }
        : { status: 200, headers: { 'content-type': 'application/json' }, body: '{}' },
    );
    const transport = new HttpTransport(`http://${server.host}/mcp`);
    const answer = await transport.outbound.send({
      url: new URL(`http://${server.host}/start`),
      method: 'GET',
      headers: { authorization: 'Bearer t', cookie: 'a=b', 'x-api-key': 'k', accept: 'application/json' },
      purpose: 'oauth',
      followSameOrigin: 1,
    });
    await answer.body.dump();
    await transport.close();
    await server.close();

    expect(answer.status).toBe(200);
    expect(server.hits.map((hit) => hit.url)).toEqual(['/start', '/next']);
    expect(server.hits[0]?.headers['authorization']).toBe('Bearer t');
    const second = server.hits[1]?.headers ?? {};
    expect(second['authorization']).toBeUndefined();
    expect(second['cookie']).toBeUndefined();
    expect(second['x-api-key']).toBeUndefined();
    expect(second['accept']).toBe('application/json');
  });

  test('a redirect of a metadata GET to another origin is refused and that origin is asked nothing', {
    tags: ['threat-model'],
  }, async () => {
    const other = await recordingServer(() => ({ status: 200, body: '{}' }));
    const server = await recordingServer(() => ({
      status: 302,
      headers: { location: `http://${other.host}/.well-known/oauth-authorization-server` },
    }));
    const transport = new HttpTransport(`http://${server.host}/mcp`);
    await expect(
      transport.outbound.send({
        url: new URL(`http://${server.host}/.well-known/oauth-authorization-server`),
        method: 'GET',
        headers: {},
        purpose: 'oauth',
        followSameOrigin: 3,
      }),
    ).rejects.toMatchObject({ code: 'PALISADE_CLIENT_ERR_REDIRECT_REFUSED', rule: 'cross-origin' });
    await transport.close();
    await server.close();
    await other.close();
    expect(other.hits).toHaveLength(0);
  });

  test('the MCP exchange follows no redirect, even to its own origin', {
    tags: ['threat-model'],
  }, async () => {
    const server = await recordingServer((path) =>
      path === '/mcp'
        ? { status: 307, headers: { location: '/elsewhere' } }
        : { status: 200, headers: { 'content-type': 'application/json' }, body: DISCOVERED },
    );
    const client = createClient({
      transport: httpTransport(`http://${server.host}/mcp`, { headers: { authorization: 'Bearer t' } }),
      revisions: ['2026-07-28'],
    });
    await expect(client.connect()).rejects.toMatchObject({
      code: 'PALISADE_CLIENT_ERR_REDIRECT_REFUSED',
      rule: 'redirect',
      status: 307,
    });
    await client.close();
    await server.close();
    expect(server.hits.map((hit) => hit.url)).toEqual(['/mcp']);
  });
});

describe('deadlines', () => {
  test('a request past its deadline fails as a timeout, by name, not as a failed connection', async () => {
    const silent = createServer(() => {});
    const host = await listen(silent);
    const transport = new HttpTransport(`http://${host}/mcp`);
    await expect(
      transport.outbound.send({
        url: new URL(`http://${host}/.well-known/oauth-authorization-server`),
        method: 'GET',
        headers: {},
        purpose: 'oauth',
        signal: AbortSignal.timeout(100),
      }),
    ).rejects.toMatchObject({ code: 'PALISADE_CLIENT_ERR_TIMEOUT', rule: 'request-deadline' });
    await transport.close();
    silent.closeAllConnections();
    silent.close();
  });
});

describe('TLS', () => {
  let dir: string;
  let key: string;
  let cert: string;
  let origin: string;
  let tls: Server;
  let connections = 0;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'palisade-client-tls-'));
    ({ key, cert } = makeCertificate(dir, 'server'));
    tls = createHttpsServer({ key, cert }, (req, res) => {
      req.resume();
      req.on('end', () =>
        res.writeHead(200, { 'content-type': 'application/json', connection: 'close' }).end(DISCOVERED),
      );
    }) as unknown as Server;
    tls.on('secureConnection', () => {
      connections += 1;
    });
    origin = `https://${await listen(tls)}`;
  });

  afterAll(() => {
    tls.closeAllConnections();
    tls.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a certificate the client cannot verify is refused by default', {
    tags: ['threat-model'],
  }, async () => {
    const client = createClient({ transport: httpTransport(`${origin}/mcp`), revisions: ['2026-07-28'] });
    await expect(client.connect()).rejects.toMatchObject({ code: 'PALISADE_CLIENT_ERR_TRANSPORT' });
    await client.close();
  });

  test('the certificate authority the host names is trusted, and nothing is said', async () => {
    const warnings: ClientWarning[] = [];
    const client = createClient({
      transport: httpTransport(`${origin}/mcp`, { tls: { ca: cert }, onWarning: (w) => warnings.push(w) }),
      revisions: ['2026-07-28'],
    });
    await client.connect();
    await client.close();
    expect(warnings).toEqual([]);
  });

  test('with verification turned off, every new connection warns', { tags: ['threat-model'] }, async () => {
    const warnings: ClientWarning[] = [];
    const before = connections;
    const client = createClient({
      transport: httpTransport(`${origin}/mcp`, {
        tls: { rejectUnauthorized: false },
        onWarning: (w) => warnings.push(w),
      }),
      revisions: ['2026-07-28'],
    });
    await client.connect();
    // The server closes each connection, so the next request opens another.
    await client.request('ping').catch(() => {});
    await client.close();
    const opened = connections - before;
    expect(opened).toBeGreaterThanOrEqual(2);
    expect(warnings.filter((w) => w.code === 'PALISADE_CLIENT_W_TLS_UNVERIFIED')).toHaveLength(opened);
  });
});

describe('consent fails closed through a real client', () => {
  const failing: [string, ConsentHandler][] = [
    ['a denial', () => 'deny'],
    [
      'a throw',
      () => {
        throw new Error('no');
      },
    ],
    ['a rejected promise', () => Promise.reject(new Error('no'))],
    ['an unrecognised answer', () => 'yes' as never],
    ['a bare number', () => 3600 as never],
    ['an expiry already past', () => ({ ttl: -5 })],
    ['an expiry more than 365 days out', () => ({ ttl: 366 * 86_400 })],
    ['an unreadable expiry', () => ({ ttl: Number.NaN })],
    [
      'an expiry whose reading throws',
      () =>
        ({
          get ttl(): number {
            throw new Error('no');
          },
        }) as never,
    ],
  ];

  test.each(failing)(
    '%s blocks the request and the server is asked nothing',
    {
      tags: ['threat-model'],
    },
    async (_name, consent) => {
      const server = await recordingServer(() => ({ status: 200, body: DISCOVERED }));
      const client = createClient({
        // Nothing declared: 127.0.0.1 is an origin the application did not name.
        transport: httpTransport(`http://${server.host}/mcp`, {
          trustedOrigins: [],
          consent,
          onWarning: () => {},
        }),
        revisions: ['2026-07-28'],
      });
      const error = await client.connect().then(
        () => undefined,
        (e: unknown) => e,
      );
      await client.close();
      await server.close();
      expect((error as { code?: string }).code).toMatch(/^PALISADE_CLIENT_ERR_CONSENT_(DENIED|ERROR)$/);
      expect(server.hits).toHaveLength(0);
    },
  );

  test('a grant is remembered until its expiry, and asked for again after it', async () => {
    let asked = 0;
    const server = await recordingServer(() => ({ status: 200, body: DISCOVERED }));
    const transport = new HttpTransport(`http://${server.host}/mcp`, {
      trustedOrigins: [],
      consent: () => {
        asked += 1;
        return { ttl: 0.2 };
      },
      onWarning: () => {},
    });
    const send = () =>
      transport.outbound
        .send({ url: new URL(`http://${server.host}/x`), method: 'GET', headers: {}, purpose: 'mcp' })
        .catch(() => {});
    await send();
    await send();
    expect(asked).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await send();
    expect(asked).toBe(2);
    await transport.close();
    await server.close();
  });
});
