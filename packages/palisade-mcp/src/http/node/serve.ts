/**
 * `serve(server, options)`: one listening port for HTTP/1.1 and for HTTP/2 by prior knowledge
 * (h2c), both through `createHttpHandler`, with Node's server settings chosen rather than
 * inherited. Each new connection is held by the sniffer (`protocol-sniff.ts`) until its first bytes
 * tell the protocol, then handed to an `http.Server` or an `http2` server that never listens itself.
 *
 * With `tls`, the port speaks HTTPS instead and ALPN picks the protocol (`serve-tls.ts`).
 */
import { once } from 'node:events';
import { createServer as createHttp1Server } from 'node:http';
import { createServer as createHttp2Server, type Http2Session } from 'node:http2';
import { createServer as createNetServer, isIP, type Server as NetServer, type Socket } from 'node:net';
import { invalidOption } from '../../errors.js';
import {
  DEFAULT_CONNECTION_TIMEOUT_MS,
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_HTTP_READ_TIMEOUT_MS,
  DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
  DEFAULT_MAX_CONCURRENT_STREAMS,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_HEADER_SIZE,
  DEFAULT_MAX_SESSION_MEMORY_MB,
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_SNIFF_TIMEOUT_MS,
  MAX_SERVE_TIMEOUT_MS,
} from '../../limits.js';
import { isPlainObject, refuseUnknownKeys, requireInteger, requireString } from '../../options.js';
import type { Server } from '../../server.js';
import { guardedHook } from '../../telemetry/guarded-hook.js';
import { type HttpLogEvent, refusalLog } from '../../telemetry/transport-log.js';
import { reportRefusal } from '../exchange-steps.js';
import { checkHttpOptions, HTTP_KEYS } from '../http-options.js';
import { REFUSALS } from '../refusals.js';
import { createHttpHandler, type HttpHandlerOptions } from './handler.js';
import { sniff } from './protocol-sniff.js';
import { checkRoutes, routeFront, type ServeRoute } from './routes.js';
import { checkTlsOptions, createTlsListener, type ServeTlsOptions } from './serve-tls.js';
import { servingUrl } from './serve-url.js';
import { guardSession } from './session-guard.js';

export type { RouteAnswer, RouteRequest, ServeRoute } from './routes.js';
export type { ServeTlsOptions } from './serve-tls.js';

export interface ServeOptions extends Omit<HttpHandlerOptions, 'allowedHosts'> {
  /** Default when `host` is loopback: `['localhost', '127.0.0.1', '::1']`; required otherwise. */
  readonly allowedHosts?: readonly string[] | 'any';
  /** Interface to bind. Default `'127.0.0.1'`. */
  readonly host?: string;
  /** Port to bind. Default 0: the system picks a free one, read back from the result. */
  readonly port?: number;
  /**
   * Serve HTTP/2 (by prior knowledge, or by ALPN over TLS). Default true; false answers the preface
   * with GOAWAY(HTTP_1_1_REQUIRED) and closes the connection.
   */
  readonly http2?: boolean;
  /** Certificate and key: the port then speaks HTTPS, HTTP/2 or HTTP/1.1 as ALPN settles. */
  readonly tls?: ServeTlsOptions;
  /**
   * Exact paths beside the MCP endpoint answered to GET and HEAD by a host function, under the
   * same Host (and, unless a route says `origins: 'any'`, Origin) checks: at most 16 (routes.ts).
   */
  readonly routes?: Readonly<Record<string, ServeRoute>>;
  /** ms for a new connection to reveal its protocol. Default 5,000. */
  readonly sniffTimeoutMs?: number;
  /** HTTP/1.1 request-head deadline, ms. Default 10,000. */
  readonly headersTimeoutMs?: number;
  /** HTTP/1.1 whole-request deadline, ms; at least `headersTimeoutMs`. Default 30,000. */
  readonly requestTimeoutMs?: number;
  /** Idle keep-alive (HTTP/1.1) and idle session (HTTP/2, then GOAWAY) time, ms. Default 5,000. */
  readonly keepAliveTimeoutMs?: number;
  /** Request head bytes (HTTP/1.1) and header list size (HTTP/2). Default 16,384. */
  readonly maxHeaderSize?: number;
  /** Open connections at once. Default 1,024. */
  readonly maxConnections?: number;
  /** HTTP/2 streams open at once per session, advertised in SETTINGS. Default 100. */
  readonly maxConcurrentStreams?: number;
  /** HTTP/2 memory per session in MB (Node's unit); past it new streams are refused. Default 10. */
  readonly maxSessionMemory?: number;
  /**
   * HTTP/2 session time without a stream still reading or being answered, ms; then GOAWAY(NO_ERROR).
   * Default twice `readTimeoutMs` (30,000). See `session-guard.ts`.
   */
  readonly connectionTimeoutMs?: number;
}

export interface Serving {
  /**
   * `http://host:port` (`https://` with `tls`), IPv6 hosts bracketed. Bound to every interface
   * (`0.0.0.0`, `::`), it names a host that reaches the server and that allowedHosts admits:
   * loopback when admitted, else the first allowed name (`server.address()` has the bound address).
   */
  readonly url: string;
  readonly port: number;
  /** The listening socket server; the HTTP servers behind it never listen. */
  readonly server: NetServer;
  /**
   * Stops accepting, ends every open connection and, with `sessions`, every call and stream running
   * on a session (the handler's `close()`), and resolves once the port is released.
   */
  close(): Promise<void>;
}

const SERVE_KEYS = [
  'host',
  'port',
  'http2',
  'tls',
  'routes',
  'sniffTimeoutMs',
  'headersTimeoutMs',
  'requestTimeoutMs',
  'keepAliveTimeoutMs',
  'maxHeaderSize',
  'maxConnections',
  'maxConcurrentStreams',
  'maxSessionMemory',
  'connectionTimeoutMs',
] as const;

const LOOPBACK_HOSTS = Object.freeze(['localhost', '127.0.0.1', '::1']);
const DEFAULT_SERVE_PATH = '/mcp';

function isLoopback(host: string): boolean {
  const name = host.toLowerCase();
  return name === 'localhost' || name === '::1' || (isIP(name) === 4 && name.startsWith('127.'));
}

interface Settings {
  readonly host: string;
  readonly port: number;
  readonly http2: boolean;
  readonly sniffTimeoutMs: number;
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  readonly maxHeaderSize: number;
  readonly maxConnections: number;
  readonly maxConcurrentStreams: number;
  readonly maxSessionMemory: number;
  readonly connectionTimeoutMs: number;
}

function checkSettings(options: Record<string, unknown>): Settings {
  const integer = (key: string, fallback: number, min: number, max: number): number =>
    options[key] === undefined ? fallback : requireInteger(options[key], key, min, max);
  const ms = (key: string, fallback: number): number => integer(key, fallback, 1, MAX_SERVE_TIMEOUT_MS);
  const http2 = options['http2'];
  if (http2 !== undefined && typeof http2 !== 'boolean') throw invalidOption('http2', 'must be a boolean');
  const settings: Settings = {
    host: options['host'] === undefined ? '127.0.0.1' : requireString(options['host'], 'host'),
    port: integer('port', 0, 0, 65_535),
    http2: http2 ?? true,
    sniffTimeoutMs: ms('sniffTimeoutMs', DEFAULT_SNIFF_TIMEOUT_MS),
    headersTimeoutMs: ms('headersTimeoutMs', DEFAULT_HEADERS_TIMEOUT_MS),
    requestTimeoutMs: ms('requestTimeoutMs', DEFAULT_REQUEST_TIMEOUT_MS),
    keepAliveTimeoutMs: ms('keepAliveTimeoutMs', DEFAULT_KEEP_ALIVE_TIMEOUT_MS),
    maxHeaderSize: integer('maxHeaderSize', DEFAULT_MAX_HEADER_SIZE, 1_024, 1_048_576),
    maxConnections: integer('maxConnections', DEFAULT_MAX_CONNECTIONS, 1, 1_048_576),
    maxConcurrentStreams: integer('maxConcurrentStreams', DEFAULT_MAX_CONCURRENT_STREAMS, 1, 1_000_000),
    maxSessionMemory: integer('maxSessionMemory', DEFAULT_MAX_SESSION_MEMORY_MB, 1, 1_024),
    connectionTimeoutMs: ms(
      'connectionTimeoutMs',
      typeof options['readTimeoutMs'] === 'number'
        ? Math.min(2 * options['readTimeoutMs'], MAX_SERVE_TIMEOUT_MS)
        : DEFAULT_CONNECTION_TIMEOUT_MS,
    ),
  };
  // Node refuses a requestTimeout under headersTimeout at the first request, not at construction.
  if (settings.requestTimeoutMs < settings.headersTimeoutMs) {
    throw invalidOption('requestTimeoutMs', 'must be at least headersTimeoutMs');
  }
  return settings;
}

/**
 * RFC 9113 §3.4 and §7: the server's preface (an empty SETTINGS frame), then GOAWAY naming no
 * stream and HTTP_1_1_REQUIRED, which tells an HTTP/2 client to come back over HTTP/1.1.
 */
const HTTP2_NOT_SERVED = Buffer.from([
  ...[0, 0, 0, 0x04, 0, 0, 0, 0, 0],
  ...[0, 0, 8, 0x07, 0, 0, 0, 0, 0],
  ...[0, 0, 0, 0],
  ...[0, 0, 0, 0x0d],
]);

/** `http2: false`: a connection opening with the HTTP/2 preface is told so in HTTP/2, then closed. */
function refuseHttp2(socket: Socket, onLog: (event: HttpLogEvent) => void): void {
  reportRefusal(onLog, { refusal: REFUSALS.http2NotServed });
  // Stryker disable next-line StringLiteral: a reset racing the close is nobody's to hear
  socket.on('error', () => {});
  socket.end(HTTP2_NOT_SERVED);
  socket.destroySoon();
}

export async function serve(server: Server, options: ServeOptions): Promise<Serving> {
  if (!isPlainObject(options)) throw invalidOption('serve options', 'must be a plain object');
  refuseUnknownKeys(options, [...HTTP_KEYS, ...SERVE_KEYS], '');
  const settings = checkSettings(options);
  const tls = options.tls === undefined ? undefined : checkTlsOptions(options.tls);
  const handlerOptions: Record<string, unknown> = {};
  for (const key of HTTP_KEYS) if (options[key] !== undefined) handlerOptions[key] = options[key];
  if (options.allowedHosts === undefined) {
    // Guessing the public names of a non-loopback bind would open DNS rebinding.
    if (!isLoopback(settings.host)) {
      throw invalidOption('allowedHosts', `is required when binding ${settings.host}, which is not loopback`);
    }
    handlerOptions['allowedHosts'] = LOOPBACK_HOSTS;
  }
  // A listening server owns every path: only the endpoint is MCP, the rest is 404.
  if (options.path === undefined) handlerOptions['path'] = DEFAULT_SERVE_PATH;
  const routes = checkRoutes(options.routes, handlerOptions['path'] as string);
  const mcp = createHttpHandler(server, handlerOptions as unknown as HttpHandlerOptions);
  // Without routes nothing stands before the handler: not even a path lookup per request.
  const handler = routes === undefined ? mcp : routeFront(routes, checkHttpOptions(handlerOptions), mcp);
  // Checked by the handler just now; for what serve() refuses before either HTTP server runs.
  const onLog = guardedHook('onLog', refusalLog(options.onLog, options.logger));

  const http1 = createHttp1Server(
    {
      maxHeaderSize: settings.maxHeaderSize,
      headersTimeout: settings.headersTimeoutMs,
      requestTimeout: settings.requestTimeoutMs,
      // Node checks both deadlines on this interval (default 30 s), so a short deadline needs a short tick.
      connectionsCheckingInterval: Math.min(1_000, settings.headersTimeoutMs),
      // A request without Host reaches the handler, which refuses it by name; Node's is a bare 400.
      requireHostHeader: false,
      // Strict whatever the process says: `--insecure-http-parser` would admit the framing
      // ambiguities (Content-Length beside Transfer-Encoding, obs-fold) that smuggling is made of.
      insecureHTTPParser: false,
    },
    handler,
  );
  // Node drops header lines past 1,023 pairs by default, silently; 0 keeps them all, so the handler
  // counts every line against MAX_HEADER_LINES, and maxHeaderSize bounds their bytes.
  http1.maxHeadersCount = 0;
  http1.keepAliveTimeout = settings.keepAliveTimeoutMs;
  // Malformed requests, Expect, CONNECT and 100-continue get Palisade's answers, not Node's own.
  handler.attach(http1);
  // The HTTP/1.1 server never listens; 'listening' is what starts its deadline checks.
  http1.emit('listening');

  const sessions = new Set<Http2Session>();
  const http2 = createHttp2Server(
    {
      maxSessionMemory: settings.maxSessionMemory,
      settings: {
        maxConcurrentStreams: settings.maxConcurrentStreams,
        maxHeaderListSize: settings.maxHeaderSize,
      },
    },
    handler,
  );
  handler.attach(http2);
  http2.on('session', (session) => {
    sessions.add(session);
    // Stryker disable next-line StringLiteral,ArrowFunction: close() then destroys a closed session, a no-op
    session.once('close', () => sessions.delete(session));
    // An idle session is closed with GOAWAY; streams still open finish first.
    session.setTimeout(settings.keepAliveTimeoutMs, () => session.close());
    // What neither the 408 nor the idle timeout ends (PINGs, answers never taken), session-guard.ts bounds.
    guardSession(session, {
      connectionTimeoutMs: settings.connectionTimeoutMs,
      readTimeoutMs: options.readTimeoutMs ?? DEFAULT_HTTP_READ_TIMEOUT_MS,
    });
  });

  const sockets = new Set<Socket>();
  const track = (socket: Socket): void => {
    sockets.add(socket);
    // Stryker disable next-line StringLiteral,ArrowFunction: close() then destroys a closed socket, a no-op
    socket.once('close', () => sockets.delete(socket));
  };
  const listener: NetServer = tls
    ? createTlsListener(
        tls,
        { http2: settings.http2, handshakeTimeoutMs: settings.sniffTimeoutMs },
        (socket, protocol) => (protocol === 'h2' ? http2 : http1).emit('connection', socket),
      )
    : // As http.createServer does: without TCP_NODELAY, Nagle holds each small answer for the
      // client's delayed ACK on a kept-alive connection.
      createNetServer({ noDelay: true });
  // The raw TCP socket (under TLS too) is what close() ends and maxConnections counts.
  listener.on('connection', track);
  if (!tls)
    listener.on('connection', (socket: Socket) => {
      sniff(socket, settings.sniffTimeoutMs, (verdict) => {
        if (verdict === 'http1') {
          http1.emit('connection', socket);
          // The HTTP/1.1 server reads through 'data' and does not resume a socket paused by the sniff.
          socket.resume();
        } else if (verdict === 'http2' && settings.http2) {
          // Node's session reads the held bytes itself on the next tick; a resume here would flow
          // them to no listener first and the session would see no preface.
          http2.emit('connection', socket);
        } else if (verdict === 'http2') {
          refuseHttp2(socket, onLog);
        }
      });
    });
  listener.maxConnections = settings.maxConnections;
  listener.listen(settings.port, settings.host);
  await Promise.race([
    once(listener, 'listening'),
    once(listener, 'error').then(([error]: unknown[]) => Promise.reject(error)),
  ]);
  const address = listener.address();
  if (address === null || typeof address === 'string') throw new Error('serve: the listener has no port');

  return {
    url: servingUrl(tls ? 'https' : 'http', address, options.allowedHosts ?? LOOPBACK_HOSTS),
    port: address.port,
    server: listener,
    close: async () => {
      const closed = once(listener, 'close');
      listener.close();
      for (const session of sessions) session.destroy();
      for (const socket of sockets) socket.destroy();
      http1.close();
      // Sessions outlive connections by design (a disconnect is not a cancel): they end here.
      mcp.close();
      await closed;
    },
  };
}
