/**
 * The target policy: which resolved addresses a connection may go to. An origin the application
 * did not declare must resolve to public addresses only, every one of them (one private answer
 * in the set refuses the whole request), unless its host is named in `allowPrivateHosts` (then
 * private and unique-local answers pass, nothing else). A declared origin may reach loopback and
 * private networks (that is what declaring it says) but never link-local, the cloud metadata
 * service, an unspecified or an unreadable address: declaring `*.example.com` does not let one
 * of its names be pointed at 169.254.169.254.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { ClientError } from '../errors.js';
import { DNS_TIMEOUT_MS } from '../limits.js';
import { type AddressClass, classifyAddress } from './addresses.js';

export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Every address a host name resolves to. Injectable: a host's own DNS, or a test's. */
export type Resolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => {
  const timer = AbortSignal.timeout(DNS_TIMEOUT_MS);
  const answers = await Promise.race([
    dnsLookup(hostname, { all: true, verbatim: true }),
    new Promise<never>((_, reject) =>
      timer.addEventListener('abort', () =>
        reject(
          new ClientError(
            'PALISADE_CLIENT_ERR_TARGET_REFUSED',
            `DNS lookup did not answer within ${DNS_TIMEOUT_MS} ms`,
            { rule: 'dns-timeout' },
          ),
        ),
      ),
    ),
  ]);
  return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }));
};

export interface TargetPolicy {
  /** Exact host names whose private answers an undeclared origin may reach. */
  readonly allowPrivateHosts: ReadonlySet<string>;
}

const TRUSTED_REFUSED: ReadonlySet<AddressClass> = new Set([
  'link-local',
  'metadata',
  'unspecified',
  'invalid',
]);

/** The class that refuses `address` for a request to `hostname`, or undefined when it may be reached. */
export function refusedClass(
  policy: TargetPolicy,
  hostname: string,
  address: string,
  trusted: boolean,
): AddressClass | undefined {
  const cls = classifyAddress(address);
  if (trusted) return TRUSTED_REFUSED.has(cls) ? cls : undefined;
  if (cls === 'public') return undefined;
  if (cls === 'private' && policy.allowPrivateHosts.has(hostname.toLowerCase())) return undefined;
  return cls;
}

export function targetRefused(hostname: string, cls: AddressClass): ClientError {
  const what =
    cls === 'metadata'
      ? 'the cloud metadata address'
      : cls === 'invalid'
        ? 'an address that is not a canonical IP address'
        : `a ${cls} address`;
  return new ClientError(
    'PALISADE_CLIENT_ERR_TARGET_REFUSED',
    `${hostname.length > 64 ? 'a host' : hostname} resolves to ${what}, which this request may not reach`,
    { rule: cls },
  );
}

/** The addresses of `hostname` that may be connected to: all of them checked, or a refusal. */
export async function checkedAddresses(
  policy: TargetPolicy,
  resolver: Resolver,
  hostname: string,
  trusted: boolean,
): Promise<readonly ResolvedAddress[]> {
  let answers: readonly ResolvedAddress[];
  try {
    answers = await resolver(hostname);
  } catch (cause) {
    if (cause instanceof ClientError) throw cause;
    throw new ClientError('PALISADE_CLIENT_ERR_TARGET_REFUSED', 'the target host name did not resolve', {
      rule: 'dns-failed',
      cause,
    });
  }
  if (answers.length === 0) {
    throw new ClientError('PALISADE_CLIENT_ERR_TARGET_REFUSED', 'the target host name resolved to nothing', {
      rule: 'dns-failed',
    });
  }
  for (const answer of answers) {
    const cls = refusedClass(policy, hostname, answer.address, trusted);
    if (cls !== undefined) throw targetRefused(hostname, cls);
  }
  return answers;
}
