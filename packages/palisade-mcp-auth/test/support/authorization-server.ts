/**
 * A real authorization server for the tests: `oidc-provider` (OpenID Certified) in this process
 * on a loopback port, with resource indicators on. It issues ES256-signed JWT access tokens
 * (RFC 9068, `typ: at+jwt`) for the MCP resource it is told, and opaque ones for a second
 * resource; by client credentials, and by authorization code with PKCE, whose user interaction
 * (login, consent) is answered here at once, as a browser with a signed-in user would. Its JWKS,
 * metadata, token, introspection and registration endpoints are served over HTTP.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { errors } from 'oidc-provider';

export interface AuthorizationServer {
  readonly issuer: string;
  readonly provider: Provider;
  /** Confidential client allowed `client_credentials` (and introspection). */
  readonly service: { readonly clientId: string; readonly clientSecret: string };
  /** Public client for authorization code with PKCE. */
  readonly app: { readonly clientId: string; readonly redirectUri: string };
  close(): Promise<void>;
}

export interface ResourceServers {
  /** The MCP resource: JWT access tokens with these scopes. */
  readonly jwt: string;
  /** A resource whose tokens are opaque (introspected). */
  readonly opaque?: string;
  readonly scope: string;
}

const privateJwk = (pair: ReturnType<typeof generateKeyPairSync>, kid: string, alg: string) => ({
  ...(pair.privateKey.export({ format: 'jwk' }) as Record<string, unknown>),
  kid,
  alg,
  use: 'sig',
});

export async function startAuthorizationServer(resources: ResourceServers): Promise<AuthorizationServer> {
  const http: Server = createServer();
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const service = { clientId: 'mcp-service', clientSecret: randomBytes(24).toString('base64url') };
  const app = { clientId: 'mcp-app', redirectUri: 'http://127.0.0.1/callback' };

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: service.clientId,
        client_secret: service.clientSecret,
        grant_types: ['client_credentials'],
        response_types: [],
        redirect_uris: [],
        token_endpoint_auth_method: 'client_secret_basic',
      },
      {
        client_id: app.clientId,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: [app.redirectUri],
        token_endpoint_auth_method: 'none',
      },
    ],
    jwks: {
      keys: [
        privateJwk(generateKeyPairSync('ec', { namedCurve: 'P-256' }), 'as-es256', 'ES256'),
        privateJwk(generateKeyPairSync('rsa', { modulusLength: 2048 }), 'as-rs256', 'RS256'),
      ],
    },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id }) }),
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // Listed here too so a client registering dynamically (RFC 7591) may name them in `scope`.
    scopes: ['openid', 'offline_access', ...resources.scope.split(' ')],
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      registration: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator === resources.jwt) {
            return {
              scope: resources.scope,
              accessTokenFormat: 'jwt',
              accessTokenTTL: 300,
              jwt: { sign: { alg: 'ES256' } },
            };
          }
          if (indicator === resources.opaque) {
            return { scope: resources.scope, accessTokenFormat: 'opaque', accessTokenTTL: 300 };
          }
          throw new errors.InvalidTarget();
        },
      },
    },
    pkce: { required: () => true },
  });

  const interact = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: 'user-1' } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const grant =
      details.grantId === undefined
        ? new provider.Grant({
            accountId: details.session?.accountId as string,
            clientId: details.params['client_id'] as string,
          })
        : ((await provider.Grant.find(details.grantId)) as InstanceType<Provider['Grant']>);
    const missing = details.prompt.details['missingResourceScopes'] as Record<string, string[]> | undefined;
    for (const [indicator, scopes] of Object.entries(missing ?? {}))
      grant.addResourceScope(indicator, scopes.join(' '));
    const scopes = details.prompt.details['missingOIDCScope'] as string[] | undefined;
    if (scopes !== undefined) grant.addOIDCScope(scopes.join(' '));
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  };

  const callback = provider.callback();
  http.on('request', (req, res) => {
    if ((req.url ?? '').startsWith('/interaction/')) {
      interact(req, res).catch((error: unknown) => {
        res.writeHead(500).end(String(error));
      });
      return;
    }
    callback(req, res);
  });

  return {
    issuer,
    provider,
    service,
    app,
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

/** A token by client credentials for `resource` (RFC 8707 `resource` on the token request). */
export async function clientCredentialsToken(
  server: AuthorizationServer,
  resource: string,
  scope: string,
): Promise<string> {
  const response = await fetch(`${server.issuer}/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${server.service.clientId}:${server.service.clientSecret}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope }),
  });
  const body = (await response.json()) as { access_token?: string; error?: string };
  if (body.access_token === undefined) throw new Error(`no token: ${JSON.stringify(body)}`);
  return body.access_token;
}

/**
 * Follows an authorization URL as a signed-in user's browser would (cookies kept, each redirect
 * taken by hand) until it reaches `redirectUri`, and returns the query it arrived with.
 */
export async function browse(authorizationUrl: URL | string, redirectUri: string): Promise<URLSearchParams> {
  const jar = new Map<string, string>();
  let url = new URL(authorizationUrl);
  for (let hop = 0; hop < 20; hop++) {
    const response = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = (pair ?? '').indexOf('=');
      if (at > 0) jar.set((pair as string).slice(0, at), (pair as string).slice(at + 1));
    }
    await response.arrayBuffer();
    const location = response.headers.get('location');
    if (location === null)
      throw new Error(`the authorization flow stopped at ${url} with ${response.status}`);
    const next = new URL(location, url);
    if (
      `${next.origin}${next.pathname}` === redirectUri.replace(/\/$/, '') ||
      next.href.startsWith(redirectUri)
    ) {
      return next.searchParams;
    }
    url = next;
  }
  throw new Error('the authorization flow did not reach the redirect URI in 20 hops');
}

/** A token by authorization code with PKCE (S256) for `resource`, as a public client gets it. */
export async function authorizationCodeToken(
  server: AuthorizationServer,
  resource: string,
  scope: string,
): Promise<string> {
  const { createHash } = await import('node:crypto');
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const state = randomBytes(16).toString('base64url');
  const authorize = new URL(`${server.issuer}/auth`);
  for (const [name, value] of Object.entries({
    client_id: server.app.clientId,
    redirect_uri: server.app.redirectUri,
    response_type: 'code',
    scope,
    resource,
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  })) {
    authorize.searchParams.set(name, value);
  }
  const answer = await browse(authorize, server.app.redirectUri);
  if (answer.get('state') !== state) throw new Error('the state came back changed');
  const code = answer.get('code');
  if (code === null) throw new Error(`no code: ${answer}`);
  const response = await fetch(`${server.issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: server.app.redirectUri,
      code_verifier: verifier,
      client_id: server.app.clientId,
      resource,
    }),
  });
  const body = (await response.json()) as { access_token?: string };
  if (body.access_token === undefined) throw new Error(`no token: ${JSON.stringify(body)}`);
  return body.access_token;
}
