/**
 * A local authorization server for development: oidc-provider (OpenID Certified) on loopback,
 * with resource indicators on, so every access token is a JWT minted for one resource (RFC 8707,
 * RFC 9068). One confidential client may use client credentials; any client may register itself
 * (RFC 7591) and use authorization code with PKCE through oidc-provider's development login and
 * consent pages. Everything is in memory and gone when the process ends: not for production.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { errors } from 'oidc-provider';

export interface LocalAuthorizationServer {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  close(): Promise<void>;
}

export async function startAuthorizationServer(
  port: number,
  resource: string,
  scope: string,
): Promise<LocalAuthorizationServer> {
  const signing = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
  const clientId = 'mcp-demo';
  const clientSecret = randomBytes(24).toString('base64url');
  // The issuer names the port, so the port is bound before the provider exists.
  const server = createServer();
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        grant_types: ['client_credentials'],
        response_types: [],
        redirect_uris: [],
      },
    ],
    jwks: { keys: [{ ...signing, kid: 'demo-es256', alg: 'ES256', use: 'sig' }] },
    // Its one key is ES256; oidc-provider otherwise expects an RS256 key for each client.
    clientDefaults: { id_token_signed_response_alg: 'ES256' },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id }) }),
    scopes: ['openid', 'offline_access', ...scope.split(' ')],
    features: {
      clientCredentials: { enabled: true },
      registration: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== resource) throw new errors.InvalidTarget();
          return { scope, accessTokenFormat: 'jwt', accessTokenTTL: 600, jwt: { sign: { alg: 'ES256' } } };
        },
      },
    },
  });
  server.on('request', provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
