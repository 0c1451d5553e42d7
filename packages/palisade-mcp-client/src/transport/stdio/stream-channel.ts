/**
 * Newline-delimited JSON-RPC over a pair of byte streams: the stdio transport's pipes and the
 * in-process pair. What arrives is framed by the wire's StdioFramer (a line over 1 MiB is
 * discarded as it streams, never held) and read by the bounded reader; a refused line names its
 * rule to the sink. What leaves is the wire's encoder, one line per message.
 */
import type { Readable, Writable } from 'node:stream';
import { encodeMessage, readJsonMessage, StdioFramer } from 'palisade-mcp/wire';
import { ClientError } from '../../errors.js';
import type { TransportSink } from '../types.js';

export class StreamChannel {
  readonly #input: Readable;
  readonly #output: Writable;
  readonly #framer = new StdioFramer();
  #sink: TransportSink | undefined;
  #ended = false;

  /** `input`: the server's output, read here. `output`: the server's input, written here. */
  constructor(input: Readable, output: Writable) {
    this.#input = input;
    this.#output = output;
  }

  start(sink: TransportSink): void {
    this.#sink = sink;
    this.#input.on('data', (chunk: Buffer) => {
      for (const frame of this.#framer.push(chunk)) this.#frame(frame);
    });
    this.#input.once('end', () => {
      for (const frame of this.#framer.end()) this.#frame(frame);
      this.end(new ClientError('PALISADE_CLIENT_ERR_CLOSED', 'the server closed its output'));
    });
    this.#input.once('error', (cause) =>
      this.end(new ClientError('PALISADE_CLIENT_ERR_TRANSPORT', 'the server’s output failed', { cause })),
    );
    this.#output.once('error', (cause) =>
      this.end(new ClientError('PALISADE_CLIENT_ERR_TRANSPORT', 'the server’s input failed', { cause })),
    );
  }

  #frame(frame: ReturnType<StdioFramer['push']>[number]): void {
    const sink = this.#sink;
    if (sink === undefined) return;
    if (frame.kind === 'refusal') {
      sink.refusal(
        new ClientError(
          'PALISADE_CLIENT_ERR_MESSAGE_REFUSED',
          `the server sent a line the client refused: ${frame.refusal.message}`,
          {
            rule: frame.refusal.rule,
          },
        ),
      );
      return;
    }
    const read = readJsonMessage(frame.bytes);
    if (!read.ok) {
      sink.refusal(
        new ClientError(
          'PALISADE_CLIENT_ERR_MESSAGE_REFUSED',
          `the server sent a message the client refused: ${read.refusal.message}`,
          {
            rule: read.refusal.rule,
          },
        ),
      );
      return;
    }
    sink.message(read.value);
  }

  async send(message: Readonly<Record<string, unknown>>): Promise<void> {
    if (this.#ended) throw new ClientError('PALISADE_CLIENT_ERR_CLOSED', 'the connection is closed');
    const encoded = encodeMessage(message);
    if (!encoded.ok) {
      throw new ClientError(
        'PALISADE_CLIENT_ERR_INVALID_OPTION',
        `the message has no faithful JSON form: ${encoded.reason}`,
      );
    }
    await new Promise<void>((resolve, reject) => {
      this.#output.write(`${encoded.text}\n`, (error) =>
        error
          ? reject(
              new ClientError('PALISADE_CLIENT_ERR_TRANSPORT', 'the server’s input failed', { cause: error }),
            )
          : resolve(),
      );
    });
  }

  end(error: ClientError): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#sink?.closed(error);
  }

  get ended(): boolean {
    return this.#ended;
  }
}
