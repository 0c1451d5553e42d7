/**
 * One request running on a session, and what the core borrows for it (`ExchangeIO`). Unlike a
 * stateless answer, its stream is resumable (every event kept under an id before it is written),
 * the client may cancel it by id (`notifications/cancelled`), a disconnect is not a cancel (the
 * handler runs on and the client resumes), and its handler may ask the client (`ask`): each input
 * request becomes a JSON-RPC request on this request's stream, and the client's reply, POSTed on
 * the session, comes back through the relay.
 */
import type { ServerResponse } from 'node:http';
import { type AnswerStage, type ExchangeIO, handleMessage } from '../../protocol/core.js';
import { internalError, serviceUnavailable } from '../../protocol/errors.js';
import type { InputAnswers, InputRequiredValue } from '../../protocol/input-required.js';
import type { ConnectionState } from '../../protocol/state.js';
import type { Server } from '../../server.js';
import { askRound } from '../../sessions/ask-round.js';
import type { Awaitable, PendingReply } from '../../sessions/contracts.js';
import { UnavailableError } from '../../unavailable.js';
import { encodeMessage } from '../../wire/encode.js';
import type { JsonRpcNotification, JsonRpcResponse, RequestId } from '../../wire/jsonrpc.js';
import { type HttpRefusal, WRITE_REFUSALS } from '../refusals.js';
import { statusOf, writeEmpty, writeJson } from '../respond.js';
import { boundedWriter } from '../sse-writer.js';
import { unavailableAnswer } from '../unavailable-answer.js';
import { SESSION_REFUSALS } from './session-refusals.js';
import type { SessionStream } from './session-stream.js';

/** What an answer that cannot be encoded is replaced by: a constant, encoded once. */
const INTERNAL_ERROR_TEXT = JSON.stringify(internalError(undefined));

/** What a call needs of the session it runs on (session-host.ts). */
export interface CallSession {
  readonly id: string;
  readonly server: Server;
  readonly inputTimeoutMs: number;
  readonly pollAfterMs: number | undefined;
  readonly relay: {
    wait(session: string, deadline: number): PendingReply | Promise<PendingReply>;
    onCancel(session: string, request: RequestId, abort: () => void): () => void;
  };
  /**
   * A relay the host was given may bring a cancel from another process, so each call listens to
   * it; the one the host built reaches no other process, and the host cancels its calls itself.
   */
  readonly relayCarriesCancels: boolean;
  readonly reportFault: (description: string, cause: unknown) => void;
  /** Logs and publishes a refusal decided while the call ran (shared state unreachable). */
  readonly reportRefusal: (refusal: HttpRefusal) => void;
  /** A stream for this call's SSE answer, registered with the session for resumption. */
  openStream(): SessionStream;
  /** The session's GET stream, when it has one connected. */
  connectedStandalone(): SessionStream | undefined;
  /** The call settled (answered or cancelled): it no longer counts as in flight. */
  settled(call: SessionCall): void;
}

export class SessionCall implements ExchangeIO {
  readonly auth: unknown;
  readonly reportFault: (description: string, cause: unknown) => void;
  readonly requestId: RequestId;
  readonly #session: CallSession;
  readonly #res: ServerResponse;
  readonly #mayStream: boolean;
  /** 2025-11-25: streams open with a priming event and may be released for the client to poll. */
  readonly #primes: boolean;
  #controller: AbortController | undefined;
  #stream: SessionStream | undefined;
  /** The answer was delivered, or the call cancelled: nothing more is sent for it. */
  #done = false;
  /** The client left before any event: a JSON answer can no longer reach it. */
  #gone = false;
  #poll: NodeJS.Timeout | undefined;
  /** Forgets this call's `notifications/cancelled` listener at the relay once it settled. */
  #unlistenCancel: (() => void) | undefined;
  /** Shared state the call needed was unreachable: a JSON answer is then a 503 (unavailable.ts). */
  #unavailable: UnavailableError | undefined;
  /** The session store failed to record what the request changed: a JSON answer is then a 503. */
  #unstored = false;
  /** Answered, its change being stored: a cancel no longer applies. */
  #settling = false;

  constructor(
    session: CallSession,
    requestId: RequestId,
    auth: unknown,
    res: ServerResponse,
    mayStream: boolean,
    primes: boolean,
  ) {
    this.#session = session;
    this.requestId = requestId;
    this.auth = auth;
    this.reportFault = session.reportFault;
    this.#res = res;
    this.#mayStream = mayStream;
    this.#primes = primes;
  }

  get signal(): AbortSignal {
    this.#controller ??= new AbortController();
    return this.#controller.signal;
  }

  /**
   * Runs the core on `message` in `state`. `persist` stores what the request changed in its
   * session (a subscription, the log level), and the answer waits for it: a client told it is
   * subscribed is subscribed in the store, for its next request on any process. A change the
   * store could not record is answered as a failure, never as the handler's success.
   */
  run(
    state: ConnectionState,
    message: Record<string, unknown>,
    persist: (next: ConnectionState) => Awaitable<void>,
  ): void {
    if (this.#session.relayCarriesCancels)
      this.#unlistenCancel = this.#session.relay.onCancel(this.#session.id, this.requestId, () =>
        this.cancel(),
      );
    const res = this.#res;
    res.once('close', () => {
      // 2025-11-25: a disconnect is not a cancel. The handler runs on; a stream keeps its events.
      if (!res.writableFinished && this.#stream === undefined) this.#gone = true;
    });
    const pollAfter = this.#session.pollAfterMs;
    if (this.#primes && this.#mayStream && pollAfter !== undefined) {
      this.#poll = setTimeout(() => {
        // Stryker disable next-line ConditionalExpression: #stop clears this timer when the call is done
        if (this.#done) return;
        // Held long enough: the stream is primed (so it can be resumed) and its connection
        // closed; the client waits `retry` and polls with a GET and Last-Event-ID.
        this.#streamOf().release();
      }, pollAfter);
      this.#poll.unref();
    }
    const exchange = handleMessage(this.#session.server, state, message, this);
    // What the store says, held from now: a failure is never left without a handler.
    let stored: Promise<{ readonly failed: unknown } | undefined> | undefined;
    try {
      const pending = persist(exchange.state);
      if (pending instanceof Promise)
        stored = pending.then(
          () => undefined,
          (cause: unknown) => ({ failed: cause }),
        );
    } catch (cause) {
      stored = Promise.resolve({ failed: cause });
    }
    void exchange.response.then((response) => {
      if (stored === undefined) {
        this.#deliver(response, exchange.stage);
        return;
      }
      // The request has run and its change is being stored: a cancel now comes too late to
      // undo it, so the answer it earned is the one sent (the spec lets a cancel be ignored then).
      this.#settling = true;
      void stored.then((outcome) =>
        this.#deliver(outcome === undefined ? response : this.#notStored(outcome.failed), exchange.stage),
      );
    });
  }

  #notStored(cause: unknown): JsonRpcResponse {
    if (cause instanceof UnavailableError) this.#unavailable = cause;
    else {
      this.reportFault('the session store failed to record a change', cause);
      this.#unstored = true;
    }
    return serviceUnavailable(this.requestId);
  }

  #streamOf(): SessionStream {
    if (this.#stream === undefined) {
      this.#stream = this.#session.openStream();
      this.#stream.attach(this.#res, this.#primes);
    }
    return this.#stream;
  }

  unavailable(error: UnavailableError): void {
    this.#unavailable = error;
  }

  /** Why the answer is a refusal rather than the handler's, told with `status`; undefined when it is not. */
  #failedAnswer(
    status: number,
  ): { refusal: HttpRefusal; headers: Readonly<Record<string, string>> } | undefined {
    if (this.#unavailable !== undefined) return unavailableAnswer(this.#unavailable, status);
    if (this.#unstored) return { refusal: { ...SESSION_REFUSALS.storeFault, status }, headers: {} };
    return undefined;
  }

  emit(notification: JsonRpcNotification): void {
    // Stryker disable next-line ConditionalExpression: the core's context sends nothing once the signal fired, nor after the answer
    if (this.#done) return;
    const encoded = encodeMessage(notification);
    if (!encoded.ok) {
      this.reportFault(`a notification could not be serialized: ${encoded.reason}`, undefined);
      return;
    }
    // A POST that cannot take a stream hears its notifications on the session's GET stream.
    if (this.#mayStream) this.#streamOf().send(encoded.text);
    else this.#session.connectedStandalone()?.send(encoded.text);
  }

  async ask(requests: InputRequiredValue['requests']): Promise<InputAnswers> {
    const through = this.#mayStream ? this.#streamOf() : this.#session.connectedStandalone();
    if (through === undefined)
      return {
        responses: {},
        unanswered:
          'nothing can carry a request to the client: the POST does not accept text/event-stream and the session has no GET stream open',
      };
    return askRound(requests, {
      session: this.#session.id,
      relay: this.#session.relay,
      timeoutMs: this.#session.inputTimeoutMs,
      signal: this.signal,
      send: (text) => through.send(text),
    });
  }

  /**
   * `notifications/cancelled` named this request (or its session ended): its signal fires and
   * nothing more is sent for it, its answer included. A stream already open ends without one; a
   * POST not yet answered gets an empty stream (or 204 when it cannot take one).
   */
  cancel(): void {
    if (this.#done || this.#settling) return;
    this.#stop();
    this.#controller ??= new AbortController();
    this.#controller.abort();
    if (this.#stream !== undefined) this.#stream.end();
    // Stryker disable next-line ConditionalExpression,LogicalOperator: a response whose client left takes no bytes
    else if (!this.#gone && !this.#res.headersSent) {
      if (this.#mayStream) {
        const writer = boundedWriter(this.#res, () => {});
        writer.begin();
        writer.end();
      } else writeEmpty(this.#res, 204);
    }
    this.#session.settled(this);
  }

  #stop(): void {
    this.#done = true;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a poll timer left armed finds the call done and does nothing
    if (this.#poll !== undefined) clearTimeout(this.#poll);
    this.#unlistenCancel?.();
  }

  #deliver(response: JsonRpcResponse | undefined, stage: AnswerStage): void {
    if (this.#done) return;
    this.#stop();
    this.#write(response, stage);
    this.#session.settled(this);
  }

  #write(response: JsonRpcResponse | undefined, stage: AnswerStage): void {
    // A request always has a response; undefined would be a core bug, answered as a fault.
    const answer = response ?? internalError(this.requestId);
    let encoded = encodeMessage(answer);
    if (!encoded.ok) {
      this.reportFault(`a response could not be serialized: ${encoded.reason}`, undefined);
      encoded = encodeMessage(internalError('id' in answer ? answer.id : undefined));
    }
    const text = encoded.ok ? encoded.text : INTERNAL_ERROR_TEXT;
    if (this.#stream !== undefined) {
      const failed = this.#failedAnswer(200);
      if (failed !== undefined) this.#session.reportRefusal(failed.refusal);
      this.#stream.send(text, true);
      return;
    }
    // The client left before any event: nothing is sent, so no refusal is told of either.
    if (this.#gone) return;
    const failed = this.#failedAnswer(503);
    const status = failed === undefined ? statusOf(answer, stage) : 503;
    if (failed !== undefined) this.#session.reportRefusal(failed.refusal);
    const res = this.#res;
    writeJson(res, status, text, failed?.headers);
    // A client that does not read its answer is cut at the drain deadline, and told of as on the stateless path.
    if (res.writableLength > 0 || !res.writableEnded)
      boundedWriter(res, () =>
        this.#session.reportRefusal({ ...WRITE_REFUSALS.jsonDrainTimeout, status }),
      ).watchEnd();
  }
}
