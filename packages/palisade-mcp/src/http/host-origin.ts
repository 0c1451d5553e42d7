/**
 * DNS-rebinding and cross-origin defences, decided on the header lines themselves (`rawHeaders`):
 * `req.headers` keeps only the first `Host` and so would hide a second one that a proxy in front
 * of us might have read instead. The one header value returned is the refused Host, quoted, escaped
 * and cut, for the host's log only (`refusedHostReason`).
 */
import { MAX_LOGGED_HOST_CHARS } from '../limits.js';
import { quoted } from '../quote.js';
import { asciiLowerCase, type HeaderIndex, trimOws, valuesOf } from './headers/index.js';
import { normalizeHostName } from './http-options.js';

export type HostVerdict = 'ok' | 'repeated' | 'not-allowed';

/** What may follow the name in `Host`: nothing, or `:` and a port of 1 to 5 digits. */
const PORT = /^:[0-9]{1,5}$/;

/**
 * The host name of a `Host` value, port removed: `[::1]:8080` → `::1`, `Example.COM:80` →
 * `example.com`. Anything else after the name (`[::1]evil.example`, `localhost:evil.example`,
 * `127.0.0.1:`) gives '', which no list holds: a proxy reading the whole value would see
 * another name than the one we admitted.
 */
export function hostName(value: string): string {
  // Spaces and tabs only: `trim` would also drop a no-break space (0xA0), which is part of the value.
  const text = trimOws(value);
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close === -1) return normalizeHostName(text);
    const rest = text.slice(close + 1);
    return rest === '' || PORT.test(rest) ? normalizeHostName(text.slice(0, close + 1)) : '';
  }
  const colon = text.indexOf(':');
  // More than one colon without brackets is no host:port; it is compared whole.
  if (colon !== -1 && text.indexOf(':', colon + 1) === -1)
    return PORT.test(text.slice(colon)) ? normalizeHostName(text.slice(0, colon)) : '';
  return normalizeHostName(text);
}

/** `scheme://authority`, the start of an absolute-form request target (RFC 9112 §3.2.2). */
const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)/;

/** The authority of an absolute-form request target; undefined for origin-form (`/mcp`) or `*`. */
export function targetAuthority(target: string | undefined): string | undefined {
  return target === undefined ? undefined : ABSOLUTE_FORM.exec(target)?.[1];
}

/**
 * The path of a request target as it was sent, before any query: origin-form as it is, absolute-form
 * after its authority. Nothing is resolved: `/x/../mcp` and `/x/%2e%2e/mcp` are other paths than
 * `/mcp`, as they are to a proxy in front that routes or blocks by prefix.
 */
export function targetPath(target: string): string {
  const absolute = ABSOLUTE_FORM.exec(target);
  const path = absolute === null ? target : target.slice(absolute[0].length);
  const query = path.indexOf('?');
  return query === -1 ? path : path.slice(0, query);
}

/**
 * Whether a target's authority names another host than the one `Host` line (ports aside), or no
 * readable host at all. RFC 9112 §3.2.2 has a server ignore `Host` for an absolute-form target; a
 * proxy in front may route by either, so when the two disagree nobody can say which host was asked
 * for, and the request is refused rather than judged by the one we happen to read. Two Host lines
 * are checkHost's.
 */
export function targetDisagrees(authority: string | undefined, headers: HeaderIndex): boolean {
  if (authority === undefined) return false;
  const target = hostName(authority);
  // A target naming no readable host agrees with nothing: not with a Host line unreadable too,
  // and not with an absent one (HTTP/1.0), where nothing else would look at it under 'any'.
  if (target === '') return true;
  const hosts = valuesOf(headers, 'host');
  return hosts.length === 1 && target !== hostName(hosts[0]!);
}

export function checkHost(headers: HeaderIndex, allowed: ReadonlySet<string> | undefined): HostVerdict {
  const values = valuesOf(headers, 'host');
  if (values.length > 1) return 'repeated';
  if (allowed === undefined) return 'ok';
  const value = values[0];
  if (value === undefined) return 'not-allowed';
  return allowed.has(hostName(value)) ? 'ok' : 'not-allowed';
}

/**
 * HTTP/2: the target authority is `:authority`; a `host` field may also be present and must then
 * name the same authority, or a proxy reading one and us the other would disagree on the target.
 */
export function checkAuthority(
  authority: string | undefined,
  headers: HeaderIndex,
  allowed: ReadonlySet<string> | undefined,
): HostVerdict | 'mismatch' {
  const hosts = valuesOf(headers, 'host');
  if (hosts.length > 1) return 'repeated';
  const host = hosts[0];
  if (
    authority !== undefined &&
    host !== undefined &&
    asciiLowerCase(trimOws(host)) !== asciiLowerCase(authority)
  ) {
    return 'mismatch';
  }
  const target = authority ?? host;
  if (allowed === undefined) return 'ok';
  if (target === undefined) return 'not-allowed';
  return allowed.has(hostName(target)) ? 'ok' : 'not-allowed';
}

/**
 * The host's log line for a refused Host: which name was refused, quoted, escaped and cut to
 * MAX_LOGGED_HOST_CHARS (the value is the client's), or that there was none.
 */
export function refusedHostReason(value: string | undefined): string {
  return value === undefined
    ? 'no Host header'
    : `Host ${quoted(value, MAX_LOGGED_HOST_CHARS)} is not in allowedHosts`;
}

/** An absent Origin is admitted (non-browser clients send none); there is no "same as Host" fallback. */
export function originAllowed(headers: HeaderIndex, allowed: ReadonlySet<string> | undefined): boolean {
  const lines = valuesOf(headers, 'origin');
  if (lines.length === 0) return true;
  // ASCII case only: `toLowerCase` folds the Kelvin sign to `k`, and trim drops 0xA0 (headers/values.ts).
  const values = lines.map((value) => asciiLowerCase(trimOws(value)));
  const first = values[0]!;
  // Two lines that disagree could be read either way by whoever sits in front of us.
  if (values.some((value) => value !== first)) return false;
  return allowed === undefined || allowed.has(first);
}
