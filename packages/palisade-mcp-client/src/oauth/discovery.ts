/**
 * Finding the authorization server, as the MCP authorization spec orders it. Protected resource
 * metadata (RFC 9728): the `resource_metadata` a 401 names, else the path-based well-known URL,
 * else the root one; its `resource` must name the server the client is talking to (same origin,
 * a prefix of its path), or the flow stops. Authorization server metadata: RFC 8414 first, then
 * OpenID discovery, in the spec's order for an issuer with and without a path; the `issuer` in
 * the document must be exactly the one asked about, and it must offer PKCE with S256. Every
 * fetch goes through the outbound path; a document pointing at a host the target policy refuses
 * stops at that host, with nothing sent.
 */
import { ClientError } from '../errors.js';
import type { Outbound } from '../net/outbound.js';
import { isPlainObject } from '../options.js';
import { authError, oauthRequest, oauthUrl } from './http.js';

export interface ResourceMetadata {
  readonly resource: string;
  readonly authorizationServers: readonly string[];
  readonly scopesSupported: readonly string[] | undefined;
}

export interface ServerMetadata {
  readonly issuer: string;
  readonly authorizationEndpoint: URL | undefined;
  readonly tokenEndpoint: URL;
  readonly registrationEndpoint: URL | undefined;
  readonly scopesSupported: readonly string[] | undefined;
  readonly tokenEndpointAuthMethods: readonly string[] | undefined;
  readonly cimdSupported: boolean;
  readonly issParameterSupported: boolean;
  readonly grantTypes: readonly string[] | undefined;
}

function strings(value: unknown): readonly string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === 'string')
    ? (value as string[])
    : undefined;
}

/** Whether `resource` names the server at `server`: same origin, and a prefix of its path. */
export function resourceMatches(resource: string, server: URL): boolean {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    return false;
  }
  if (url.origin !== server.origin || url.hash !== '' || url.search !== '') return false;
  const prefix = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
  return server.pathname === url.pathname || `${server.pathname}/`.startsWith(prefix);
}

/** The well-known URLs for a resource's metadata, path-based first. */
export function resourceMetadataUrls(server: URL): URL[] {
  const path = server.pathname === '/' ? '' : server.pathname.replace(/\/$/, '');
  const urls = [new URL(`/.well-known/oauth-protected-resource${path}`, server.origin)];
  if (path !== '') urls.push(new URL('/.well-known/oauth-protected-resource', server.origin));
  return urls;
}

/** The well-known URLs for an issuer's metadata, in the spec's order. */
export function serverMetadataUrls(issuer: URL): URL[] {
  const path = issuer.pathname === '/' ? '' : issuer.pathname.replace(/\/$/, '');
  if (path === '') {
    return [
      new URL('/.well-known/oauth-authorization-server', issuer.origin),
      new URL('/.well-known/openid-configuration', issuer.origin),
    ];
  }
  return [
    new URL(`/.well-known/oauth-authorization-server${path}`, issuer.origin),
    new URL(`/.well-known/openid-configuration${path}`, issuer.origin),
    new URL(`${path}/.well-known/openid-configuration`, issuer.origin),
  ];
}

async function firstDocument(
  outbound: Outbound,
  urls: readonly URL[],
): Promise<Record<string, unknown> | undefined> {
  for (const url of urls) {
    const answer = await oauthRequest(outbound, url, { method: 'GET', follow: true });
    if (answer.status === 200 && answer.json !== undefined) return answer.json;
    // 4xx: not here; try the next place. 5xx and the rest too: the spec lists places, not a verdict.
  }
  return undefined;
}

export async function discoverResource(
  outbound: Outbound,
  server: URL,
  hinted: string | undefined,
): Promise<ResourceMetadata | undefined> {
  const urls =
    hinted !== undefined ? [oauthUrl(hinted, 'resource_metadata URL')] : resourceMetadataUrls(server);
  const document = await firstDocument(outbound, urls);
  if (document === undefined) return undefined;
  const resource = document['resource'];
  const servers = strings(document['authorization_servers']);
  if (typeof resource !== 'string' || servers === undefined || servers.length === 0) {
    throw authError(
      'resource-metadata-invalid',
      'the protected resource metadata names no resource or authorization server',
    );
  }
  if (!resourceMatches(resource, server)) {
    throw authError(
      'resource-mismatch',
      'the protected resource metadata names another resource than the server the client is talking to',
    );
  }
  return { resource, authorizationServers: servers, scopesSupported: strings(document['scopes_supported']) };
}

export function readServerMetadata(document: Record<string, unknown>, issuer: string): ServerMetadata {
  if (document['issuer'] !== issuer) {
    throw authError(
      'issuer-mismatch',
      'the authorization server metadata names another issuer than the one it was fetched for',
    );
  }
  const methods = strings(document['code_challenge_methods_supported']);
  if (methods === undefined || !methods.includes('S256')) {
    throw authError(
      'pkce-unsupported',
      'the authorization server does not advertise PKCE with S256, so the client will not use it',
    );
  }
  const optional = (key: string, what: string): URL | undefined =>
    document[key] === undefined ? undefined : oauthUrl(document[key], what);
  return {
    issuer,
    authorizationEndpoint: optional('authorization_endpoint', 'authorization endpoint'),
    tokenEndpoint: oauthUrl(document['token_endpoint'], 'token endpoint'),
    registrationEndpoint: optional('registration_endpoint', 'registration endpoint'),
    scopesSupported: strings(document['scopes_supported']),
    tokenEndpointAuthMethods: strings(document['token_endpoint_auth_methods_supported']),
    cimdSupported: document['client_id_metadata_document_supported'] === true,
    issParameterSupported: document['authorization_response_iss_parameter_supported'] === true,
    grantTypes: strings(document['grant_types_supported']),
  };
}

export async function discoverServer(
  outbound: Outbound,
  issuer: string,
): Promise<ServerMetadata | undefined> {
  const document = await firstDocument(
    outbound,
    serverMetadataUrls(oauthUrl(issuer, 'authorization server')),
  );
  if (document === undefined) return undefined;
  if (!isPlainObject(document))
    throw authError('server-metadata-invalid', 'the authorization server metadata is not an object');
  return readServerMetadata(document, issuer);
}

/** 2025-03-26 only: no metadata anywhere, so the endpoints its spec names at the server's root. */
export function fallbackServer(server: URL): ServerMetadata {
  return {
    issuer: server.origin,
    authorizationEndpoint: new URL('/authorize', server.origin),
    tokenEndpoint: new URL('/token', server.origin),
    registrationEndpoint: new URL('/register', server.origin),
    scopesSupported: undefined,
    tokenEndpointAuthMethods: undefined,
    cimdSupported: false,
    issParameterSupported: false,
    grantTypes: undefined,
  };
}

export function isAuthError(error: unknown): error is ClientError {
  return error instanceof ClientError && error.code === 'PALISADE_CLIENT_ERR_AUTH';
}
