/**
 * A client and a server in one process, for tests (ExMCP's "BEAM-local" case): two in-memory
 * streams carry the same newline-delimited bytes stdio would, through the same bounded framer
 * and reader, so what passes here passes on a pipe. The client package never imports the
 * server: the host connects its end, e.g. `inProcessTransport(({ input, output }) =>
 * serveStdio(server, { input, output, exitOnClose: false }))`.
 */
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { ClientError } from '../errors.js';
import { StreamChannel } from './stdio/stream-channel.js';
import type { SendContext, Transport, TransportSink } from './types.js';

/** The server's side: it reads `input` and writes `output`. */
export interface ServerEnd {
  readonly input: Readable;
  readonly output: Writable;
}

export type ServerConnector = (end: ServerEnd) => { readonly closed?: Promise<void> } | undefined | void;

export class InProcessTransport implements Transport {
  readonly kind = 'in-process' as const;
  readonly #connect: ServerConnector;
  #toServer: PassThrough | undefined;
  #channel: StreamChannel | undefined;
  #closed: Promise<void> | undefined;

  constructor(connect: ServerConnector) {
    if (typeof connect !== 'function') {
      throw new ClientError(
        'PALISADE_CLIENT_ERR_INVALID_OPTION',
        'inProcessTransport takes a function that connects the server',
      );
    }
    this.#connect = connect;
  }

  async start(sink: TransportSink): Promise<void> {
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    this.#toServer = toServer;
    const handle = this.#connect({ input: toServer, output: toClient });
    this.#closed = handle?.closed;
    const channel = new StreamChannel(toClient, toServer);
    this.#channel = channel;
    channel.start(sink);
  }

  async send(message: Readonly<Record<string, unknown>>, _context: SendContext): Promise<void> {
    const channel = this.#channel;
    if (channel === undefined)
      throw new ClientError('PALISADE_CLIENT_ERR_CLOSED', 'the transport was not started');
    await channel.send(message);
  }

  async close(): Promise<void> {
    this.#channel?.end(new ClientError('PALISADE_CLIENT_ERR_CLOSED', 'the client was closed'));
    this.#toServer?.end();
    await this.#closed;
  }
}

export function inProcessTransport(connect: ServerConnector): InProcessTransport {
  return new InProcessTransport(connect);
}
