/**
 * The undici dispatcher every outbound request goes through. Its connector resolves the host
 * name itself, checks every answer against the target policy, and hands the socket only the
 * checked addresses (a `lookup` that answers from the checked set): the connection goes to the
 * address that was judged, so a resolver answering public first and 127.0.0.1 a moment later
 * cannot move it. A literal IP in the URL is judged before the request (outbound.ts), as Node
 * never looks one up. TLS is verified unless the host turns it off, and then every new
 * connection says so.
 */
import type { LookupAddress, LookupOptions } from 'node:dns';
import { Agent, buildConnector } from 'undici';
import type { WarningSink } from '../trust/boundary.js';
import { checkedAddresses, type Resolver, type TargetPolicy } from './target-policy.js';

export interface TlsOptions {
  /** Default true. False accepts any certificate, and warns on every connection. */
  readonly rejectUnauthorized?: boolean;
  readonly ca?: string | Buffer | readonly (string | Buffer)[];
  readonly cert?: string | Buffer;
  readonly key?: string | Buffer;
}

export interface AgentOptions {
  readonly policy: TargetPolicy;
  readonly resolver: Resolver;
  /** Whether an origin is declared (then the policy's trusted rules apply). */
  readonly trusts: (url: URL) => boolean;
  readonly tls: TlsOptions;
  readonly http2: boolean;
  readonly connectTimeoutMs: number;
  readonly warn: WarningSink;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

function policyLookup(options: AgentOptions, trusted: boolean) {
  return (hostname: string, lookupOptions: LookupOptions, callback: LookupCallback): void => {
    checkedAddresses(options.policy, options.resolver, hostname, trusted).then(
      (answers) => {
        const family = lookupOptions.family === 4 || lookupOptions.family === 6 ? lookupOptions.family : 0;
        const usable = family === 0 ? answers : answers.filter((answer) => answer.family === family);
        if (usable.length === 0) {
          const error = new Error(`no IPv${family} address`) as NodeJS.ErrnoException;
          error.code = 'ENOTFOUND';
          callback(error, '', 0);
          return;
        }
        if (lookupOptions.all === true) {
          callback(
            null,
            usable.map((answer) => ({ address: answer.address, family: answer.family })),
          );
        } else {
          const first = usable[0] as LookupAddress;
          callback(null, first.address, first.family);
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

export function pinnedAgent(options: AgentOptions): Agent {
  const tls = {
    ...(options.tls.ca === undefined ? {} : { ca: options.tls.ca as string | Buffer | (string | Buffer)[] }),
    ...(options.tls.cert === undefined ? {} : { cert: options.tls.cert }),
    ...(options.tls.key === undefined ? {} : { key: options.tls.key }),
    rejectUnauthorized: options.tls.rejectUnauthorized !== false,
  };
  const common = { ...tls, timeout: options.connectTimeoutMs, allowH2: options.http2 };
  const trustedConnect = buildConnector({
    ...common,
    lookup: policyLookup(options, true),
  } as buildConnector.BuildOptions);
  const untrustedConnect = buildConnector({
    ...common,
    lookup: policyLookup(options, false),
  } as buildConnector.BuildOptions);
  const insecure = options.tls.rejectUnauthorized === false;
  const connect: buildConnector.connector = (connectOptions, callback) => {
    const url = new URL(`${connectOptions.protocol}//${connectOptions.host}`);
    if (insecure && connectOptions.protocol === 'https:') {
      options.warn({
        code: 'PALISADE_CLIENT_W_TLS_UNVERIFIED',
        message: `a TLS connection to ${url.origin} was opened without verifying its certificate (tls.rejectUnauthorized is false): anyone on the path can read and change it`,
      });
    }
    return (options.trusts(url) ? trustedConnect : untrustedConnect)(connectOptions, callback);
  };
  return new Agent({ connect, allowH2: options.http2 });
}
