/**
 * MCP over stdio: newline-delimited JSON-RPC in, one line per message out (legacy
 * `Content-Length` frames are read too, and answered in the framing they came in). Every line is
 * read under the size bound by the framer and decoded by the one bounded reader; each request
 * runs concurrently and its response is written when it settles.
 *
 * stdout carries protocol messages only. While the transport owns process.stdout, anything else
 * written there (a host's stray `console.log` included) is sent to stderr instead.
 */

import {
  DEFAULT_INPUT_TIMEOUT_MS,
  MAX_INPUT_TIMEOUT_MS,
  MAX_SSE_QUEUED_BYTES,
  STDIO_SHUTDOWN_GRACE_MS,
} from '../limits.js';
import { INVALID_REQUEST } from '../wire/codes.js';

export { STDIO_SHUTDOWN_GRACE_MS } from '../limits.js';

import type { Readable, Writable } from 'node:stream';
import { invalidOption } from '../errors.js';
import { isPlainObject, refuseUnknownKeys, requireFunction, requireInteger } from '../options.js';
import { type Change, missedChanges } from '../protocol/change-hub.js';
import { type Exchange, handleMessage } from '../protocol/core.js';
import { internalError } from '../protocol/errors.js';
import { LIST_METHODS, serves } from '../protocol/methods/listen.js';
import { type ConnectionState, initialState } from '../protocol/state.js';
import type { Server } from '../server.js';
import { askRound } from '../sessions/ask-round.js';
import { looksLikeReply, readClientReply } from '../sessions/client-reply.js';
import { MemoryRelay } from '../sessions/memory-relay.js';
import { guardedHook } from '../telemetry/guarded-hook.js';
import { checkLogger, faultToLogger, type PalisadeLogger } from '../telemetry/logger.js';
import { defaultFault } from '../telemetry/transport-log.js';
import { encodeMessage } from '../wire/encode.js';
import { readJsonMessage } from '../wire/json-reader.js';
import {
  errorResponse,
  isValidId,
  type JsonRpcNotification,
  type OutgoingMessage,
  type RequestId,
} from '../wire/jsonrpc.js';
import { type Frame, StdioFramer } from '../wire/stdio-framer.js';
import { ID_IN_FLIGHT_RULE, reportStdioRefusal } from './stdio-refusal.js';

export interface StdioOptions {
  /** Default `process.stdin`. */
  readonly input?: Readable;
  /** Default `process.stdout`. */
  readonly output?: Writable;
  /** Exit the process once input ends and output is flushed. Default: true when reading `process.stdin`. */
  readonly exitOnClose?: boolean;
  /** Where host faults are reported. Default: the `logger`, else one line on stderr. Never sent to the client. */
  readonly onFault?: (description: string, cause: unknown) => void;
  /**
   * How long a handler waits for the client's answer to a request it sent (`ctx.inputRequired` on
   * a handshake revision becomes a real sampling, elicitation or roots request), ms. Default
   * 300,000; then the handler catches PALISADE_ERR_INPUT_UNANSWERED.
   */
  readonly inputTimeoutMs?: number;
  /**
   * A pino-compatible logger (`warn(obj, msg)`, `error(obj, msg)`): refusals this transport
   * answers go to `warn` (`event: 'palisade.refusal'`), host faults to `error` unless `onFault`
   * is given (docs/telemetry.md). Without it, refusals are not logged (the client hears them).
   */
  readonly logger?: PalisadeLogger;
}

export interface StdioHandle {
  /** Settles once input has ended, in-flight handlers were aborted and output was flushed. */
  readonly closed: Promise<void>;
}

type Framing = Frame['framing'];

interface InFlight {
  readonly controller: AbortController;
  /** Set by `notifications/cancelled`: such a request gets nothing more, its response included. */
  cancelled: boolean;
  readonly settled: Promise<void>;
}

const STDIO_KEYS = ['input', 'output', 'exitOnClose', 'onFault', 'logger', 'inputTimeoutMs'] as const;
/** The relay's name for this connection's waits: a stdio connection is its own one session. */
const CONNECTION = 'stdio';

function frameText(text: string, framing: Framing): string {
  return framing === 'line'
    ? `${text}\n`
    : `Content-Length: ${Buffer.byteLength(text, 'utf8')}\r\n\r\n${text}`;
}

/**
 * A 2025-11-25 stdio client hears every list change the host declared (no filter exists in that
 * revision) and `notifications/resources/updated` only for URIs it subscribed to.
 */
function legacyChange(
  server: Server,
  state: ConnectionState,
  change: Change,
): JsonRpcNotification | undefined {
  if (change.kind === 'resourceUpdated') {
    return state.legacy?.subscriptions?.has(change.uri) === true
      ? { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: change.uri } }
      : undefined;
  }
  return serves(server.catalog, change.kind)
    ? { jsonrpc: '2.0', method: LIST_METHODS[change.kind] }
    : undefined;
}

export function serveStdio(server: Server, options: StdioOptions = {}): StdioHandle {
  const checked: unknown = options;
  if (!isPlainObject(checked)) throw invalidOption('stdio options', 'must be a plain object');
  refuseUnknownKeys(checked, STDIO_KEYS, '');
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const exitOnClose = options.exitOnClose ?? input === process.stdin;
  const logger = checkLogger(options.logger, 'logger');
  const inputTimeoutMs =
    options.inputTimeoutMs === undefined
      ? DEFAULT_INPUT_TIMEOUT_MS
      : requireInteger(options.inputTimeoutMs, 'inputTimeoutMs', 1, MAX_INPUT_TIMEOUT_MS);
  const onFault: unknown = options.onFault;
  const reportFault = guardedHook(
    'onFault',
    onFault === undefined
      ? logger === undefined
        ? defaultFault
        : faultToLogger(logger, 'stdio')
      : requireFunction<(description: string, cause: unknown) => void>(onFault, 'onFault'),
  );

  // Keep stdout for protocol bytes alone: divert every other writer to stderr while we own it.
  const ownsStdout = output === process.stdout;
  const stdoutWrite = process.stdout.write;
  const protocolWrite: Writable['write'] = ownsStdout
    ? stdoutWrite.bind(process.stdout)
    : output.write.bind(output);
  if (ownsStdout)
    process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;

  const framer = new StdioFramer();
  const inFlight = new Map<RequestId, InFlight>();
  /** Handlers waiting for the client's answers to the requests they sent it. */
  const relay = new MemoryRelay();
  let state: ConnectionState = initialState('stdio');
  /** Set once a 2025-11-25 client is initialized: announced changes then reach it directly. */
  let unlistenChanges: (() => void) | undefined;
  let closing = false;
  let waitingForDrain = false;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });

  function write(message: OutgoingMessage, framing: Framing): void {
    if (closing) return;
    // A notification is dropped, never queued without end, while a client is not reading: the
    // responses it is owed still go out (their number is bounded by its own requests).
    if (!('id' in message) && output.writableLength > MAX_SSE_QUEUED_BYTES) return;
    let encoded = encodeMessage(message);
    if (!encoded.ok) {
      reportFault(`an outgoing message could not be serialized: ${encoded.reason}`, undefined);
      // A response that cannot be serialized is still answered; a notification is dropped.
      if (!('result' in message) && !('error' in message)) return;
      encoded = encodeMessage(internalError(message.id));
      if (!encoded.ok) return;
    }
    const accepted = protocolWrite(frameText(encoded.text, framing));
    // Node buffers writes without limit; a client that stops reading stops us reading too.
    if (!accepted && !waitingForDrain) {
      waitingForDrain = true;
      input.pause();
      output.once('drain', () => {
        waitingForDrain = false;
        if (!closing) input.resume();
      });
    }
  }

  /** A request to the client: never dropped for backpressure (each round is bounded), as a response is not. */
  function writeRequest(text: string, framing: Framing): void {
    if (closing) return;
    protocolWrite(frameText(text, framing));
  }

  function dispatch(message: Record<string, unknown>, framing: Framing): void {
    // The client's answer to a request a handler sent it goes to that handler. One nobody waits
    // for (never sent, answered already, lapsed) goes to the core, which refuses it as ever.
    if (looksLikeReply(message)) {
      const reply = readClientReply(message);
      if (reply !== undefined && relay.deliver(CONNECTION, reply) === 'delivered') return;
    }
    const id = typeof message['method'] === 'string' && isValidId(message['id']) ? message['id'] : undefined;
    if (id !== undefined && inFlight.has(id)) {
      // Two requests in flight under one id could not be told apart by a cancel or by the client.
      reportStdioRefusal(ID_IN_FLIGHT_RULE, INVALID_REQUEST, logger);
      write(
        errorResponse(
          undefined,
          INVALID_REQUEST,
          'Invalid request: id is already used by a request in flight',
        ),
        framing,
      );
      return;
    }
    const controller = new AbortController();
    const exchange: Exchange = handleMessage(server, state, message, {
      signal: controller.signal,
      auth: undefined,
      emit: (notification) => {
        if (!controller.signal.aborted) write(notification, framing);
      },
      reportFault,
      ask: (requests) =>
        askRound(requests, {
          session: CONNECTION,
          relay,
          timeoutMs: inputTimeoutMs,
          signal: controller.signal,
          send: (text) => writeRequest(text, framing),
        }),
    });
    state = exchange.state;
    if (state.legacy?.initialized === true && unlistenChanges === undefined) {
      const tell = (change: Change): void => {
        const notification = legacyChange(server, state, change);
        if (notification !== undefined) write(notification, framing);
      };
      unlistenChanges = server.changes.listen(tell, () => {
        for (const change of missedChanges(server.changes.declared, state.legacy?.subscriptions ?? []))
          tell(change);
      });
    }
    if (exchange.cancels !== undefined) {
      const target = inFlight.get(exchange.cancels);
      if (target !== undefined) {
        target.cancelled = true;
        target.controller.abort();
      }
    }
    if (id === undefined) {
      void exchange.response.then((response) => {
        if (response !== undefined) write(response, framing);
      });
      return;
    }
    const entry: InFlight = {
      controller,
      cancelled: false,
      settled: exchange.response.then((response) => {
        inFlight.delete(id);
        if (response !== undefined && !entry.cancelled) write(response, framing);
      }),
    };
    inFlight.set(id, entry);
  }

  function onFrame(frame: Frame): void {
    if (frame.kind === 'refusal') {
      reportStdioRefusal(frame.refusal.rule, frame.refusal.code, logger);
      write(errorResponse(undefined, frame.refusal.code, frame.refusal.message), frame.framing);
      return;
    }
    const read = readJsonMessage(frame.bytes);
    if (!read.ok) {
      reportStdioRefusal(read.refusal.rule, read.refusal.code, logger);
      write(errorResponse(undefined, read.refusal.code, read.refusal.message), frame.framing);
      return;
    }
    dispatch(read.value, frame.framing);
  }

  let shuttingDown = false;
  function shutdown(): void {
    if (shuttingDown) return;
    shuttingDown = true;
    input.off('data', onData);
    unlistenChanges?.();
    relay.endSession(CONNECTION);
    const pending = [...inFlight.values()];
    for (const entry of pending) entry.controller.abort();
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, STDIO_SHUTDOWN_GRACE_MS);
      timer.unref();
    });
    void Promise.race([Promise.all(pending.map((entry) => entry.settled)), grace]).then(() => {
      clearTimeout(timer);
      closing = true;
      const finish = (): void => {
        if (ownsStdout) process.stdout.write = stdoutWrite;
        resolveClosed();
        if (exitOnClose) process.exit(0);
      };
      // An empty write's callback runs once everything queued before it has been flushed.
      if (output.writableEnded || output.destroyed) finish();
      else protocolWrite('', () => finish());
    });
  }

  function onData(chunk: Buffer | string): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    for (const frame of framer.push(bytes)) onFrame(frame);
  }

  input.on('data', onData);
  input.once('end', () => {
    for (const frame of framer.end()) onFrame(frame);
    shutdown();
  });
  input.once('close', shutdown);
  input.once('error', shutdown);
  output.once('error', shutdown);
  return { closed };
}
