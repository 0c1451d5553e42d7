/**
 * OAuth requests, through the client's one outbound path (trust boundary, target policy, pinned
 * connections): every metadata, registration and token request. Only http(s) URLs without
 * userinfo or fragment; plain http only to a loopback host (the spec asks HTTPS of every
 * authorization server endpoint). Bodies are read under MAX_OAUTH_BODY_BYTES with the wire's
 * bounded reader; no credential follows a redirect, and only metadata GETs follow one at all.
 */
import { readJsonDocument } from 'palisade-mcp/wire';
import { ClientError } from '../errors.js';
import { MAX_METADATA_REDIRECTS, MAX_OAUTH_BODY_BYTES, OAUTH_REQUEST_TIMEOUT_MS } from '../limits.js';
import type { Outbound, OutboundRequest, OutboundResponse } from '../net/outbound.js';
import { isPlainObject } from '../options.js';
import { mediaType, readBounded } from '../transport/http/body.js';

export function authError(rule: string, message: string, cause?: unknown): ClientError {
  return new ClientError(
    'PALISADE_CLIENT_ERR_AUTH',
    message,
    cause === undefined ? { rule } : { rule, cause },
  );
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A URL an OAuth request may go to, or the named refusal. */
export function oauthUrl(text: unknown, what: string): URL {
  if (typeof text !== 'string' || text.length > 2048) throw authError('bad-url', `the ${what} is not a URL`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw authError('bad-url', `the ${what} is not a URL`);
  }
  if (url.username !== '' || url.password !== '' || url.hash !== '') {
    throw authError('bad-url', `the ${what} has userinfo or a fragment`);
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && LOOPBACK.has(url.hostname)) return url;
  throw authError('insecure-url', `the ${what} is not https (plain http is for a loopback host only)`);
}

/**
 * A deadline passed in the OAuth flow is the flow's failure (`PALISADE_CLIENT_ERR_AUTH`), not the
 * MCP call's timeout: a `server/discover` probe reads its own timeout as a silent, handshake-era
 * server, and must not read a slow authorization server as one.
 */
async function sendOAuth(outbound: Outbound, request: OutboundRequest): Promise<OutboundResponse> {
  try {
    return await outbound.send(request);
  } catch (error) {
    if (error instanceof ClientError && error.code === 'PALISADE_CLIENT_ERR_TIMEOUT') {
      throw authError(
        'oauth-timeout',
        `an OAuth request had no answer within ${OAUTH_REQUEST_TIMEOUT_MS} ms`,
        error,
      );
    }
    throw error;
  }
}

export interface OAuthAnswer {
  readonly status: number;
  readonly json: Record<string, unknown> | undefined;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

export async function oauthRequest(
  outbound: Outbound,
  url: URL,
  init: {
    method: 'GET' | 'POST';
    headers?: Record<string, string>;
    form?: Record<string, string>;
    follow?: boolean;
  },
): Promise<OAuthAnswer> {
  const headers: Record<string, string> = { accept: 'application/json', ...(init.headers ?? {}) };
  let body: string | undefined;
  if (init.form !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  }
  const response = await sendOAuth(outbound, {
    url,
    method: init.method,
    headers,
    ...(body === undefined ? {} : { body }),
    purpose: 'oauth',
    signal: AbortSignal.timeout(OAUTH_REQUEST_TIMEOUT_MS),
    followSameOrigin: init.follow === true ? MAX_METADATA_REDIRECTS : 0,
  });
  const bytes = await readBounded(response.body, response.headers, MAX_OAUTH_BODY_BYTES).catch(
    (error: unknown) => {
      throw authError(
        'response-too-large',
        `an OAuth response exceeded ${MAX_OAUTH_BODY_BYTES} bytes`,
        error,
      );
    },
  );
  let json: Record<string, unknown> | undefined;
  if (bytes.length > 0 && mediaType(response.headers).endsWith('json')) {
    const read = readJsonDocument(bytes);
    if (read.ok && isPlainObject(read.value)) json = read.value;
  }
  return { status: response.status, json, headers: response.headers };
}

/** Sends a JSON body (dynamic registration). */
export async function oauthJsonPost(
  outbound: Outbound,
  url: URL,
  document: Record<string, unknown>,
): Promise<OAuthAnswer> {
  const response = await sendOAuth(outbound, {
    url,
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify(document),
    purpose: 'oauth',
    signal: AbortSignal.timeout(OAUTH_REQUEST_TIMEOUT_MS),
  });
  const bytes = await readBounded(response.body, response.headers, MAX_OAUTH_BODY_BYTES);
  const read = bytes.length > 0 ? readJsonDocument(bytes) : undefined;
  return {
    status: response.status,
    json: read?.ok === true && isPlainObject(read.value) ? read.value : undefined,
    headers: response.headers,
  };
}
