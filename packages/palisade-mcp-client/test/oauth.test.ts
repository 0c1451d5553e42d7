/**
 * The OAuth 2.1 client against a real authorization server: `oidc-provider` in this process (the
 * fixture palisade-mcp-auth's tests use), in front of a Palisade server guarded by
 * `palisade-mcp-auth`'s `bearer()`. From the first 401: protected resource metadata, server
 * metadata, dynamic registration, authorization code with PKCE S256, `state`, `resource` and the
 * `iss` check, then a tool call with the token; client credentials for a machine client; refresh
 * with rotation; step-up on `insufficient_scope`; and discovery held to the trust boundary.
 */
import { once } from 'node:events';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpHandler } from 'palisade-mcp/http';
import { bearer, type Principal, protectedResourceMetadata } from 'palisade-mcp-auth';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type AuthorizationServer,
  browse,
  startAuthorizationServer,
} from '../../palisade-mcp-auth/test/support/authorization-server.js';
import { guardedCatalog } from '../../palisade-mcp-auth/test/support/mcp.js';
import {
  type AuthorizationRequest,
  type CallToolResult,
  type ClientWarning,
  createClient,
  httpTransport,
  memoryTokenStore,
  oauthClient,
  type StoredTokens,
  type TokenStore,
} from '../src/index.js';

const LOOPBACK = ['localhost', '127.0.0.1', '::1'];
const REDIRECT = 'http://127.0.0.1/callback';

let http: Server;
let as: AuthorizationServer;
let resource: string;
const seen: unknown[] = [];
/** Every request the MCP server and the authorization server saw: `METHOD path`. */
const requests: string[] = [];
/** The bodies of token requests, as the authorization server received them. */
const tokenForms: URLSearchParams[] = [];

beforeAll(async () => {
  let listener: RequestListener = (_req, res) => res.writeHead(503).end();
  http = createServer((req, res) => {
    requests.push(`mcp ${req.method} ${(req.url ?? '').split('?')[0]}`);
    listener(req, res);
  });
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  resource = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  as = await startAuthorizationServer({ jwt: resource, scope: 'mcp:tools admin' });
  // Ahead of oidc-provider's own middleware: what reaches the authorization server, and each
  // token request's form as it parsed it.
  as.provider.use(async (ctx, next) => {
    requests.push(`as ${ctx.method} ${ctx.path}`);
    await next();
    const body = (ctx as unknown as { oidc?: { body?: Record<string, string> } }).oidc?.body;
    if (ctx.method === 'POST' && ctx.path === '/token' && body !== undefined) {
      tokenForms.push(new URLSearchParams(body));
    }
  });
  const metadata = protectedResourceMetadata({
    resource,
    authorizationServers: [as.issuer],
    scopesSupported: ['mcp:tools'],
  });
  const handler = createHttpHandler(guardedCatalog(seen), {
    ...bearer({
      resource,
      issuer: as.issuer,
      scopes: { required: ['mcp:tools'], tools: { delete_everything: ['admin'] } },
    }),
    allowedOrigins: [],
    allowedHosts: LOOPBACK,
    path: '/mcp',
  });
  listener = (req, res) => metadata.node(req, res) || handler(req, res);
});

afterAll(async () => {
  http.closeAllConnections();
  http.close();
  await as.close();
});

/** The browser step as a signed-in user's browser takes it, recording each authorization URL. */
function browser(seenUrls: URL[], tamper?: (landed: URL) => URL) {
  return async ({ url, redirectUri }: AuthorizationRequest): Promise<URL> => {
    seenUrls.push(url);
    const params = await browse(url, redirectUri);
    const landed = new URL(`${redirectUri}?${params}`);
    return tamper === undefined ? landed : tamper(landed);
  };
}

function text(result: { content: readonly { type: string; text?: string }[] }): string {
  return result.content.map((part) => part.text ?? '').join('');
}

/** A fresh client signed in through the browser callback, one call to `tool`; the URLs it was sent to. */
async function signInAndCall(tool: string): Promise<{ urls: URL[]; result: CallToolResult }> {
  const urls: URL[] = [];
  const auth = oauthClient({ redirectUri: REDIRECT, authorize: browser(urls) });
  const client = createClient({ transport: httpTransport(resource, { auth }) });
  try {
    await client.connect();
    return { urls, result: await client.callTool(tool, {}) };
  } finally {
    await client.close();
  }
}

describe('authorization code with PKCE against oidc-provider', () => {
  test('a client with no registration goes from the first 401 to a tool call, its token bound to this resource', {
    tags: ['threat-model'],
  }, async () => {
    const { urls, result } = await signInAndCall('whoami');

    expect(result.isError).not.toBe(true);
    expect(requests).toContain('mcp GET /.well-known/oauth-protected-resource/mcp');
    expect(urls).toHaveLength(1);
    const authorize = urls[0] as URL;
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorize.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorize.searchParams.get('resource')).toBe(resource);
    expect(authorize.searchParams.get('scope')?.split(' ')).toContain('mcp:tools');
    const exchange = tokenForms.find((form) => form.get('grant_type') === 'authorization_code');
    expect(exchange?.get('resource')).toBe(resource);
    expect(exchange?.get('code_verifier')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const principal = seen.at(-1) as Principal;
    expect(principal.subject).toBe('user-1');
    expect(principal.claims['aud']).toBe(resource);
    expect(text(result)).toContain('user-1');
  });

  test.each([
    ['naming another issuer', 'iss', 'https://evil.example', 'iss-mismatch'],
    ['carrying another state', 'state', 'forged', 'state-mismatch'],
  ])(
    'an authorization response %s is refused before the code is exchanged',
    {
      tags: ['threat-model'],
    },
    async (_what, parameter, forged, rule) => {
      const before = tokenForms.length;
      const auth = oauthClient({
        redirectUri: REDIRECT,
        authorize: browser([], (landed) => {
          landed.searchParams.set(parameter, forged);
          return landed;
        }),
      });
      const client = createClient({ transport: httpTransport(resource, { auth }) });
      await expect(client.connect()).rejects.toMatchObject({ code: 'PALISADE_CLIENT_ERR_AUTH', rule });
      await client.close();
      expect(
        tokenForms.slice(before).filter((form) => form.get('grant_type') === 'authorization_code'),
      ).toHaveLength(0);
    },
  );

  test('an expired access token is refreshed before the next request and the refresh token rotates', async () => {
    const inner = memoryTokenStore();
    const saved: (StoredTokens | undefined)[] = [];
    const store: TokenStore = {
      getTokens: (issuer, res) => inner.getTokens(issuer, res),
      setTokens: (issuer, res, tokens) => {
        saved.push(tokens);
        return inner.setTokens(issuer, res, tokens);
      },
      getClient: (issuer) => inner.getClient(issuer),
      setClient: (issuer, client) => inner.setClient(issuer, client),
    };
    const urls: URL[] = [];
    const auth = oauthClient({ redirectUri: REDIRECT, authorize: browser(urls), store });
    const client = createClient({ transport: httpTransport(resource, { auth }) });
    await client.connect();
    const first = saved.findLast((tokens) => tokens !== undefined) as StoredTokens;
    expect(first.refreshToken).toBeDefined();
    // Make the held token look expired: the next request refreshes instead of failing.
    await inner.setTokens(as.issuer, resource, { ...first, expiresAt: Date.now() - 1 });
    const refreshesBefore = tokenForms.filter((form) => form.get('grant_type') === 'refresh_token').length;
    const result = await client.callTool('whoami', {});
    await client.close();

    expect(result.isError).not.toBe(true);
    expect(urls).toHaveLength(1);
    const refreshes = tokenForms.filter((form) => form.get('grant_type') === 'refresh_token');
    expect(refreshes).toHaveLength(refreshesBefore + 1);
    expect(refreshes.at(-1)?.get('resource')).toBe(resource);
    const latest = (await inner.getTokens(as.issuer, resource)) as StoredTokens;
    expect(latest.accessToken).not.toBe(first.accessToken);
    expect(latest.refreshToken).toBeDefined();
    expect(latest.refreshToken).not.toBe(first.refreshToken);
  });

  test('a 403 insufficient_scope re-authorizes with the scope it names, and the call then runs', {
    tags: ['threat-model'],
  }, async () => {
    const { urls, result } = await signInAndCall('delete_everything');

    expect(text(result)).toBe('deleted');
    expect(urls).toHaveLength(2);
    const scopes = (urls[1] as URL).searchParams.get('scope')?.split(' ') ?? [];
    expect(scopes).toContain('admin');
    expect(scopes).toContain('mcp:tools');
  });
});

describe('client credentials against oidc-provider', () => {
  test('a machine client with a pre-registered secret obtains a token for this resource and calls a tool', async () => {
    const auth = oauthClient({
      grant: 'client_credentials',
      clientId: as.service.clientId,
      clientSecret: as.service.clientSecret,
    });
    const client = createClient({ transport: httpTransport(resource, { auth }) });
    await client.connect();
    const result = await client.callTool('whoami', {});
    await client.close();

    expect(result.isError).not.toBe(true);
    const principal = seen.at(-1) as Principal;
    expect(principal.clientId).toBe(as.service.clientId);
    expect(principal.claims['aud']).toBe(resource);
    const grant = tokenForms.findLast((form) => form.get('grant_type') === 'client_credentials');
    expect(grant?.get('resource')).toBe(resource);
    // client_secret_basic: the secret travels in the Authorization header, not the form.
    expect(grant?.get('client_secret')).toBeNull();
  });
});

describe('discovery held to the trust boundary', () => {
  test('an authorization server on an undeclared origin is asked nothing without consent', {
    tags: ['threat-model'],
  }, async () => {
    const warnings: ClientWarning[] = [];
    const before = requests.length;
    const asked: string[] = [];
    const auth = oauthClient({ redirectUri: REDIRECT, authorize: browser([]) });
    const client = createClient({
      transport: httpTransport(resource, {
        auth,
        // Only the MCP server's own origin is declared; the authorization server's port is not.
        trustedOrigins: [new URL(resource).origin],
        consent: (request) => {
          asked.push(`${request.purpose} ${request.origin}`);
          return 'deny';
        },
        onWarning: (warning) => warnings.push(warning),
      }),
    });
    await expect(client.connect()).rejects.toMatchObject({ code: 'PALISADE_CLIENT_ERR_CONSENT_DENIED' });
    await client.close();
    expect(asked).toEqual([`oauth ${as.issuer}`]);
    expect(warnings.map((warning) => warning.code)).toContain('PALISADE_CLIENT_W_CONSENT_BLOCKED');
    // The MCP server was asked (its 401 and its metadata); the authorization server saw nothing.
    expect(requests.slice(before).every((line) => line.startsWith('mcp '))).toBe(true);
  });

  test('with consent, an undeclared authorization server on loopback is still refused by the target policy', {
    tags: ['threat-model'],
  }, async () => {
    const auth = oauthClient({ redirectUri: REDIRECT, authorize: browser([]) });
    const client = createClient({
      transport: httpTransport(resource, {
        auth,
        trustedOrigins: [new URL(resource).origin],
        consent: () => 'allow',
        onWarning: () => {},
      }),
    });
    await expect(client.connect()).rejects.toMatchObject({
      code: 'PALISADE_CLIENT_ERR_TARGET_REFUSED',
      rule: 'loopback',
    });
    await client.close();
  });

  test('resource metadata naming the cloud metadata address as its authorization server is refused, nothing sent there', {
    tags: ['threat-model'],
  }, async () => {
    const lookups: string[] = [];
    const hostile = createServer((req, res) => {
      if ((req.url ?? '').startsWith('/.well-known/oauth-protected-resource')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            resource: `http://127.0.0.1:${port}/mcp`,
            authorization_servers: ['https://169.254.169.254'],
          }),
        );
        return;
      }
      req.resume();
      res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
    });
    hostile.listen(0, '127.0.0.1');
    await once(hostile, 'listening');
    const port = (hostile.address() as AddressInfo).port;
    const auth = oauthClient({ redirectUri: REDIRECT, authorize: browser([]) });
    const client = createClient({
      transport: httpTransport(`http://127.0.0.1:${port}/mcp`, {
        auth,
        // Even with consent for every origin, the address itself is refused.
        consent: () => 'allow',
        onWarning: () => {},
        resolver: async (hostname) => {
          lookups.push(hostname);
          return [{ address: '127.0.0.1', family: 4 }];
        },
      }),
    });
    await expect(client.connect()).rejects.toMatchObject({
      code: 'PALISADE_CLIENT_ERR_TARGET_REFUSED',
      rule: 'metadata',
    });
    await client.close();
    hostile.closeAllConnections();
    hostile.close();
    expect(lookups).toEqual([]);
  });
});
