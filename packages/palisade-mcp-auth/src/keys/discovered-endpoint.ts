/**
 * The rule for an endpoint an issuer's metadata names (`jwks_uri`, `introspection_endpoint`). The
 * document came over TLS from the issuer and named the issuer exactly, so another origin is
 * allowed (Google's keys live on another host than its issuer). What it may not do is turn this
 * server against its own network: it must be `https` (plain `http` only between loopback
 * addresses, for a local issuer), never on a link-local, unspecified or multicast address (where
 * cloud metadata services answer, and no authorization server lives), and on loopback only when
 * the issuer is itself on loopback. Private ranges are allowed: an organisation's own
 * authorization server lives there. Only literal addresses are judged; a name is resolved by the
 * runtime when fetched, and a host that wants no discovery at all pins `jwksUri`.
 */
import { isLoopbackHost } from '../resource.js';

export type Discovered = URL | undefined | { readonly refused: string };

type Place = 'nowhere' | 'loopback' | 'elsewhere';

/** An IPv4 address by its first octets: 0/8, 169.254/16, and 224.0.0.0 up (multicast, reserved) lead nowhere. */
function placeOfIpv4(a: number, b: number): Place {
  if (a === 0 || (a === 169 && b === 254) || a >= 224) return 'nowhere';
  return a === 127 ? 'loopback' : 'elsewhere';
}

/**
 * A URL's host as the WHATWG parser writes it, which is what makes this short: IPv4 in any
 * spelling (`2852039166`, `0251.0376.0251.0376`) comes out dotted-decimal, and IPv6 comes out
 * compressed, lower-case, with an embedded IPv4 address in hex. Names are `elsewhere` unless
 * RFC 6761 §6.3 reserves them for loopback.
 */
function placeOf(hostname: string): Place {
  const v4 = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(hostname);
  if (v4 !== null) return placeOfIpv4(Number(v4[1]), Number(v4[2]));
  if (!hostname.startsWith('[')) {
    const name = hostname.replace(/\.$/, '');
    return name === 'localhost' || name.endsWith('.localhost') ? 'loopback' : 'elsewhere';
  }
  const [head = '', tail] = hostname.slice(1, -1).split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const words = [...left, ...Array(8 - left.length - right.length).fill('0'), ...right].map((word) =>
    Number.parseInt(word, 16),
  );
  const [w0 = 0, w1 = 0, w2 = 0, w3 = 0, w4 = 0, w5 = 0, w6 = 0, w7 = 0] = words;
  const zeroTo4 = w0 === 0 && w1 === 0 && w2 === 0 && w3 === 0 && w4 === 0;
  if (zeroTo4 && w5 === 0 && w6 === 0 && (w7 === 0 || w7 === 1)) return w7 === 0 ? 'nowhere' : 'loopback';
  if ((w0 & 0xffc0) === 0xfe80 || w0 >> 8 === 0xff) return 'nowhere';
  // IPv4 carried in IPv6: mapped (::ffff:0:0/96), compatible (::/96), NAT64 (64:ff9b::/96).
  const mapped = zeroTo4 && (w5 === 0xffff || w5 === 0);
  const nat64 = w0 === 0x64 && w1 === 0xff9b && w2 === 0 && w3 === 0 && w4 === 0 && w5 === 0;
  if (mapped || nat64) return placeOfIpv4(w6 >> 8, w6 & 0xff);
  return 'elsewhere';
}

/** Loopback by address (IPv4 carried in IPv6 included) or by the names reserved for it. */
export function onLoopback(hostname: string): boolean {
  return placeOf(hostname.toLowerCase()) === 'loopback';
}

export function discoveredEndpoint(value: unknown, issuer: URL): Discovered {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') return { refused: 'names an endpoint that is not a URL string' };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { refused: 'names an endpoint that is not a URL' };
  }
  if (url.username !== '' || url.password !== '') return { refused: 'names an endpoint with userinfo' };
  const issuerLocal = onLoopback(issuer.hostname);
  const local = onLoopback(url.hostname);
  const secure =
    url.protocol === 'https:' || (url.protocol === 'http:' && local && isLoopbackHost(issuer.hostname));
  if (!secure) return { refused: 'names an endpoint that is not https' };
  if (placeOf(url.hostname) === 'nowhere') {
    return { refused: 'names an endpoint on a link-local, unspecified or multicast address' };
  }
  if (local && !issuerLocal)
    return { refused: 'names a loopback endpoint for an issuer that is not on loopback' };
  return url;
}
