/**
 * `serve({ tls })`: HTTPS on the port, with the protocol chosen by ALPN during the handshake
 * (`h2`, else `http/1.1`; a client that offers no ALPN speaks HTTP/1.1), so no byte sniffing is
 * needed. The TLS server only terminates TLS and hands each secured socket to the same HTTP/1.1
 * and HTTP/2 servers the plaintext path uses, which never listen themselves, so every server
 * setting holds on both paths. The handshake is bounded by `sniffTimeoutMs`: Node's own default is
 * 120 s per silent connection.
 *
 * The package holds no key: the host passes its certificate and key, which go to Node's TLS as
 * they are and are checked once here, by building the secure context, so a key that does not
 * load or does not match its certificate fails `serve()` rather than every handshake.
 */
import {
  createSecureContext,
  createServer as createTlsServer,
  type SecureContextOptions,
  type TLSSocket,
  type Server as TlsServer,
} from 'node:tls';
import { invalidOption } from '../../errors.js';
import { isPlainObject, refuseUnknownKeys } from '../../options.js';

export type Pem = string | Buffer | readonly (string | Buffer)[];

export interface ServeTlsOptions {
  /** Private key(s) in PEM. With `cert`; or pass `pfx`. */
  readonly key?: Pem;
  /** Certificate chain(s) in PEM. */
  readonly cert?: Pem;
  /** Trusted CA certificates, if not the system's. */
  readonly ca?: Pem;
  /** PKCS#12 key and certificate, instead of `key` and `cert`. */
  readonly pfx?: string | Buffer;
  readonly passphrase?: string;
  /** Oldest TLS version accepted. Default `'TLSv1.2'`. */
  readonly minVersion?: 'TLSv1.2' | 'TLSv1.3';
}

const TLS_KEYS = ['key', 'cert', 'ca', 'pfx', 'passphrase', 'minVersion'] as const;

function isPem(value: unknown): boolean {
  const one = (entry: unknown): boolean =>
    (typeof entry === 'string' && entry.length > 0) || (Buffer.isBuffer(entry) && entry.length > 0);
  return Array.isArray(value) ? value.length > 0 && value.every(one) : one(value);
}

/** Validated once; the result is what `tls.createServer` receives, less the ALPN and timeout. */
export function checkTlsOptions(value: unknown): SecureContextOptions {
  if (!isPlainObject(value)) throw invalidOption('tls', 'must be a plain object');
  refuseUnknownKeys(value, TLS_KEYS, 'tls');
  for (const key of ['key', 'cert', 'ca'] as const) {
    if (value[key] !== undefined && !isPem(value[key])) {
      throw invalidOption(`tls.${key}`, 'must be a non-empty string or Buffer, or an array of them');
    }
  }
  if (value['pfx'] !== undefined && !isPem(value['pfx'])) {
    throw invalidOption('tls.pfx', 'must be a non-empty string or Buffer');
  }
  const hasPair = value['key'] !== undefined && value['cert'] !== undefined;
  if (!hasPair && value['pfx'] === undefined) throw invalidOption('tls', 'needs key and cert, or pfx');
  if (value['passphrase'] !== undefined && typeof value['passphrase'] !== 'string') {
    throw invalidOption('tls.passphrase', 'must be a string');
  }
  const minVersion = value['minVersion'] ?? 'TLSv1.2';
  if (minVersion !== 'TLSv1.2' && minVersion !== 'TLSv1.3') {
    throw invalidOption('tls.minVersion', "must be 'TLSv1.2' or 'TLSv1.3'");
  }
  const options = { ...value, minVersion } as SecureContextOptions;
  try {
    createSecureContext(options);
  } catch (error) {
    // OpenSSL's reason names the failure (bad decrypt, key values mismatch), never key bytes.
    const reason = error instanceof Error ? error.message : 'unknown error';
    throw invalidOption('tls', `could not be loaded: ${reason}`);
  }
  return options;
}

export type Negotiated = 'h2' | 'http/1.1';

/** A TLS listener that hands each secured socket on, with the protocol ALPN settled. */
export function createTlsListener(
  tls: SecureContextOptions,
  settings: { readonly http2: boolean; readonly handshakeTimeoutMs: number },
  secured: (socket: TLSSocket, protocol: Negotiated) => void,
): TlsServer {
  const listener = createTlsServer(
    {
      ...tls,
      ALPNProtocols: settings.http2 ? ['h2', 'http/1.1'] : ['http/1.1'],
      handshakeTimeout: settings.handshakeTimeoutMs,
      noDelay: true,
    },
    (socket) => secured(socket, socket.alpnProtocol === 'h2' ? 'h2' : 'http/1.1'),
  );
  // A failed or timed-out handshake is the client's fault, not ours; Node reports it here and
  // leaves the socket open (a lapsed handshakeTimeout included), so it is ended here.
  listener.on('tlsClientError', (_error, socket) => socket.destroy());
  return listener;
}
