/**
 * The resource's canonical URI (RFC 8707 §2, MCP "Canonical Server URI") and the addresses
 * derived from it. It is the audience a token must name and the `resource` of the metadata
 * document; both compare it as a string, so it is held to one spelling at construction.
 */
import { invalidOption } from './errors.js';

/** The RFC 9728 §3 well-known suffix. */
export const WELL_KNOWN_SUFFIX = '/.well-known/oauth-protected-resource';

/**
 * `localhost`, 127.0.0.0/8 and `::1`: the only hosts an `http:` URL may name. Anything that leaves
 * the machine in clear text could be read or answered by someone on the path.
 */
export function isLoopbackHost(hostname: string): boolean {
  return (
    hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}

/** An `https:` URL, or `http:` on loopback; no userinfo. Returns the parsed URL. */
export function checkEndpoint(value: unknown, path: string): URL {
  if (typeof value !== 'string' || value.length === 0) throw invalidOption(path, 'must be a URL string');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidOption(path, 'must be an absolute URL');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw invalidOption(path, 'must be https (http only for localhost, 127.0.0.1 or ::1)');
  }
  if (url.username !== '' || url.password !== '') throw invalidOption(path, 'must not carry userinfo');
  return url;
}

/**
 * The canonical resource URI: an endpoint with no query and no fragment, written as the WHATWG
 * parser serializes it (lower-case scheme and host, no default port), with or without the `/` of
 * an empty path. Any other spelling would be a second name for the same server, and a token
 * minted for one would be refused by the other.
 */
export function checkResource(value: unknown, path: string): string {
  const url = checkEndpoint(value, path);
  const given = value as string;
  if (given.includes('#')) throw invalidOption(path, 'must not carry a fragment (RFC 8707 §2)');
  if (url.search !== '' || given.includes('?')) throw invalidOption(path, 'must not carry a query');
  const canonical = url.href;
  const bare = url.pathname === '/' ? canonical.slice(0, -1) : canonical;
  if (given !== canonical && given !== bare) {
    throw invalidOption(path, `must be written in canonical form: ${bare}`);
  }
  return given;
}

/**
 * The audiences that name this resource by default. A resource at an origin's root has two
 * spellings that are one URI (RFC 3986 §6.2.3: an empty http(s) path is `/`): MCP recommends the
 * bare one, and a client that passes the URL through a parser sends the other; a token naming
 * either is for this server. Any other path is compared exactly, as RFC 7519 compares `aud`.
 */
export function resourceSpellings(resource: string): string[] {
  const url = new URL(resource);
  return url.pathname === '/' ? [url.origin, `${url.origin}/`] : [resource];
}

/**
 * The metadata document's address for a resource (RFC 9728 §3.1): the well-known suffix inserted
 * between the host and the path, a terminating `/` after the host dropped. The 401 challenge
 * points here; a client that gets no challenge tries this, then the root form.
 */
export function metadataUrlOf(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === '/' ? '' : url.pathname;
  return `${url.origin}${WELL_KNOWN_SUFFIX}${path}`;
}

/** The paths a metadata document answers on: the path-suffixed form first, then the root form. */
export function metadataPathsOf(resource: string, root: boolean): readonly string[] {
  const suffixed = new URL(metadataUrlOf(resource)).pathname;
  return Object.freeze(root && suffixed !== WELL_KNOWN_SUFFIX ? [suffixed, WELL_KNOWN_SUFFIX] : [suffixed]);
}
