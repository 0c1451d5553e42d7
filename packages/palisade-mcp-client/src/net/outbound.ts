/**
 * The one way out: every HTTP request the client makes, MCP or OAuth, is sent here (a census
 * holds it: no other file imports undici's request functions or calls fetch). In order: the
 * trust boundary (credentials off and consent for an undeclared origin), the target policy for a
 * literal IP (a host name is judged by the pinned connector), then the request, with redirects
 * not followed. A 3xx is refused by name, except for an OAuth metadata GET that asked to follow
 * same-origin redirects: those are followed without any credential header, a bounded number of
 * times, and each hop passes the boundary again.
 */
import { type Dispatcher, request } from 'undici';
import { ClientError } from '../errors.js';
import type { TrustBoundary } from '../trust/boundary.js';
import type { ConsentRequest } from '../trust/consent.js';
import { type AddressClass, isIpLiteral } from './addresses.js';
import { refusedClass, type TargetPolicy, targetRefused } from './target-policy.js';

export interface OutboundRequest {
  readonly url: URL;
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
  readonly signal?: AbortSignal;
  readonly purpose: ConsentRequest['purpose'];
  /** Same-origin redirects a GET follows, without credentials; default 0 (none followed). */
  readonly followSameOrigin?: number;
  /** Headers that are credentials for this request even on a declared origin (dropped on a redirect). */
  readonly bodyTimeoutMs?: number;
  readonly headersTimeoutMs?: number;
}

export interface OutboundResponse {
  readonly url: URL;
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Dispatcher.ResponseData['body'];
}

export interface Outbound {
  send(request: OutboundRequest): Promise<OutboundResponse>;
  close(): Promise<void>;
}

export interface OutboundOptions {
  readonly boundary: TrustBoundary;
  readonly policy: TargetPolicy;
  readonly dispatcher: Dispatcher & { close(): Promise<void> };
}

function transportError(cause: unknown): ClientError {
  if (cause instanceof ClientError) return cause;
  const inner = (cause as { cause?: unknown } | undefined)?.cause;
  if (inner instanceof ClientError) return inner;
  const name = (cause as { name?: unknown } | undefined)?.name;
  const reason = (cause as { cause?: { name?: unknown } } | undefined)?.cause?.name;
  if (name === 'TimeoutError' || reason === 'TimeoutError') {
    return new ClientError(
      'PALISADE_CLIENT_ERR_TIMEOUT',
      'the request did not complete within its deadline',
      {
        rule: 'request-deadline',
        cause,
      },
    );
  }
  if (name === 'AbortError' || (cause as { code?: unknown } | undefined)?.code === 'UND_ERR_ABORTED') {
    return new ClientError('PALISADE_CLIENT_ERR_ABORTED', 'the request was aborted', { cause });
  }
  const code = (cause as { code?: unknown } | undefined)?.code;
  return new ClientError(
    'PALISADE_CLIENT_ERR_TRANSPORT',
    `the connection failed${typeof code === 'string' && /^[A-Z_]{1,40}$/.test(code) ? ` (${code})` : ''}`,
    { cause },
  );
}

const NO_REDIRECT_HEADERS = new Set([
  'authorization',
  'cookie',
  'x-api-key',
  'x-auth-token',
  'x-csrf-token',
  'dpop',
]);

export function createOutbound(options: OutboundOptions): Outbound {
  const { boundary, policy, dispatcher } = options;
  // A client sends every call to one or two hosts: the literal-IP verdict (which takes the
  // address apart) is worked out once per host and trust, not once per request. Bounded, as
  // OAuth metadata can name other hosts.
  const verdicts = new Map<string, AddressClass | 'reachable' | 'name'>();
  function literalVerdict(hostname: string, trusted: boolean): AddressClass | undefined {
    const key = `${trusted ? 't' : 'u'}${hostname}`;
    let verdict = verdicts.get(key);
    if (verdict === undefined) {
      verdict = isIpLiteral(hostname)
        ? (refusedClass(policy, hostname, hostname, trusted) ?? 'reachable')
        : 'name'; // a host name is judged by the pinned connector, on every address it resolves to
      if (verdicts.size >= 256) verdicts.clear();
      verdicts.set(key, verdict);
    }
    return verdict === 'reachable' || verdict === 'name' ? undefined : verdict;
  }

  async function once(req: OutboundRequest, url: URL): Promise<OutboundResponse> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new ClientError(
        'PALISADE_CLIENT_ERR_TARGET_REFUSED',
        `a request may only go to http or https, not ${url.protocol.slice(0, 16)}`,
        { rule: 'scheme' },
      );
    }
    const cleared = await boundary.clear(url, req.headers, req.purpose);
    const cls = literalVerdict(url.hostname, cleared.trusted);
    if (cls !== undefined) throw targetRefused(url.hostname, cls);
    for (const name in cleared.headers) {
      if (name.length === 4 && name.toLowerCase() === 'host') delete cleared.headers[name];
    }
    try {
      const answer = await request(url, {
        method: req.method,
        headers: cleared.headers,
        body: req.body ?? null,
        signal: req.signal ?? null,
        dispatcher,
        ...(req.bodyTimeoutMs === undefined ? {} : { bodyTimeout: req.bodyTimeoutMs }),
        ...(req.headersTimeoutMs === undefined ? {} : { headersTimeout: req.headersTimeoutMs }),
      });
      return { url, status: answer.statusCode, headers: answer.headers, body: answer.body };
    } catch (cause) {
      throw transportError(cause);
    }
  }

  return {
    async send(req) {
      let url = req.url;
      let hops = 0;
      let current = req;
      for (;;) {
        const answer = await once(current, url);
        if (answer.status < 300 || answer.status > 399 || answer.status === 304) return answer;
        answer.body.dump().catch(() => {});
        const location = answer.headers['location'];
        let next: URL | undefined;
        try {
          next = typeof location === 'string' ? new URL(location, url) : undefined;
        } catch {
          next = undefined;
        }
        const allowed = req.followSameOrigin ?? 0;
        if (next === undefined || req.method !== 'GET' || hops >= allowed || next.origin !== url.origin) {
          const why =
            next === undefined
              ? 'without a readable Location'
              : next.origin !== url.origin
                ? 'to another origin'
                : hops >= allowed && allowed > 0
                  ? `more than ${allowed} times`
                  : 'and this request follows none';
          throw new ClientError(
            'PALISADE_CLIENT_ERR_REDIRECT_REFUSED',
            `the server redirected (${answer.status}) ${why}; redirects are not followed`,
            {
              rule: next !== undefined && next.origin !== url.origin ? 'cross-origin' : 'redirect',
              status: answer.status,
            },
          );
        }
        hops += 1;
        url = next;
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(current.headers)) {
          if (!NO_REDIRECT_HEADERS.has(name.toLowerCase())) headers[name] = value;
        }
        current = { ...current, url: next, headers };
      }
    },
    close: () => dispatcher.close(),
  };
}
