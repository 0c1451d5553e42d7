/**
 * The OAuth 2.1 client of the MCP authorization spec, as an authorization provider for the HTTP
 * transport. On a 401: protected resource metadata, authorization server metadata, a client
 * identity (pre-registered, a client ID metadata document, or dynamic registration), then the
 * authorization code flow with PKCE S256, `state`, the `resource` parameter on both requests and
 * the RFC 9207 `iss` check, the browser step being the host's callback; or, for a machine
 * client, the client credentials grant. Tokens go to the host's store (memory by default), are
 * refreshed before they expire with the refresh token rotated, and a 403 `insufficient_scope`
 * re-authorizes with the scopes it names (the transport bounds how often). Every request it
 * makes goes through the transport's outbound path.
 */
import { ClientError } from '../errors.js';
import type { Outbound } from '../net/outbound.js';
import { checkObject, isPlainObject, optionalBoolean, optionalFunction } from '../options.js';
import type { AuthContext, HttpAuth } from '../transport/http/http-auth.js';
import { readBearerChallenge } from './challenge.js';
import { applyClientAuth, type TokenEndpointAuth } from './client-auth.js';
import {
  discoverResource,
  discoverServer,
  fallbackServer,
  type ResourceMetadata,
  type ServerMetadata,
} from './discovery.js';
import { authError, oauthJsonPost, oauthRequest, oauthUrl } from './http.js';
import { newState, pkce } from './pkce.js';
import { memoryTokenStore, type StoredClient, type StoredTokens, type TokenStore } from './token-store.js';

export interface AuthorizationRequest {
  /** Where to send the user's browser. */
  readonly url: URL;
  readonly redirectUri: string;
}

/** The browser step: open `url`, and answer with the URL the browser was redirected to. */
export type Authorize = (request: AuthorizationRequest) => Promise<URL | string>;

export interface OAuthClientOptions {
  /** `authorization_code` (default) with a browser, or `client_credentials` for a machine client. */
  readonly grant?: 'authorization_code' | 'client_credentials';
  /** The browser step (required for `authorization_code`). `loopbackRedirect()` gives one for CLIs. */
  readonly authorize?: Authorize;
  /** Required for `authorization_code`. */
  readonly redirectUri?: string;
  /** A pre-registered client. */
  readonly clientId?: string;
  readonly clientSecret?: string;
  /** The issuer the pre-registered client belongs to; other issuers do not get it. */
  readonly clientIssuer?: string;
  /** `private_key_jwt`: a PEM private key and its algorithm. */
  readonly privateKey?: string;
  readonly privateKeyAlgorithm?: 'ES256' | 'RS256';
  /** A client ID metadata document URL (https, with a path), used where the server supports it. */
  readonly clientMetadataUrl?: string;
  /** `client_name` for dynamic registration. Default 'palisade-mcp-client'. */
  readonly clientName?: string;
  /** Scopes to ask for when neither the challenge nor the metadata names any. */
  readonly scope?: string;
  /** Ask for `offline_access` (a refresh token) where the server lists it. Default true. */
  readonly offlineAccess?: boolean;
  /** Default: memory. */
  readonly store?: TokenStore;
}

const KEYS = [
  'grant',
  'authorize',
  'redirectUri',
  'clientId',
  'clientSecret',
  'clientIssuer',
  'privateKey',
  'privateKeyAlgorithm',
  'clientMetadataUrl',
  'clientName',
  'scope',
  'offlineAccess',
  'store',
] as const;

/** Refresh this long before the token says it expires. */
const REFRESH_MARGIN_MS = 30_000;
const MAX_TOKEN_CHARS = 16_384;

interface Session {
  readonly server: ServerMetadata;
  readonly resource: string;
}

function oauthErrorCode(json: Record<string, unknown> | undefined): string {
  const error = json?.['error'];
  return typeof error === 'string' && /^[\x20-\x7e]{1,64}$/.test(error) ? error : 'an unreadable error';
}

export class OAuthClient implements HttpAuth {
  readonly #options: OAuthClientOptions;
  readonly #store: TokenStore;
  #session: Session | undefined;
  #granted: string | undefined;

  constructor(options: OAuthClientOptions) {
    const opts = checkObject(options, '', KEYS);
    const grant = opts['grant'] ?? 'authorization_code';
    if (grant !== 'authorization_code' && grant !== 'client_credentials') {
      throw new ClientError(
        'PALISADE_CLIENT_ERR_INVALID_OPTION',
        'option "grant" must be authorization_code or client_credentials',
      );
    }
    if (grant === 'authorization_code') {
      if (optionalFunction(opts['authorize'], 'authorize') === undefined) {
        throw new ClientError(
          'PALISADE_CLIENT_ERR_INVALID_OPTION',
          'option "authorize" is required for the authorization code grant',
        );
      }
      if (typeof opts['redirectUri'] !== 'string') {
        throw new ClientError(
          'PALISADE_CLIENT_ERR_INVALID_OPTION',
          'option "redirectUri" is required for the authorization code grant',
        );
      }
    } else if (typeof opts['clientId'] !== 'string') {
      throw new ClientError(
        'PALISADE_CLIENT_ERR_INVALID_OPTION',
        'option "clientId" is required for the client credentials grant',
      );
    }
    for (const key of [
      'clientId',
      'clientSecret',
      'clientIssuer',
      'privateKey',
      'clientMetadataUrl',
      'clientName',
      'scope',
    ] as const) {
      if (opts[key] !== undefined && typeof opts[key] !== 'string') {
        throw new ClientError('PALISADE_CLIENT_ERR_INVALID_OPTION', `option "${key}" must be a string`);
      }
    }
    if (opts['clientMetadataUrl'] !== undefined) {
      const url = new URL(opts['clientMetadataUrl'] as string);
      if (url.protocol !== 'https:' || url.pathname === '/') {
        throw new ClientError(
          'PALISADE_CLIENT_ERR_INVALID_OPTION',
          'option "clientMetadataUrl" must be an https URL with a path',
        );
      }
    }
    optionalBoolean(opts['offlineAccess'], 'offlineAccess');
    const store = opts['store'];
    if (store !== undefined && !isPlainObject(store) && typeof store !== 'object') {
      throw new ClientError('PALISADE_CLIENT_ERR_INVALID_OPTION', 'option "store" must be a token store');
    }
    this.#options = { ...options, grant };
    this.#store = (store as TokenStore | undefined) ?? memoryTokenStore();
  }

  async headers(context: AuthContext): Promise<Readonly<Record<string, string>>> {
    const session = this.#session;
    if (session === undefined) return {};
    let tokens = await this.#store.getTokens(session.server.issuer, session.resource);
    if (tokens === undefined) return {};
    if (tokens.expiresAt !== undefined && tokens.expiresAt - REFRESH_MARGIN_MS <= Date.now()) {
      tokens = await this.#refresh(context.outbound, session, tokens);
      if (tokens === undefined) return {};
    }
    return { authorization: `Bearer ${tokens.accessToken}` };
  }

  async unauthorized(context: AuthContext, header: string | undefined): Promise<boolean> {
    const challenge = readBearerChallenge(header);
    const session = await this.#discover(context, challenge.resourceMetadata);
    const held = await this.#store.getTokens(session.server.issuer, session.resource);
    if (held?.refreshToken !== undefined && this.#session?.server.issuer === session.server.issuer) {
      this.#session = session;
      if ((await this.#refresh(context.outbound, session, held)) !== undefined) return true;
    }
    await this.#store.setTokens(session.server.issuer, session.resource, undefined);
    this.#session = session;
    const scope = this.#scopeFor(session, challenge.scope);
    await this.#obtain(context, session, scope);
    return true;
  }

  async forbidden(context: AuthContext, header: string | undefined): Promise<boolean> {
    const challenge = readBearerChallenge(header);
    if (challenge.error !== 'insufficient_scope') return false;
    const session = await this.#discover(context, challenge.resourceMetadata);
    this.#session = session;
    const wanted = new Set(
      [...(this.#granted ?? '').split(' '), ...(challenge.scope ?? '').split(' ')].filter((s) => s !== ''),
    );
    await this.#store.setTokens(session.server.issuer, session.resource, undefined);
    await this.#obtain(context, session, wanted.size === 0 ? undefined : [...wanted].join(' '));
    return true;
  }

  /** The resource and its authorization server, found afresh on every challenge (a server may move). */
  async #discover(context: AuthContext, hinted: string | undefined): Promise<Session> {
    const outbound = context.outbound;
    const resourceMeta = await discoverResource(outbound, context.resource, hinted);
    if (resourceMeta === undefined) {
      // No protected resource metadata: the 2025-03-26 way, the server's origin as the issuer.
      if (context.revision !== '2025-03-26') {
        throw authError('no-resource-metadata', 'the server publishes no protected resource metadata');
      }
      const server =
        (await discoverServer(outbound, context.resource.origin)) ?? fallbackServer(context.resource);
      return { server, resource: canonicalResource(context.resource) };
    }
    const issuer = resourceMeta.authorizationServers[0] as string;
    const server = await discoverServer(outbound, issuer);
    if (server === undefined)
      throw authError('no-server-metadata', 'the authorization server publishes no metadata');
    this.#resourceMeta = resourceMeta;
    return { server, resource: resourceMeta.resource };
  }

  #resourceMeta: ResourceMetadata | undefined;

  /** The spec's order: the challenge's scope, else every scope the resource lists, else the host's, else none. */
  #scopeFor(session: Session, challenged: string | undefined): string | undefined {
    let scope = challenged ?? this.#resourceMeta?.scopesSupported?.join(' ') ?? this.#options.scope;
    if (scope === '') scope = undefined;
    const wantsRefresh =
      this.#options.offlineAccess !== false && this.#options.grant === 'authorization_code';
    if (
      wantsRefresh &&
      session.server.scopesSupported?.includes('offline_access') &&
      !scope?.split(' ').includes('offline_access')
    ) {
      scope = scope === undefined ? 'offline_access' : `${scope} offline_access`;
    }
    return scope;
  }

  async #obtain(context: AuthContext, session: Session, scope: string | undefined): Promise<void> {
    const auth = await this.#identity(context.outbound, session.server);
    const form: Record<string, string> = { resource: session.resource };
    if (this.#options.grant === 'client_credentials') {
      form['grant_type'] = 'client_credentials';
      if (scope !== undefined) form['scope'] = scope;
    } else {
      const code = await this.#authorizeInBrowser(session, auth.clientId, scope);
      form['grant_type'] = 'authorization_code';
      form['code'] = code.code;
      form['redirect_uri'] = this.#options.redirectUri as string;
      form['code_verifier'] = code.verifier;
    }
    await this.#tokenRequest(context.outbound, session, auth, form, undefined);
  }

  async #identity(outbound: Outbound, server: ServerMetadata): Promise<TokenEndpointAuth> {
    const o = this.#options;
    const preRegistered =
      o.clientId !== undefined && (o.clientIssuer === undefined || o.clientIssuer === server.issuer);
    if (preRegistered)
      return this.#authFor(server, {
        clientId: o.clientId as string,
        ...(o.clientSecret === undefined ? {} : { clientSecret: o.clientSecret }),
      });
    if (o.clientMetadataUrl !== undefined && server.cimdSupported)
      return { method: 'none', clientId: o.clientMetadataUrl };
    const stored = await this.#store.getClient(server.issuer);
    if (stored !== undefined) return this.#authFor(server, stored);
    if (server.registrationEndpoint === undefined) {
      throw authError(
        'no-client-identity',
        'the client has no identity at this authorization server and it offers no registration',
      );
    }
    const registered = await this.#register(outbound, server);
    await this.#store.setClient(server.issuer, registered);
    return this.#authFor(server, registered);
  }

  #authFor(server: ServerMetadata, client: StoredClient): TokenEndpointAuth {
    const o = this.#options;
    if (o.privateKey !== undefined) {
      return {
        method: 'private_key_jwt',
        clientId: client.clientId,
        privateKey: o.privateKey,
        algorithm: o.privateKeyAlgorithm ?? 'ES256',
      };
    }
    if (client.clientSecret === undefined) return { method: 'none', clientId: client.clientId };
    const named = client.tokenEndpointAuthMethod;
    const supported = server.tokenEndpointAuthMethods ?? ['client_secret_basic'];
    const method =
      named === 'client_secret_post' || named === 'client_secret_basic'
        ? named
        : supported.includes('client_secret_basic')
          ? 'client_secret_basic'
          : 'client_secret_post';
    return { method, clientId: client.clientId, clientSecret: client.clientSecret };
  }

  /**
   * RFC 7591 dynamic registration: a native client on its redirect URI, asking what the server
   * supports. No `scope`: a registered scope caps every later request, and step-up needs more.
   */
  async #register(outbound: Outbound, server: ServerMetadata): Promise<StoredClient> {
    const supported = server.tokenEndpointAuthMethods;
    const method =
      supported === undefined || supported.includes('none')
        ? 'none'
        : supported.includes('client_secret_basic')
          ? 'client_secret_basic'
          : 'client_secret_post';
    const redirect = this.#options.redirectUri;
    const loopback =
      redirect !== undefined && /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(redirect);
    const document: Record<string, unknown> = {
      client_name: this.#options.clientName ?? 'palisade-mcp-client',
      redirect_uris: redirect === undefined ? [] : [redirect],
      grant_types:
        this.#options.grant === 'client_credentials'
          ? ['client_credentials']
          : ['authorization_code', 'refresh_token'],
      response_types: this.#options.grant === 'client_credentials' ? [] : ['code'],
      token_endpoint_auth_method: method,
      application_type: loopback || redirect === undefined ? 'native' : 'web',
    };
    const answer = await oauthJsonPost(outbound, server.registrationEndpoint as URL, document);
    const clientId = answer.json?.['client_id'];
    if ((answer.status !== 201 && answer.status !== 200) || typeof clientId !== 'string') {
      throw authError(
        'registration-refused',
        `dynamic registration was refused (HTTP ${answer.status}: ${oauthErrorCode(answer.json)})`,
      );
    }
    const secret = answer.json?.['client_secret'];
    const named = answer.json?.['token_endpoint_auth_method'];
    return {
      clientId,
      ...(typeof secret === 'string' ? { clientSecret: secret } : {}),
      ...(typeof named === 'string' ? { tokenEndpointAuthMethod: named } : {}),
    };
  }

  /** The browser step, and the checks on where it came back: `state`, then `iss` (RFC 9207), then the code. */
  async #authorizeInBrowser(
    session: Session,
    clientId: string,
    scope: string | undefined,
  ): Promise<{ code: string; verifier: string }> {
    const server = session.server;
    if (server.authorizationEndpoint === undefined) {
      throw authError('no-authorization-endpoint', 'the authorization server has no authorization endpoint');
    }
    const challenge = pkce();
    const state = newState();
    const url = new URL(server.authorizationEndpoint);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', clientId);
    url.searchParams.set('redirect_uri', this.#options.redirectUri as string);
    url.searchParams.set('code_challenge', challenge.challenge);
    url.searchParams.set('code_challenge_method', 'S256');
    url.searchParams.set('state', state);
    url.searchParams.set('resource', session.resource);
    if (scope !== undefined) url.searchParams.set('scope', scope);
    // OpenID Connect §11: offline access is asked for with prompt=consent, or the server drops it.
    if (scope?.split(' ').includes('offline_access')) url.searchParams.set('prompt', 'consent');
    let returned: URL;
    try {
      const answer = await (this.#options.authorize as Authorize)({
        url,
        redirectUri: this.#options.redirectUri as string,
      });
      returned = answer instanceof URL ? answer : new URL(answer);
    } catch (cause) {
      if (cause instanceof ClientError) throw cause;
      throw authError('authorize-failed', 'the browser step did not complete', cause);
    }
    const params = returned.searchParams;
    if (params.getAll('state').length !== 1 || params.get('state') !== state) {
      throw authError(
        'state-mismatch',
        'the authorization response does not carry the state the client sent',
      );
    }
    const iss = params.getAll('iss');
    // RFC 9207 §2.4: compared as sent, no normalization; advertised means required.
    if (iss.length > 1 || (iss.length === 1 && iss[0] !== server.issuer)) {
      throw authError(
        'iss-mismatch',
        'the authorization response names another issuer; it is ignored, errors included',
      );
    }
    if (iss.length === 0 && server.issParameterSupported) {
      throw authError(
        'iss-missing',
        'the authorization server promised an iss parameter and the response has none',
      );
    }
    const error = params.get('error');
    if (error !== null) {
      throw authError(
        'authorization-denied',
        `the authorization server answered ${/^[\x20-\x7e]{1,64}$/.test(error) ? error : 'an error'}`,
      );
    }
    const code = params.get('code');
    if (code === null || code.length === 0 || code.length > 4096)
      throw authError('no-code', 'the authorization response has no code');
    return { code, verifier: challenge.verifier };
  }

  async #tokenRequest(
    outbound: Outbound,
    session: Session,
    auth: TokenEndpointAuth,
    form: Record<string, string>,
    previous: StoredTokens | undefined,
  ): Promise<StoredTokens> {
    const headers: Record<string, string> = {};
    applyClientAuth(auth, session.server.issuer, form, headers);
    const answer = await oauthRequest(outbound, session.server.tokenEndpoint, {
      method: 'POST',
      headers,
      form,
    });
    const json = answer.json;
    const accessToken = json?.['access_token'];
    const tokenType = json?.['token_type'];
    if (
      answer.status !== 200 ||
      typeof accessToken !== 'string' ||
      accessToken.length === 0 ||
      accessToken.length > MAX_TOKEN_CHARS
    ) {
      throw authError(
        'token-refused',
        `the token endpoint refused (HTTP ${answer.status}: ${oauthErrorCode(json)})`,
      );
    }
    if (typeof tokenType !== 'string' || tokenType.toLowerCase() !== 'bearer') {
      throw authError('token-type', 'the token endpoint issued a token that is not a Bearer token');
    }
    const expiresIn = json?.['expires_in'];
    const refresh = json?.['refresh_token'];
    const scope = json?.['scope'];
    const tokens: StoredTokens = {
      accessToken,
      tokenType: 'Bearer',
      ...(typeof refresh === 'string'
        ? { refreshToken: refresh }
        : previous?.refreshToken === undefined
          ? {}
          : { refreshToken: previous.refreshToken }),
      ...(typeof expiresIn === 'number' && Number.isFinite(expiresIn) && expiresIn > 0
        ? { expiresAt: Date.now() + expiresIn * 1000 }
        : {}),
      ...(typeof scope === 'string'
        ? { scope }
        : form['scope'] === undefined
          ? {}
          : { scope: form['scope'] }),
    };
    this.#granted = tokens.scope ?? form['scope'];
    await this.#store.setTokens(session.server.issuer, session.resource, tokens);
    return tokens;
  }

  /** A refresh, rotating the refresh token; a refusal drops the tokens (the next 401 authorizes afresh). */
  async #refresh(
    outbound: Outbound,
    session: Session,
    tokens: StoredTokens,
  ): Promise<StoredTokens | undefined> {
    if (tokens.refreshToken === undefined) {
      await this.#store.setTokens(session.server.issuer, session.resource, undefined);
      return undefined;
    }
    try {
      const auth = await this.#identity(outbound, session.server);
      return await this.#tokenRequest(
        outbound,
        session,
        auth,
        { grant_type: 'refresh_token', refresh_token: tokens.refreshToken, resource: session.resource },
        tokens,
      );
    } catch {
      await this.#store.setTokens(session.server.issuer, session.resource, undefined);
      return undefined;
    }
  }
}

/** The server's URL as a resource indicator: no fragment, no query, no trailing slash on a bare origin. */
function canonicalResource(url: URL): string {
  const text = `${url.origin}${url.pathname}`;
  return url.pathname === '/' ? url.origin : text;
}

export function oauthClient(options: OAuthClientOptions): OAuthClient {
  return new OAuthClient(options);
}

export { oauthUrl };
