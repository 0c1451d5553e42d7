/**
 * RFC 9728 protected-resource metadata: the document a client reads, after a 401 or by probing
 * the well-known paths, to learn which authorization server issues tokens for this resource.
 * Built and frozen once; answered on the path-suffixed well-known path the spec derives from the
 * resource, and on the root form. It is public, read-only and carries no credential, so any
 * origin may read it (`Access-Control-Allow-Origin: *`): a browser client must, before it holds
 * a token. Served by `serve({ routes })` beside the MCP endpoint (`routes`), mounted on
 * `node:http` and Connect-style apps (`node`), or on any fetch runtime (`fetch`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServeRoute } from 'palisade-mcp/http';
import { invalidOption } from '../errors.js';
import {
  optionalBoolean,
  optionalInteger,
  refuseUnknownKeys,
  requireObject,
  requireString,
  scopeList,
} from '../option-checks.js';
import { checkEndpoint, checkResource, metadataPathsOf, metadataUrlOf } from '../resource.js';

export interface ProtectedResourceMetadataOptions {
  /** This MCP server's canonical URI, exactly as `bearer()` is given it. */
  readonly resource: string;
  /** The issuer identifiers of the authorization servers (at least one). */
  readonly authorizationServers: readonly string[];
  /** `scopes_supported`: the scopes a client should ask for to use this server at all. */
  readonly scopesSupported?: readonly string[];
  /** `resource_name`, for people. */
  readonly resourceName?: string;
  /** `resource_documentation`, an https URL. */
  readonly resourceDocumentation?: string;
  /** Answer on the root well-known path too. Default true; turn off when one origin serves several resources. */
  readonly root?: boolean;
  /** `Cache-Control: max-age` in seconds. Default 300. */
  readonly maxAgeSeconds?: number;
}

/** What to send, for any runtime to write. */
export interface MetadataAnswer {
  readonly status: 200 | 204 | 405;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
}

export interface ProtectedResourceMetadata {
  /** The frozen document. */
  readonly document: Readonly<Record<string, unknown>>;
  /** The document's address, as 401 challenges name it. */
  readonly url: string;
  /** The paths answered: the path-suffixed form, then the root form. */
  readonly paths: readonly string[];
  /** The answer for a method on a path, or undefined when the path is not one of ours. */
  answer(method: string, path: string): MetadataAnswer | undefined;
  /**
   * A `node:http` listener step and Connect/Express middleware: answers and returns true on our
   * paths; elsewhere calls `next` when given and returns false.
   */
  node(req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): boolean;
  /** A fetch runtime's handler: the Response on our paths, undefined elsewhere. */
  fetch(request: Request): Response | undefined;
  /**
   * For `serve(server, { ..., routes: metadata.routes })`: each path, public (`origins: 'any'`, a
   * preflight may send `MCP-Protocol-Version`), answering the document. The server applies its
   * Host check, the methods and CORS itself.
   */
  readonly routes: Readonly<Record<string, ServeRoute>>;
}

const KEYS = [
  'resource',
  'authorizationServers',
  'scopesSupported',
  'resourceName',
  'resourceDocumentation',
  'root',
  'maxAgeSeconds',
];

/** `MCP-Protocol-Version` is sent by clients on this fetch; a browser preflights for it. */
const PREFLIGHT = Object.freeze({
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, HEAD, OPTIONS',
  'access-control-allow-headers': 'mcp-protocol-version',
  'access-control-max-age': '600',
});

export function protectedResourceMetadata(
  options: ProtectedResourceMetadataOptions,
): ProtectedResourceMetadata {
  const given = requireObject(options, 'metadata options');
  refuseUnknownKeys(given, KEYS, '');
  if (given['resource'] === undefined)
    throw invalidOption('resource', "is required: this server's canonical URI");
  const resource = checkResource(given['resource'], 'resource');
  const servers = given['authorizationServers'];
  if (!Array.isArray(servers) || servers.length === 0) {
    throw invalidOption(
      'authorizationServers',
      'must list at least one issuer (MCP requires authorization_servers)',
    );
  }
  const document: Record<string, unknown> = {
    resource,
    authorization_servers: servers.map((server, index) => {
      const path = `authorizationServers[${index}]`;
      const url = checkEndpoint(server, path);
      if (url.search !== '' || url.hash !== '') throw invalidOption(path, 'must have no query or fragment');
      return server as string;
    }),
  };
  if (given['scopesSupported'] !== undefined) {
    document['scopes_supported'] = scopeList(given['scopesSupported'], 'scopesSupported');
  }
  // RFC 6750 §2.1 only: MCP forbids the query (RFC 6750 §2.3), and bearer() refuses the form body.
  document['bearer_methods_supported'] = ['header'];
  if (given['resourceName'] !== undefined)
    document['resource_name'] = requireString(given['resourceName'], 'resourceName');
  if (given['resourceDocumentation'] !== undefined) {
    document['resource_documentation'] = checkEndpoint(
      given['resourceDocumentation'],
      'resourceDocumentation',
    ).href;
  }
  const root = optionalBoolean(given['root'], 'root', true);
  const maxAge = optionalInteger(given['maxAgeSeconds'], 'maxAgeSeconds', 0, 86_400, 300);
  const body = JSON.stringify(document);
  const paths = metadataPathsOf(resource, root);
  const found = Object.freeze({
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': `public, max-age=${maxAge}`,
    'x-content-type-options': 'nosniff',
    'access-control-allow-origin': '*',
  });

  const answer = (method: string, path: string): MetadataAnswer | undefined => {
    if (!paths.includes(path)) return undefined;
    if (method === 'GET') return { status: 200, headers: found, body };
    if (method === 'HEAD') return { status: 200, headers: found, body: undefined };
    if (method === 'OPTIONS') return { status: 204, headers: PREFLIGHT, body: undefined };
    return {
      status: 405,
      headers: { allow: 'GET, HEAD, OPTIONS', 'access-control-allow-origin': '*', 'content-length': '0' },
      body: undefined,
    };
  };

  const documentHeaders = Object.freeze({
    'content-type': 'application/json',
    'cache-control': `public, max-age=${maxAge}`,
    'x-content-type-options': 'nosniff',
  });
  const route: ServeRoute = Object.freeze({
    origins: 'any',
    allowHeaders: Object.freeze(['mcp-protocol-version']),
    get: () => ({ status: 200 as const, headers: documentHeaders, body }),
  });

  return Object.freeze({
    document: Object.freeze(document),
    routes: Object.freeze(Object.fromEntries(paths.map((path) => [path, route]))),
    url: metadataUrlOf(resource),
    paths,
    answer,
    node(req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): boolean {
      const target = req.url ?? '';
      const query = target.indexOf('?');
      const reply = answer(req.method ?? '', query === -1 ? target : target.slice(0, query));
      if (reply === undefined) {
        next?.();
        return false;
      }
      res.writeHead(reply.status, reply.headers);
      res.end(reply.body);
      return true;
    },
    fetch(request: Request): Response | undefined {
      const reply = answer(request.method, new URL(request.url).pathname);
      if (reply === undefined) return undefined;
      return new Response(reply.body ?? null, { status: reply.status, headers: reply.headers });
    },
  });
}
