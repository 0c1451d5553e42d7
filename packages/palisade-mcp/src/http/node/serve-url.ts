/**
 * The URL `serve()` reports. Bound to one address, it names that address. Bound to every interface
 * (`0.0.0.0`, `::`), the address as written is not one a client can dial, so the URL names a host
 * that reaches the server and that its Host rule admits: a loopback address or `localhost` when
 * allowedHosts admits one, else the first name in allowedHosts.
 */
import type { AddressInfo } from 'node:net';
import { normalizeHostName } from '../http-options.js';

const EVERY_INTERFACE: Readonly<Record<string, readonly string[]>> = {
  '0.0.0.0': ['127.0.0.1', 'localhost'],
  // Node listens on `::` dual-stack unless told otherwise, so IPv4 loopback reaches it too.
  '::': ['::1', '127.0.0.1', 'localhost'],
};

/** Whether an address is the unspecified one, on which a server listens on every interface. */
export function isEveryInterface(address: string): boolean {
  return EVERY_INTERFACE[address] !== undefined;
}

export function servingUrl(
  scheme: 'http' | 'https',
  address: AddressInfo,
  allowedHosts: readonly string[] | 'any',
): string {
  const loopback = EVERY_INTERFACE[address.address];
  let host = address.address;
  if (loopback !== undefined) {
    const admitted = allowedHosts === 'any' ? undefined : allowedHosts.map(normalizeHostName);
    host =
      loopback.find((name) => admitted === undefined || admitted.includes(name)) ??
      admitted?.[0] ??
      loopback[0]!;
  }
  return `${scheme}://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}
