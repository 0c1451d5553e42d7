/**
 * A `WWW-Authenticate` header read for its Bearer challenge's parameters (RFC 6750 §3, RFC 9728
 * §5.1): `resource_metadata`, `scope`, `error`. Bounded: the header is read up to 8 KiB, values
 * as RFC 9110 quoted strings or tokens; anything else ends the reading rather than guessing.
 */

export interface BearerChallenge {
  readonly resourceMetadata?: string;
  readonly scope?: string;
  readonly error?: string;
}

const MAX_HEADER_CHARS = 8_192;

export function readBearerChallenge(header: string | undefined): BearerChallenge {
  if (header === undefined) return {};
  const text = header.slice(0, MAX_HEADER_CHARS);
  const start = text.search(/(^|[\s,])Bearer(\s|$)/i);
  if (start < 0) return {};
  const params: Record<string, string> = {};
  const re = /\s*,?\s*([A-Za-z0-9_-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([!#$%&'*+.^_`|~0-9A-Za-z:/-]+))/y;
  re.lastIndex = text.indexOf('Bearer', start) + 'Bearer'.length;
  for (let match = re.exec(text); match !== null; match = re.exec(text)) {
    const name = (match[1] ?? '').toLowerCase();
    const value = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : (match[3] ?? '');
    if (!Object.hasOwn(params, name)) params[name] = value;
  }
  return {
    ...(params['resource_metadata'] === undefined ? {} : { resourceMetadata: params['resource_metadata'] }),
    ...(params['scope'] === undefined ? {} : { scope: params['scope'] }),
    ...(params['error'] === undefined ? {} : { error: params['error'] }),
  };
}
