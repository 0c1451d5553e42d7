/**
 * The one way this package reaches the network: a fetch with a deadline over the whole exchange
 * (connection to last byte), a byte cap counted as the body arrives, no redirect to another
 * origin (nor any redirect of a POST, which would resend its credentials), and a media type the
 * caller names. A failure is a reason in our own words for the host's log: never the remote's
 * bytes, never the runtime's exception text.
 */
import { MAX_REDIRECTS } from '../limits.js';

export interface FetchPolicy {
  readonly timeoutMs: number;
  readonly maxBytes: number;
}

export interface FetchRequest {
  readonly method?: 'GET' | 'POST';
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Media types (lower case, no parameters) the answer may have. */
  readonly accept: readonly string[];
}

export type Fetched =
  | { readonly ok: true; readonly body: Uint8Array }
  /** `answered`: the server answered, with something we do not take (a status, a media type). */
  | { readonly ok: false; readonly reason: string; readonly answered: boolean };

function answeredWith(reason: string): Fetched {
  return { ok: false, reason, answered: true };
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export async function boundedFetch(start: URL, policy: FetchPolicy, request: FetchRequest): Promise<Fetched> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, policy.timeoutMs);
  try {
    let url = start;
    for (let hop = 0; ; hop++) {
      const response = await fetch(url, {
        method: request.method ?? 'GET',
        headers: { accept: request.accept.join(', '), 'accept-encoding': 'identity', ...request.headers },
        ...(request.body === undefined ? {} : { body: request.body }),
        redirect: 'manual',
        signal: controller.signal,
      });
      if (REDIRECTS.has(response.status)) {
        await response.body?.cancel().catch(() => {});
        const location = response.headers.get('location');
        if (location === null) return answeredWith(`answered ${response.status} without a Location`);
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          return answeredWith(`answered ${response.status} with an unreadable Location`);
        }
        if (next.origin !== start.origin) return answeredWith('redirected to another origin');
        if ((request.method ?? 'GET') !== 'GET') return answeredWith('redirected a POST');
        if (hop >= MAX_REDIRECTS) return answeredWith(`redirected more than ${MAX_REDIRECTS} times`);
        url = next;
        continue;
      }
      if (response.status !== 200) {
        await response.body?.cancel().catch(() => {});
        return answeredWith(`answered ${response.status}`);
      }
      const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
      if (!request.accept.includes(type)) {
        await response.body?.cancel().catch(() => {});
        return answeredWith(
          `answered ${type === '' ? 'no media type' : 'another media type'}, not ${request.accept.join(' or ')}`,
        );
      }
      const declared = response.headers.get('content-length');
      if (declared !== null && Number(declared) > policy.maxBytes) {
        await response.body?.cancel().catch(() => {});
        return answeredWith(`declared more than ${policy.maxBytes} bytes`);
      }
      return await readCapped(response, policy.maxBytes, controller);
    }
  } catch {
    return {
      ok: false,
      reason: timedOut ? `did not answer within ${policy.timeoutMs} ms` : 'could not be reached',
      answered: false,
    };
  } finally {
    clearTimeout(timer);
  }
}

async function readCapped(
  response: Response,
  maxBytes: number,
  controller: AbortController,
): Promise<Fetched> {
  const body = response.body;
  if (body === null) return { ok: true, body: new Uint8Array(0) };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      // Stops the transfer: the rest of the body is never read or held.
      controller.abort();
      await reader.cancel().catch(() => {});
      return answeredWith(`sent more than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return { ok: true, body: Buffer.concat(chunks, total) };
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** The fetched bytes as JSON, or undefined. */
export function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(decoder.decode(bytes));
  } catch {
    return undefined;
  }
}
