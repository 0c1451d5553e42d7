/**
 * One event stream of a session: its GET stream, or the SSE answer of one request. Every event is
 * kept in the event store before it is written, under the id the store gave it, so a client that
 * lost the connection resumes with a GET and `Last-Event-ID` and misses nothing the store keeps.
 * The stream outlives its connections: a connection may close (the client left, or the server
 * closed it to make the client poll) and another may attach by resuming.
 *
 * Store calls may be asynchronous; every step of a stream (open, append and write, attach, end)
 * runs in order, so a resumed connection gets each event exactly once: what the replay read, then
 * what came after.
 */
import type { ServerResponse } from 'node:http';
import type { Awaitable, EventStore, StoredEvent, StreamLimits } from '../../sessions/contracts.js';
import { type BoundedWriter, boundedWriter, type Overrun } from '../sse-writer.js';

export interface StreamHooks {
  readonly events: EventStore;
  readonly limits: StreamLimits;
  readonly retryMs: number;
  /** A store call failed: for the host's log; the stream goes on without resumption. */
  readonly fault: (description: string, cause: unknown) => void;
  /** The writer cut a connection whose client did not read it. */
  readonly overrun: (why: Overrun) => void;
  /** The session keeps as many streams as it may: this one is written without ids. */
  readonly full: () => void;
  /** The store named the stream: a resume can find it by that name from now on. */
  readonly opened: (stream: SessionStream) => void;
}

function after<T>(value: Awaitable<T>, next: (value: T) => Awaitable<void>): Awaitable<void> {
  return value instanceof Promise ? value.then(next) : next(value);
}

interface Connection {
  readonly res: ServerResponse;
  readonly writer: BoundedWriter;
}

export class SessionStream {
  /** The event store's id for this stream; undefined until opened, or when the store had no room. */
  storeId: string | undefined;
  ended = false;
  readonly #session: string;
  readonly #hooks: StreamHooks;
  #connection: Connection | undefined;
  /** Steps still running (asynchronous store calls); undefined when none: the next runs at once. */
  #tail: Promise<void> | undefined;
  #opened = false;

  constructor(session: string, hooks: StreamHooks) {
    this.#session = session;
    this.#hooks = hooks;
  }

  get connected(): boolean {
    return this.#connection !== undefined;
  }

  /** Runs `step` after every earlier one, at once when none is pending. */
  #run(step: () => Awaitable<void>): void {
    const guarded = (): Awaitable<void> => {
      try {
        const ran = step();
        return ran instanceof Promise
          ? ran.catch((cause) => this.#hooks.fault('a session stream step failed', cause))
          : ran;
      } catch (cause) {
        this.#hooks.fault('a session stream step failed', cause);
      }
    };
    if (this.#tail === undefined) {
      const ran = guarded();
      if (ran instanceof Promise) this.#track(ran);
      return;
    }
    this.#track(this.#tail.then(guarded));
  }

  #track(pending: Promise<void>): void {
    const tail = pending.then(() => {
      if (this.#tail === tail) this.#tail = undefined;
    });
    this.#tail = tail;
  }

  /** Opens the stream in the store once; a store with no room leaves it without ids. */
  #open(): Awaitable<void> {
    if (this.#opened) return;
    this.#opened = true;
    return after(this.#hooks.events.openStream(this.#session, this.#hooks.limits), (id) => {
      this.storeId = id;
      if (id === undefined) this.#hooks.full();
      else this.#hooks.opened(this);
    });
  }

  /**
   * Attaches `res` as the stream's connection and sends the SSE head; with `prime`, a first event
   * with an id and no data and the `retry` field, so the client can resume from it (2025-11-25).
   * A connection already attached is closed first: the client moved to the new one.
   */
  attach(res: ServerResponse, prime: boolean): void {
    this.#run(() => this.#attachNow(res, prime, []));
  }

  /** Resumes: the events kept after the client's last one, then every new one, on `res`. */
  resume(res: ServerResponse, replayed: () => Awaitable<readonly StoredEvent[] | undefined>): void {
    // Read and attach in one step: an event appended meanwhile waits behind it, so it is neither
    // missed (appended after the read, written before the attach) nor sent twice.
    this.#run(() =>
      after(replayed(), (events) => {
        if (events !== undefined) return this.#attachNow(res, false, events);
      }),
    );
  }

  #attachNow(res: ServerResponse, prime: boolean, replayed: readonly StoredEvent[]): Awaitable<void> {
    return after(this.#open(), () => {
      this.#closeConnection();
      if (res.destroyed) return;
      const writer = boundedWriter(res, (why) => {
        if (this.#connection?.res === res) this.#connection = undefined;
        this.#hooks.overrun(why);
      });
      const connection = { res, writer };
      writer.begin();
      for (const event of replayed) this.#write(connection, event);
      if (this.ended) {
        // Everything was replayed and nothing more will come: the stream is over for this client.
        writer.end();
        return;
      }
      this.#connection = connection;
      res.once('close', () => {
        if (this.#connection === connection) this.#connection = undefined;
      });
      if (!prime || this.storeId === undefined) return;
      return after(this.#hooks.events.append(this.#session, this.storeId, '', this.#hooks.limits), (id) => {
        if (id !== undefined && this.#connection === connection)
          writer.frame(`id: ${id}\nretry: ${this.#hooks.retryMs}\ndata: \n\n`);
      });
    });
  }

  #write(connection: Connection, event: StoredEvent): void {
    if (event.data === '') connection.writer.frame(`id: ${event.id}\ndata: \n\n`);
    else connection.writer.event(event.data, event.id);
  }

  /** One message, kept then written; `last` ends the stream (and its connection) after it. */
  send(text: string, last = false): void {
    this.#run(() =>
      after(this.#open(), () => {
        const storeId = this.storeId;
        if (storeId === undefined) {
          this.#deliver({ id: undefined, text }, last);
          return;
        }
        return after(this.#hooks.events.append(this.#session, storeId, text, this.#hooks.limits), (id) => {
          this.#deliver({ id, text }, last);
          if (last) return this.#hooks.events.endStream(this.#session, storeId);
        });
      }),
    );
  }

  #deliver(event: { readonly id: string | undefined; readonly text: string }, last: boolean): void {
    const connection = this.#connection;
    if (last) {
      this.ended = true;
      this.#connection = undefined;
      connection?.writer.end(event.text, event.id);
      return;
    }
    connection?.writer.event(event.text, event.id);
  }

  /** Ends the stream with no further event (a cancelled request, an ended session). */
  end(): void {
    this.#run(() => {
      if (this.ended) return;
      this.ended = true;
      this.#closeConnection();
      if (this.storeId !== undefined) return this.#hooks.events.endStream(this.#session, this.storeId);
    });
  }

  /**
   * Closes the connection without ending the stream (2025-11-25 polling): the client waits
   * `retry` and resumes with `Last-Event-ID`.
   */
  release(): void {
    this.#run(() => {
      const connection = this.#connection;
      if (connection === undefined) return;
      this.#connection = undefined;
      connection.writer.frame(`retry: ${this.#hooks.retryMs}\n\n`);
      connection.writer.end();
    });
  }

  #closeConnection(): void {
    const connection = this.#connection;
    this.#connection = undefined;
    connection?.writer.end();
  }
}
