/**
 * What the checks read from a fetch `Request`. A `Headers` object is not the header block: names
 * come lower-cased and each name's lines are already joined with ", " (all but `Set-Cookie`), so
 * a repeat can no longer be told from one line holding a comma. Where that matters the handler
 * says so (fetch/handler.ts); here each name gets its one joined value, except the headers the
 * header–body match mirrors, whose joins are undone (below).
 */
import type { HeaderIndex } from '../headers/index.js';
import type { AuthorizeRequest } from '../http-options.js';

/**
 * `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*`: the headers the match
 * holds to the body (headers/match.ts), where a repeat is refused because an intermediary may read
 * only the first line. `Headers` joins two lines with ", ", so `us` and `eu` would reach the match
 * as the one value `us, eu` and agree with a body saying exactly that. Here ", " in one of them is
 * read as the repeat it may be (refused -32020 as the node handler refuses two lines); a client
 * whose value holds ", " sends it base64-encoded (`=?base64?…?=`), which never does.
 */
function isMirrored(name: string): boolean {
  return (
    name === 'mcp-protocol-version' ||
    name === 'mcp-method' ||
    name === 'mcp-name' ||
    name.startsWith('mcp-param-')
  );
}

/**
 * The request's headers as the checks index them. With no `Host` field (an HTTP/2 runtime puts
 * `:authority` in the URL instead), the URL's authority is the host checked.
 */
export function fetchHeaderIndex(headers: Headers, url: URL): HeaderIndex {
  const index = new Map<string, string[]>();
  for (const [name, value] of headers) {
    const lines = isMirrored(name) ? value.split(', ') : [value];
    const values = index.get(name);
    if (values === undefined) index.set(name, lines);
    else values.push(...lines);
  }
  if (!index.has('host')) index.set('host', [url.host]);
  return index;
}

/**
 * What `authorize` and `authorizeBody` see, shaped as for `node:http`: a frozen null-prototype
 * header record, `rawHeaders` as name/value pairs. A Request carries no peer address, so
 * `remoteAddress` is undefined: a host that needs it reads it from its runtime before calling us.
 */
export function fetchAuthorizeRequest(request: Request, index: HeaderIndex): AuthorizeRequest {
  const headers: Record<string, string> = Object.create(null);
  const rawHeaders: string[] = [];
  for (const [name, values] of index) {
    headers[name] = values.join(', ');
    for (const value of values) rawHeaders.push(name, value);
  }
  return Object.freeze({
    method: request.method,
    target: requestTarget(request.url),
    headers: Object.freeze(headers),
    rawHeaders: Object.freeze(rawHeaders),
    remoteAddress: undefined,
  });
}

/** The target as the node handler sees it: everything after the URL's authority. */
function requestTarget(url: string): string {
  const authority = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url);
  return authority === null ? url : url.slice(authority[0].length) || '/';
}
