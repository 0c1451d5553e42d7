/**
 * The official SDK v2 client's OAuth, end to end against Palisade behind `bearer()` and a real
 * authorization server (oidc-provider): the client's first request is answered 401, it reads the
 * resource_metadata the challenge names, discovers the authorization server, registers itself
 * (RFC 7591), authorizes with PKCE for this resource (RFC 8707), and then calls a tool.
 */
import { once } from 'node:events';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  Client,
  type OAuthClientInformationMixed,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthTokens,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { createHttpHandler } from 'palisade-mcp/http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, type Principal, protectedResourceMetadata } from '../src/index.js';
import {
  type AuthorizationServer,
  browse,
  startAuthorizationServer,
} from './support/authorization-server.js';
import { guardedCatalog, LOOPBACK } from './support/mcp.js';

/** A client that keeps what the SDK gives it and remembers where it was sent to authorize. */
class RecordingProvider implements OAuthClientProvider {
  readonly redirectUrl = 'http://127.0.0.1:1/callback';
  authorizationUrl: URL | undefined;
  registered: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  #verifier = '';

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'palisade sdk test',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.registered;
  }
  saveClientInformation(information: OAuthClientInformationMixed): void {
    this.registered = information;
  }
  tokens(): OAuthTokens | undefined {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }
  codeVerifier(): string {
    return this.#verifier;
  }
}

let http: Server;
let as: AuthorizationServer;
let resource: string;
const seen: unknown[] = [];
const requested: string[] = [];

beforeAll(async () => {
  let listener: RequestListener = (_req, res) => res.writeHead(503).end();
  http = createServer((req, res) => {
    requested.push(`${req.method} ${(req.url ?? '').split('?')[0]}`);
    listener(req, res);
  });
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  resource = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  as = await startAuthorizationServer({ jwt: resource, scope: 'mcp:tools' });
  const metadata = protectedResourceMetadata({
    resource,
    authorizationServers: [as.issuer],
    scopesSupported: ['mcp:tools'],
  });
  const handler = createHttpHandler(guardedCatalog(seen), {
    ...bearer({ resource, issuer: as.issuer, scopes: { required: ['mcp:tools'] } }),
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

describe('the official SDK v2 client with an OAuthClientProvider', () => {
  test('goes from a 401 through discovery, registration and PKCE to a tool call on Palisade', {
    tags: ['threat-model'],
  }, async () => {
    const provider = new RecordingProvider();
    const first = new Client({ name: 'sdk-oauth', version: '1.0.0' });
    await expect(
      first.connect(new StreamableHTTPClientTransport(new URL(resource), { authProvider: provider })),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    expect(requested).toContain('GET /.well-known/oauth-protected-resource/mcp');
    expect(provider.registered?.client_id).toBeDefined();
    const authorize = provider.authorizationUrl as URL;
    expect(authorize.searchParams.get('resource')).toBe(resource);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('scope')).toBe('mcp:tools');

    const callback = await browse(authorize, provider.redirectUrl);
    const transport = new StreamableHTTPClientTransport(new URL(resource), { authProvider: provider });
    await transport.finishAuth(callback);
    const client = new Client({ name: 'sdk-oauth', version: '1.0.0' });
    await client.connect(transport);
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    await client.close();

    expect((result as { isError?: boolean }).isError).not.toBe(true);
    const principal = seen.at(-1) as Principal;
    expect(principal).toMatchObject({
      subject: 'user-1',
      clientId: provider.registered?.client_id,
      scopes: ['mcp:tools'],
    });
    expect(principal.claims['aud']).toBe(resource);
  });
});
