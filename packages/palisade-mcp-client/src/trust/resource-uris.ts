/**
 * The trust boundary on the URIs a `resources/*` request carries to a stdio server, and on the
 * URIs a `resources/list` answer offers. A stdio server reads what it is asked to read with the
 * client's own rights, so a `file:` URI (unless `file://` is declared) or an http(s) URI on an
 * undeclared origin is an outbound request in all but name: it needs consent, and by default is
 * refused before a byte reaches the server. A URI in the server's own scheme (`demo://readme`)
 * names something of the server's and passes.
 */
import type { TrustBoundary } from './boundary.js';
import { originOf } from './origins.js';

/** The URL a resource URI reaches outside the server, or undefined for the server's own scheme. */
function outboundUrl(uri: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined; // not a URL: the server's own name for something
  }
  return url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'file:' ? url : undefined;
}

/** Resolves when `uri` may be sent; rejects with the boundary's refusal otherwise. */
export async function checkUri(boundary: TrustBoundary, uri: string): Promise<void> {
  const url = outboundUrl(uri);
  if (url !== undefined) await boundary.clear(url, {}, 'resource-uri');
}

/**
 * The URIs of a listing the boundary refuses. Each origin is put to the boundary once per
 * listing, not once per entry: a server listing ten thousand `file:` URIs asks the host's consent
 * handler one question, and a refusal of any kind (a denial, a throw) withholds them all.
 */
export async function refusedUris(boundary: TrustBoundary, uris: readonly string[]): Promise<Set<string>> {
  const byOrigin = new Map<string, { url: URL; uris: string[] }>();
  for (const uri of uris) {
    const url = outboundUrl(uri);
    if (url === undefined) continue;
    const origin = originOf(url);
    const group = byOrigin.get(origin);
    if (group === undefined) byOrigin.set(origin, { url, uris: [uri] });
    else group.uris.push(uri);
  }
  const refused = new Set<string>();
  for (const { url, uris: group } of byOrigin.values()) {
    try {
      await boundary.clear(url, {}, 'resource-uri');
    } catch {
      for (const uri of group) refused.add(uri);
    }
  }
  return refused;
}
