/**
 * The bearer token of one request, read from exactly one `Authorization` header (RFC 6750 §2.1).
 * Its length is checked before any pattern runs, so a megabyte of header costs one comparison.
 */
import type { AuthorizeRequest } from 'palisade-mcp/http';
import { RULES, type Rule } from './rules.js';

export type Credential =
  | { readonly kind: 'token'; readonly token: string }
  | { readonly kind: 'refused'; readonly rule: Rule };

/** RFC 6750 §2.1 `b64token`; the scheme is case-insensitive (RFC 9110 §11.1), then one or more spaces. */
const BEARER = /^bearer +([A-Za-z0-9\-._~+/]+=*)$/i;
/** The longest scheme and separator a token may follow, counted into the length bound. */
const SCHEME_ALLOWANCE = 16;

/**
 * The request's token, or the rule refusing it. Node keeps one `authorization` value and drops
 * repeats from `headers`, so the lines are counted in `rawHeaders`; a fetch runtime joins them
 * into one value holding `, `, which the token grammar refuses.
 */
export function readCredential(request: AuthorizeRequest, maxTokenBytes: number): Credential {
  if (queryCarriesToken(request.target)) return { kind: 'refused', rule: RULES.tokenInQuery };
  let lines = 0;
  let value: string | undefined;
  const raw = request.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as string;
    if (name.length === 13 && name.toLowerCase() === 'authorization') {
      lines += 1;
      value = raw[i + 1];
    }
  }
  if (lines > 1) return { kind: 'refused', rule: RULES.headerRepeated };
  if (value === undefined) return { kind: 'refused', rule: RULES.missing };
  if (value.length > maxTokenBytes + SCHEME_ALLOWANCE) return { kind: 'refused', rule: RULES.tooLarge };
  const found = BEARER.exec(value);
  if (found === null) {
    const scheme = /^([A-Za-z0-9!#$%&'*+.^_`|~-]+)(?: |$)/.exec(value)?.[1];
    if (scheme !== undefined && scheme.toLowerCase() !== 'bearer')
      return { kind: 'refused', rule: RULES.otherScheme };
    return { kind: 'refused', rule: RULES.headerMalformed };
  }
  const token = found[1] as string;
  if (token.length > maxTokenBytes) return { kind: 'refused', rule: RULES.tooLarge };
  return { kind: 'token', token };
}

/**
 * Whether the target's query names `access_token` (RFC 6750 §2.3), however it is encoded. The
 * handler never reads the query, so without this a token sent there would simply be ignored,
 * and a client that also sent the header would pass while leaking its token into every log.
 */
export function queryCarriesToken(target: string): boolean {
  const at = target.indexOf('?');
  if (at === -1) return false;
  const hash = target.indexOf('#', at);
  const query = target.slice(at + 1, hash === -1 ? undefined : hash);
  if (!/access_token|%/i.test(query)) return false;
  for (const name of new URLSearchParams(query).keys()) {
    if (name === 'access_token') return true;
  }
  return false;
}
