/**
 * DNS-rebinding and cross-origin defences, decided on the header lines themselves (`rawHeaders`):
 * `req.headers` keeps only the first `Host` and so would hide a second one that a proxy in front
 * of us might have read instead. Nothing here returns or logs a header value.
 */
import { type HeaderIndex, valuesOf } from './header-values.js';
import { normalizeHostName } from './http-options.js';

export type HostVerdict = 'ok' | 'repeated' | 'not-allowed';

/** The host name of a `Host` value, port removed: `[::1]:8080` → `::1`, `Example.COM:80` → `example.com`. */
export function hostName(value: string): string {
  const text = value.trim();
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    return normalizeHostName(close === -1 ? text : text.slice(0, close + 1));
  }
  const colon = text.indexOf(':');
  // More than one colon without brackets is no host:port; it is compared whole (and will not match).
  if (colon !== -1 && text.indexOf(':', colon + 1) === -1) return normalizeHostName(text.slice(0, colon));
  return normalizeHostName(text);
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
    host.trim().toLowerCase() !== authority.toLowerCase()
  ) {
    return 'mismatch';
  }
  const target = authority ?? host;
  if (allowed === undefined) return 'ok';
  if (target === undefined) return 'not-allowed';
  return allowed.has(hostName(target)) ? 'ok' : 'not-allowed';
}

/** An absent Origin is admitted (non-browser clients send none); there is no "same as Host" fallback. */
export function originAllowed(headers: HeaderIndex, allowed: ReadonlySet<string> | undefined): boolean {
  const lines = valuesOf(headers, 'origin');
  if (lines.length === 0) return true;
  const values = lines.map((value) => value.trim().toLowerCase());
  const first = values[0]!;
  // Two lines that disagree could be read either way by whoever sits in front of us.
  if (values.some((value) => value !== first)) return false;
  return allowed === undefined || allowed.has(first);
}
