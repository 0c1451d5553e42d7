/**
 * `trustedOrigins`: the origins the application declared, each exempt from credential stripping
 * and from consent. An entry is a host (`localhost`, `::1`, `*.example.com` for any subdomain at
 * any depth, never the apex), trusted over every scheme and port, or an exact origin
 * (`https://mcp.example.com`, `http://10.0.0.5:8080`) trusted on that scheme, host and port only.
 * `file://` trusts `file:` URIs (resources read over stdio). Entries are checked once, at
 * construction: a path, query, fragment, userinfo or a `*` anywhere but a leading `*.` label is
 * refused naming the entry's index, never widened.
 */
import { invalidOption } from '../errors.js';

export const DEFAULT_TRUSTED_ORIGINS: readonly string[] = Object.freeze(['localhost', '127.0.0.1', '::1']);

type Entry =
  | { readonly kind: 'host'; readonly host: string }
  | { readonly kind: 'suffix'; readonly suffix: string }
  | { readonly kind: 'origin'; readonly origin: string }
  | { readonly kind: 'file' };

export interface OriginMatcher {
  /** Whether `url` is on a declared origin. An unparsable URL never is. */
  trusts(url: URL): boolean;
}

const HOST = /^[a-z0-9.-]+$|^[0-9a-f:.]+$/;

function unbracket(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** `scheme://host[:port]` as the URL parser canonicalises it; `file://` for file URIs. */
export function originOf(url: URL): string {
  if (url.protocol === 'file:') return 'file://';
  if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin;
  return `${url.protocol}//${url.host}`;
}

function parseEntry(raw: unknown, index: number): Entry {
  const where = `trustedOrigins[${index}]`;
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 253 + 16) {
    throw invalidOption(where, 'must be a host or an origin (a non-empty string)');
  }
  const text = raw.trim().toLowerCase();
  if (text === 'file://') return { kind: 'file' };
  if (text.includes('://')) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw invalidOption(where, 'is not a URL an origin can be read from');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw invalidOption(where, 'must be an http or https origin, or file://');
    if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '')
      throw invalidOption(where, 'must be an origin alone: no userinfo, query or fragment');
    if (url.pathname !== '/' || !/^[a-z]+:\/\/[^/]+\/?$/.test(text))
      throw invalidOption(where, 'must be an origin alone: no path');
    if (url.hostname.includes('*'))
      throw invalidOption(where, 'takes no wildcard in an origin; use a host entry');
    return { kind: 'origin', origin: url.origin };
  }
  if (text.startsWith('*.')) {
    const suffix = text.slice(2);
    if (suffix.includes('*') || !HOST.test(suffix) || (!suffix.includes('.') && suffix.length === 0))
      throw invalidOption(where, 'must be "*." followed by a host');
    return { kind: 'suffix', suffix };
  }
  const host = unbracket(text);
  if (!HOST.test(host)) throw invalidOption(where, 'must be a host name or address, "*.host", or an origin');
  return { kind: 'host', host };
}

export function originMatcher(entries: readonly unknown[]): OriginMatcher {
  const parsed = entries.map(parseEntry);
  return {
    trusts(url: URL): boolean {
      if (url.protocol === 'file:') return parsed.some((entry) => entry.kind === 'file');
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
      if (url.username !== '' || url.password !== '') return false;
      const host = unbracket(url.hostname);
      return parsed.some((entry) => {
        switch (entry.kind) {
          case 'host':
            return host === entry.host;
          case 'suffix':
            return host.endsWith(`.${entry.suffix}`);
          case 'origin':
            return url.origin === entry.origin;
          default:
            return false;
        }
      });
    },
  };
}
