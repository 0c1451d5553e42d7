/**
 * Streamable HTTP, the client side, for both revision families. Each message is its own POST
 * through the outbound path (trust boundary, target policy, pinned connection). 2026-07-28: the
 * `Mcp-*` headers mirror the body (written by the wire's `mcpRequestHeaders`, the same rule the
 * server holds them to); nothing else is kept between requests. The 2025 family: the session id
 * from the `initialize` answer is sent on every later request, the standalone GET stream carries
 * what the server sends unprompted, a request's stream that ends before its answer is resumed
 * with GET and `Last-Event-ID` after the server's `retry`, and close sends DELETE.
 */
import {
  encodeMessage,
  type McpHeaderField,
  MODERN_REVISION,
  mcpRequestHeaders,
  PROTOCOL_VERSION_HEADER,
  type Revision,
} from 'palisade-mcp/wire';
import { ClientError } from '../../errors.js';
import {
  DEFAULT_SSE_EVENT_MS,
  DEFAULT_SSE_IDLE_MS,
  MAX_RESUMPTIONS,
  MAX_RETRY_DELAY_MS,
  MAX_STEP_UP_ATTEMPTS,
} from '../../limits.js';
import { createOutbound, type Outbound, type OutboundResponse } from '../../net/outbound.js';
import { pinnedAgent, type TlsOptions } from '../../net/pinned-agent.js';
import { checkObject, isPlainObject, optionalBoolean, positiveInteger, stringRecord } from '../../options.js';
import { readTrust, TRUST_KEYS, type TrustOptions } from '../../trust/trust-options.js';
import type { SendContext, Transport, TransportSink } from '../types.js';
import { mediaType } from './body.js';
import { errorBodyOf, headerText, readJsonBody, statusError } from './exchange.js';
import type { AuthContext, HttpAuth } from './http-auth.js';
import { SseParser } from './sse-parser.js';
import { readSse, type SseClocks } from './sse-stream.js';

export interface HttpTransportOptions extends TrustOptions {
  /** Headers sent with every request (credentials among them are stripped for undeclared origins). */
  readonly headers?: Readonly<Record<string, string>>;
  /** An authorization provider: `oauthClient(...)`. */
  readonly auth?: HttpAuth;
  /** TLS: verified by default. */
  readonly tls?: TlsOptions;
  /** Offer HTTP/2 over TLS (ALPN). Default false. */
  readonly http2?: boolean;
  /** Default 10,000 ms. */
  readonly connectTimeoutMs?: number;
  /** An SSE stream silent this long is ended. Default 60,000 ms. */
  readonly sseIdleMs?: number;
  /** An SSE event unfinished this long after its first byte ends the stream. Default 30,000 ms. */
  readonly sseEventMs?: number;
  /** Open the 2025 family's standalone GET stream after the handshake. Default true. */
  readonly standaloneStream?: boolean;
}

const KEYS = [
  ...TRUST_KEYS,
  'headers',
  'auth',
  'tls',
  'http2',
  'connectTimeoutMs',
  'sseIdleMs',
  'sseEventMs',
  'standaloneStream',
] as const;

const SESSION_HEADER = 'mcp-session-id';
const ACCEPT = 'application/json, text/event-stream';

/** The revisions whose transport defines `MCP-Protocol-Version` (from 2025-06-18). */
function sendsVersionHeader(revision: Revision | undefined): revision is Revision {
  return revision !== undefined && revision !== '2025-03-26' && revision !== '2024-11-05';
}

function isRequest(message: Readonly<Record<string, unknown>>): boolean {
  return typeof message['method'] === 'string' && Object.hasOwn(message, 'id');
}

function checkTls(value: unknown): TlsOptions {
  const tls = checkObject(value, 'tls', ['rejectUnauthorized', 'ca', 'cert', 'key']);
  optionalBoolean(tls['rejectUnauthorized'], 'tls.rejectUnauthorized');
  return tls as TlsOptions;
}

export class HttpTransport implements Transport {
  readonly kind = 'http' as const;
  readonly url: URL;
  readonly #headers: Readonly<Record<string, string>>;
  readonly #auth: HttpAuth | undefined;
  readonly #outbound: Outbound;
  readonly #clocks: SseClocks;
  readonly #standalone: boolean;
  #sink: TransportSink | undefined;
  #session: string | undefined;
  #revision: Revision | undefined;
  /** The revision an `initialize` in flight offers: what the authorization rules go by until one is agreed. */
  #offered: string | undefined;
  #closed = false;
  readonly #streams = new AbortController();

  constructor(url: string | URL, options: HttpTransportOptions = {}) {
    const opts = checkObject(options, '', KEYS);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new ClientError('PALISADE_CLIENT_ERR_INVALID_OPTION', 'the MCP endpoint is not a URL');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new ClientError(
        'PALISADE_CLIENT_ERR_INVALID_OPTION',
        'the MCP endpoint must be an http or https URL',
      );
    }
    if (parsed.username !== '' || parsed.password !== '' || parsed.hash !== '') {
      throw new ClientError(
        'PALISADE_CLIENT_ERR_INVALID_OPTION',
        'the MCP endpoint must have no userinfo and no fragment',
      );
    }
    this.url = parsed;
    this.#headers = stringRecord(opts['headers'], 'headers');
    const auth = opts['auth'];
    if (auth !== undefined && !isPlainObject(auth) && typeof auth !== 'object') {
      throw new ClientError(
        'PALISADE_CLIENT_ERR_INVALID_OPTION',
        'option "auth" must be an authorization provider',
      );
    }
    this.#auth = auth as HttpAuth | undefined;
    const trust = readTrust(opts);
    const tls = checkTls(opts['tls']);
    const agent = pinnedAgent({
      policy: trust.policy,
      resolver: trust.resolver,
      trusts: (target) => trust.boundary.trusts(target),
      tls,
      http2: optionalBoolean(opts['http2'], 'http2') ?? false,
      connectTimeoutMs: positiveInteger(opts['connectTimeoutMs'], 'connectTimeoutMs', 10_000),
      warn: trust.warn,
    });
    this.#outbound = createOutbound({ boundary: trust.boundary, policy: trust.policy, dispatcher: agent });
    this.#clocks = {
      idleMs: positiveInteger(opts['sseIdleMs'], 'sseIdleMs', DEFAULT_SSE_IDLE_MS),
      eventMs: positiveInteger(opts['sseEventMs'], 'sseEventMs', DEFAULT_SSE_EVENT_MS),
    };
    this.#standalone = optionalBoolean(opts['standaloneStream'], 'standaloneStream') ?? true;
  }

  /** The outbound path, for the OAuth client and for tests. */
  get outbound(): Outbound {
    return this.#outbound;
  }

  /** The session id the server issued, if any (2025 family). */
  get sessionId(): string | undefined {
    return this.#session;
  }

  async start(sink: TransportSink): Promise<void> {
    this.#sink = sink;
  }

  #authContext(): AuthContext {
    return { resource: this.url, outbound: this.#outbound, revision: this.#revision ?? this.#offered };
  }

  async #baseHeaders(revision: Revision | undefined): Promise<Record<string, string>> {
    const headers = this.#plainHeaders(revision);
    if (this.#auth !== undefined) {
      Object.assign(headers, await this.#auth.headers(this.#authContext()));
      if (this.#session !== undefined && revision !== MODERN_REVISION)
        headers[SESSION_HEADER] = this.#session;
    }
    return headers;
  }

  /** The host's headers and the session id: what a request carries before authorization. */
  #plainHeaders(revision: Revision | undefined): Record<string, string> {
    const headers: Record<string, string> = { ...this.#headers };
    if (this.#session !== undefined && revision !== MODERN_REVISION) headers[SESSION_HEADER] = this.#session;
    return headers;
  }

  /** One POST, with the authorization retries a 401 or a 403 `insufficient_scope` earns. */
  async #post(
    body: string,
    mcpHeaders: Record<string, string>,
    revision: Revision | undefined,
    signal: AbortSignal | undefined,
  ): Promise<OutboundResponse> {
    let retriedUnauthorized = false;
    let stepUps = 0;
    for (;;) {
      const headers =
        this.#auth === undefined ? this.#plainHeaders(revision) : await this.#baseHeaders(revision);
      Object.assign(headers, mcpHeaders);
      headers['content-type'] = 'application/json';
      headers['accept'] = ACCEPT;
      const response = await this.#outbound.send({
        url: this.url,
        method: 'POST',
        headers,
        body,
        purpose: 'mcp',
        ...(signal === undefined ? {} : { signal }),
      });
      if (this.#auth !== undefined && response.status === 401 && !retriedUnauthorized) {
        await response.body.dump().catch(() => {});
        retriedUnauthorized = true;
        if (
          await this.#auth.unauthorized(this.#authContext(), headerText(response.headers, 'www-authenticate'))
        )
          continue;
        throw statusError(401, 'the request, and no credential was obtained');
      }
      if (this.#auth !== undefined && response.status === 403) {
        const challenge = headerText(response.headers, 'www-authenticate');
        if (challenge !== undefined && /insufficient_scope/.test(challenge)) {
          await response.body.dump().catch(() => {});
          stepUps += 1;
          if (
            stepUps <= MAX_STEP_UP_ATTEMPTS &&
            (await this.#auth.forbidden(this.#authContext(), challenge))
          ) {
            retriedUnauthorized = false;
            continue;
          }
          throw new ClientError(
            'PALISADE_CLIENT_ERR_AUTH',
            'the server needs a scope the client could not obtain',
            {
              rule: 'insufficient-scope',
              status: 403,
            },
          );
        }
      }
      return response;
    }
  }

  async send(message: Readonly<Record<string, unknown>>, context: SendContext): Promise<void> {
    if (this.#closed) throw new ClientError('PALISADE_CLIENT_ERR_CLOSED', 'the transport is closed');
    const sink = this.#sink;
    if (sink === undefined)
      throw new ClientError('PALISADE_CLIENT_ERR_CLOSED', 'the transport was not started');
    const encoded = encodeMessage(message);
    if (!encoded.ok) {
      throw new ClientError(
        'PALISADE_CLIENT_ERR_INVALID_OPTION',
        `the message has no faithful JSON form: ${encoded.reason}`,
      );
    }
    const revision = context.revision;
    const request = isRequest(message);
    const method = typeof message['method'] === 'string' ? message['method'] : undefined;
    if (method === 'initialize') {
      const offered = (message['params'] as Record<string, unknown> | undefined)?.['protocolVersion'];
      if (typeof offered === 'string') this.#offered = offered;
    }
    let mcpHeaders: Record<string, string> = {};
    if (revision === MODERN_REVISION && method !== undefined) {
      mcpHeaders = mcpRequestHeaders(
        message as { method: string; params?: Record<string, unknown> },
        revision,
        (context.fields ?? []) as McpHeaderField[],
      );
    } else if (sendsVersionHeader(revision)) {
      mcpHeaders[PROTOCOL_VERSION_HEADER] = revision;
    } else if (revision === undefined && method === 'server/discover') {
      // The probe: a 2026-07-28 request before anything is agreed.
      mcpHeaders = mcpRequestHeaders(
        message as { method: string; params?: Record<string, unknown> },
        MODERN_REVISION,
      );
    }
    const response = await this.#post(encoded.text, mcpHeaders, revision, context.signal);
    if (!request) {
      await response.body.dump().catch(() => {});
      if (response.status === 202 || response.status === 200 || response.status === 204) return;
      throw statusError(response.status, 'a notification or response');
    }
    const id = message['id'];
    let answered = false;
    const deliver = (incoming: Record<string, unknown>): void => {
      if (incoming['id'] === id && !Object.hasOwn(incoming, 'method')) answered = true;
      sink.message(incoming);
    };
    if (method === 'initialize' && response.status === 200) {
      const session = headerText(response.headers, SESSION_HEADER);
      if (session !== undefined && /^[\x21-\x7e]{1,256}$/.test(session)) this.#session = session;
    }
    if (response.status === 404 && this.#session !== undefined && revision !== MODERN_REVISION) {
      await response.body.dump().catch(() => {});
      this.#session = undefined;
      throw new ClientError('PALISADE_CLIENT_ERR_HTTP_STATUS', 'the server ended the session (HTTP 404)', {
        status: 404,
        rule: 'session-expired',
      });
    }
    if (response.status !== 200) {
      const body = await errorBodyOf(response);
      if (body !== undefined && response.status >= 400 && response.status < 500) {
        // A refusal in JSON-RPC form (a 2026-07-28 server's -32022, -32020, -32601 ...): the answer.
        deliver(
          body['id'] === id || body['id'] === null || body['id'] === undefined ? { ...body, id } : body,
        );
        return;
      }
      throw statusError(response.status, method ?? 'a request');
    }
    const type = mediaType(response.headers);
    if (type === 'application/json') {
      deliver(await readJsonBody(response));
      if (!answered)
        throw new ClientError(
          'PALISADE_CLIENT_ERR_TRANSPORT',
          'the JSON answer was not the response to the request',
        );
      return;
    }
    if (type !== 'text/event-stream') {
      await response.body.dump().catch(() => {});
      throw new ClientError(
        'PALISADE_CLIENT_ERR_CONTENT_TYPE',
        'the server answered with a Content-Type that is neither application/json nor text/event-stream',
        {
          rule: 'content-type',
        },
      );
    }
    const parser = new SseParser();
    let outcome = await readSse(response.body, this.#clocks, deliver, parser);
    let resumptions = 0;
    while (!answered) {
      // The stream ended before the answer: a 2025 server may close it and expect a GET that resumes it.
      if (
        revision === MODERN_REVISION ||
        outcome.lastEventId === undefined ||
        resumptions >= MAX_RESUMPTIONS
      ) {
        throw new ClientError(
          'PALISADE_CLIENT_ERR_TRANSPORT',
          'the response stream ended before the answer',
          { rule: 'stream-ended' },
        );
      }
      resumptions += 1;
      await delay(Math.min(outcome.retryMs ?? 1000, MAX_RETRY_DELAY_MS), context.signal);
      outcome = await this.#resume(
        outcome.lastEventId,
        revision,
        context.signal,
        deliver,
        () => answered,
        parser,
      );
    }
  }

  /** GET with Last-Event-ID: the rest of a stream, read until the answer arrives. */
  async #resume(
    lastEventId: string,
    revision: Revision | undefined,
    signal: AbortSignal | undefined,
    deliver: (message: Record<string, unknown>) => void,
    answered: () => boolean,
    parser: SseParser,
  ): Promise<{ lastEventId: string | undefined; retryMs: number | undefined }> {
    const stop = new AbortController();
    const onAbort = (): void => stop.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const headers = await this.#baseHeaders(revision);
    if (sendsVersionHeader(revision)) headers[PROTOCOL_VERSION_HEADER] = revision;
    headers['accept'] = 'text/event-stream';
    headers['last-event-id'] = lastEventId;
    try {
      const response = await this.#outbound.send({
        url: this.url,
        method: 'GET',
        headers,
        purpose: 'mcp',
        signal: stop.signal,
      });
      if (response.status !== 200 || mediaType(response.headers) !== 'text/event-stream') {
        await response.body.dump().catch(() => {});
        throw statusError(response.status, 'the resumption of a stream');
      }
      try {
        return await readSse(
          response.body,
          this.#clocks,
          (message) => {
            deliver(message);
            if (answered()) stop.abort();
          },
          parser,
        );
      } catch (error) {
        if (answered()) return { lastEventId: parser.lastEventId, retryMs: parser.retryMs };
        throw error;
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Resolves once the standalone stream is open or refused, so what follows cannot race its opening. */
  handshakeDone(revision: Revision): Promise<void> {
    this.#revision = revision;
    if (revision === MODERN_REVISION || !this.#standalone) return Promise.resolve();
    return new Promise((resolve) => {
      void this.#standaloneStream(revision, resolve).finally(resolve);
    });
  }

  /** The 2025 family's GET stream: what the server sends unprompted, resumed while it keeps answering. */
  async #standaloneStream(revision: Revision, opened: () => void): Promise<void> {
    const parser = new SseParser();
    let failures = 0;
    while (!this.#closed && failures < MAX_RESUMPTIONS) {
      const headers = await this.#baseHeaders(revision).catch(() => undefined);
      if (headers === undefined) return;
      if (sendsVersionHeader(revision)) headers[PROTOCOL_VERSION_HEADER] = revision;
      headers['accept'] = 'text/event-stream';
      if (parser.lastEventId !== undefined) headers['last-event-id'] = parser.lastEventId;
      try {
        const response = await this.#outbound.send({
          url: this.url,
          method: 'GET',
          headers,
          purpose: 'mcp',
          signal: this.#streams.signal,
        });
        opened();
        if (response.status !== 200 || mediaType(response.headers) !== 'text/event-stream') {
          await response.body.dump().catch(() => {});
          return; // 405: the server offers no such stream
        }
        failures = 0;
        // A fresh parser bound per connection, keeping the last event id across them.
        const fresh = new SseParser();
        fresh.lastEventId = parser.lastEventId;
        const outcome = await readSse(
          response.body,
          { ...this.#clocks, idleMs: Math.max(this.#clocks.idleMs, 300_000) },
          (message) => this.#sink?.message(message),
          fresh,
        );
        parser.lastEventId = outcome.lastEventId;
        parser.retryMs = outcome.retryMs;
      } catch {
        if (this.#closed) return;
        failures += 1;
      }
      await delay(Math.min(parser.retryMs ?? 1000, MAX_RETRY_DELAY_MS), this.#streams.signal).catch(() => {});
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#streams.abort();
    if (this.#session !== undefined) {
      try {
        const headers = await this.#baseHeaders(this.#revision);
        if (sendsVersionHeader(this.#revision)) headers[PROTOCOL_VERSION_HEADER] = this.#revision;
        const response = await this.#outbound.send({
          url: this.url,
          method: 'DELETE',
          headers,
          purpose: 'mcp',
          signal: AbortSignal.timeout(5_000),
        });
        await response.body.dump().catch(() => {});
      } catch {
        // The session ends with this client either way; a server that did not hear the DELETE expires it.
      }
      this.#session = undefined;
    }
    this.#sink?.closed(new ClientError('PALISADE_CLIENT_ERR_CLOSED', 'the client was closed'));
    await this.#outbound.close().catch(() => {});
  }
}

function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(new ClientError('PALISADE_CLIENT_ERR_ABORTED', 'the request was aborted'));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new ClientError('PALISADE_CLIENT_ERR_ABORTED', 'the request was aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A Streamable HTTP transport to `url`. Options are checked here, once. */
export function httpTransport(url: string | URL, options: HttpTransportOptions = {}): HttpTransport {
  return new HttpTransport(url, options);
}
