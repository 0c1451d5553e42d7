/**
 * What an IP address is, for the target policy: public, or one of the ranges a request from an
 * MCP client must not be turned against (its own machine, the network it sits in, the cloud
 * metadata service). IPv6 forms that carry an IPv4 address (mapped `::ffff:a.b.c.d` in either
 * spelling, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`, the deprecated compatible `::a.b.c.d`) are
 * judged by the IPv4 address inside. Anything that is not a canonical IPv4 or a valid IPv6
 * address (`0177.0.0.1`, `0x7f.1`, an empty string) is `invalid`: refused, never guessed at.
 */
import { isIPv4, isIPv6 } from 'node:net';

export type AddressClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'metadata'
  | 'unspecified'
  | 'reserved'
  | 'invalid';

function ipv4Bytes(text: string): number[] | undefined {
  if (!isIPv4(text)) return undefined;
  const parts = text.split('.').map(Number);
  return parts.length === 4 ? parts : undefined;
}

function classifyV4(b: readonly number[]): AddressClass {
  const [a = 0, c = 0, d = 0, e = 0] = b;
  if (a === 169 && c === 254 && d === 169 && e === 254) return 'metadata';
  if (a === 0) return 'unspecified';
  if (a === 127) return 'loopback';
  if (a === 10 || (a === 172 && c >= 16 && c <= 31) || (a === 192 && c === 168)) return 'private';
  if (a === 169 && c === 254) return 'link-local';
  if (a === 100 && c >= 64 && c <= 127) return 'private'; // shared address space (CGNAT)
  if (a === 192 && c === 0 && (d === 0 || d === 2)) return 'reserved'; // IETF, TEST-NET-1
  if (a === 198 && (c === 18 || c === 19)) return 'reserved'; // benchmarking
  if (a === 198 && c === 51 && d === 100) return 'reserved'; // TEST-NET-2
  if (a === 203 && c === 0 && d === 113) return 'reserved'; // TEST-NET-3
  if (a >= 224) return 'reserved'; // multicast, reserved, broadcast
  return 'public';
}

/** The 16 bytes of a valid IPv6 text (a zone id is dropped), or undefined. */
function ipv6Bytes(input: string): number[] | undefined {
  const text = input.includes('%') ? input.slice(0, input.indexOf('%')) : input;
  if (!isIPv6(text)) return undefined;
  let head = text;
  let tail: number[] = [];
  const lastColon = head.lastIndexOf(':');
  const dotted = head.slice(lastColon + 1);
  if (dotted.includes('.')) {
    const v4 = ipv4Bytes(dotted);
    if (v4 === undefined) return undefined;
    tail = v4;
    head = `${head.slice(0, lastColon + 1)}0:0`;
  }
  const halves = head.split('::');
  const words = (part: string | undefined): number[] =>
    part === undefined || part === '' ? [] : part.split(':').map((w) => Number.parseInt(w, 16));
  const left = words(halves[0]);
  const right = words(halves[1]);
  const fill = halves.length === 2 ? 8 - left.length - right.length : 0;
  const all = [...left, ...new Array<number>(fill).fill(0), ...right];
  if (all.length !== 8 || all.some((w) => !Number.isInteger(w) || w < 0 || w > 0xffff)) return undefined;
  const bytes = all.flatMap((w) => [w >> 8, w & 0xff]);
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

function classifyV6(b: readonly number[]): AddressClass {
  const zeroTo = (n: number): boolean => b.slice(0, n).every((x) => x === 0);
  const v4 = (): number[] => b.slice(12, 16);
  if (zeroTo(15) && b[15] === 1) return 'loopback';
  if (zeroTo(16)) return 'unspecified';
  if (zeroTo(10) && b[10] === 0xff && b[11] === 0xff) return classifyV4(v4()); // ::ffff:a.b.c.d
  if (zeroTo(12)) return classifyV4(v4()); // ::a.b.c.d (deprecated compatible form)
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b) return classifyV4(v4()); // NAT64
  if (b[0] === 0x20 && b[1] === 0x02) return classifyV4(b.slice(2, 6)); // 6to4
  const first = b[0] ?? 0;
  const second = b[1] ?? 0;
  // fd00:ec2::254, the IPv6 address of the AWS instance metadata service.
  if (
    first === 0xfd &&
    second === 0x00 &&
    b[2] === 0x0e &&
    b[3] === 0xc2 &&
    zeroToFrom(b, 4, 14) &&
    b[14] === 0x02 &&
    b[15] === 0x54
  )
    return 'metadata';
  if ((first & 0xfe) === 0xfc) return 'private'; // unique local fc00::/7
  if (first === 0xfe && (second & 0xc0) === 0x80) return 'link-local'; // fe80::/10
  if (first === 0xfe && (second & 0xc0) === 0xc0) return 'private'; // site-local fec0::/10 (deprecated)
  if (first === 0xff) return 'reserved'; // multicast
  if (first === 0x20 && second === 0x01 && b[2] === 0x0d && b[3] === 0xb8) return 'reserved'; // documentation
  if (first === 0x20 && second === 0x01 && b[2] === 0x00 && b[3] === 0x00) return 'reserved'; // Teredo
  if ((first & 0xe0) !== 0x20) return 'reserved'; // outside global unicast 2000::/3
  return 'public';
}

function zeroToFrom(b: readonly number[], from: number, to: number): boolean {
  for (let i = from; i < to; i += 1) if (b[i] !== 0) return false;
  return true;
}

/** The class of one address as a resolver or a URL gives it (IPv6 with or without brackets). */
export function classifyAddress(address: string): AddressClass {
  const text = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const v4 = ipv4Bytes(text);
  if (v4 !== undefined) return classifyV4(v4);
  const v6 = ipv6Bytes(text);
  if (v6 !== undefined) return classifyV6(v6);
  return 'invalid';
}

/** Whether a URL hostname is an IP literal (the URL parser has already canonicalised IPv4 spellings). */
export function isIpLiteral(hostname: string): boolean {
  const text = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIPv4(text) || isIPv6(text);
}
