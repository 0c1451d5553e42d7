/**
 * From one decoded body to its HTTP answer: settle the revision (2026-07-28 `_meta`, a stateless
 * `initialize`, or a handshake revision named by `MCP-Protocol-Version`, 2025-03-26 when the
 * header is absent), hold the headers to the body, run the core, and write JSON or, when the
 * client accepts it and the request emits notifications first, an SSE stream, bounded against a
 * client that does not read it (sse-writer.ts).
 */

import type { ServerResponse } from 'node:http';
import { isPlainObject } from '../options.js';
import { type AnswerStage, type ExchangeIO, handleMessage } from '../protocol/core.js';
import { internalError } from '../protocol/errors.js';
import { servedOver } from '../protocol/revisions/index.js';
import { type ConnectionState, initialState, statelessHandshakeState } from '../protocol/state.js';
import {
  type HandshakeRevision,
  isHandshakeRevision,
  META_PROTOCOL_VERSION,
  MODERN_REVISION,
} from '../revisions.js';
import type { Server } from '../server.js';
import type { UnavailableError } from '../unavailable.js';
import { HEADER_MISMATCH } from '../wire/codes.js';
import { encodeMessage } from '../wire/encode.js';
import {
  classify,
  errorResponse,
  isValidId,
  type JsonRpcNotification,
  type JsonRpcResponse,
} from '../wire/jsonrpc.js';
import {
  checkCarriedHeaders,
  checkModernHeaders,
  type HeaderCheck,
  type HeaderIndex,
  PROTOCOL_VERSION_LOWER,
  readVersionHeader,
  trimOws,
  valuesOf,
} from './headers/index.js';
import type { HttpLogEvent } from './http-options.js';
import { type HttpRefusal, lateRefusal, publishRefusal, REFUSALS, WRITE_REFUSALS } from './refusals.js';
import { statusOf, writeEmpty, writeJson } from './respond.js';
import { type BoundedWriter, boundedWriter, type Overrun } from './sse-writer.js';
import { unavailableAnswer } from './unavailable-answer.js';

/** What is sent when even the host-fault answer cannot be encoded; never expected to be. */
const INTERNAL_ERROR_TEXT = JSON.stringify(internalError(undefined));

export interface AnswerInput {
  readonly server: Server;
  readonly message: Record<string, unknown>;
  /** The request's header lines, indexed once by the handler. */
  readonly headers: HeaderIndex;
  readonly auth: unknown;
  /** The client named `text/event-stream` in Accept. */
  readonly mayStream: boolean;
  readonly reportFault: (description: string, cause: unknown) => void;
  /** Where a response cut for a client that stopped reading is logged (the handler's `onLog`). */
  readonly onLog: (event: HttpLogEvent) => void;
}

/** A request without `MCP-Protocol-Version` is served as this, as 2025-06-18 on tell a server to assume. */
const HEADERLESS_REVISION: HandshakeRevision = '2025-03-26';

type Settled =
  | { readonly kind: 'run'; readonly state: ConnectionState; readonly modern: boolean }
  | { readonly kind: 'mismatch'; readonly check: Extract<HeaderCheck, { ok: false }> }
  | { readonly kind: 'not-served' };

/**
 * What the core settles from the body alone: a refused envelope, an `initialize`, or a request
 * without a revision the headers name. `modern` is false: only a 2026-07-28 call aborts on a disconnect.
 */
const CORE_SETTLES: Settled = Object.freeze({
  // Stryker disable next-line StringLiteral: only 'mismatch' and 'not-served' are told apart; any other kind runs
  kind: 'run',
  state: initialState('http'),
  modern: false,
});

/**
 * A body that is no valid envelope goes straight to the core, which refuses it (envelope before
 * header match, spec-notes item 12). Otherwise the revision comes from the body's 2026-07-28
 * `_meta`, from `initialize` (the core negotiates), or from `MCP-Protocol-Version`: a handshake
 * revision served over HTTP runs statelessly under it, any other value is refused 400, and no
 * header at all means 2025-03-26. A server that does not serve 2025-03-26 over HTTP leaves a
 * request without header or `_meta` to the core: -32602 naming `_meta`, with 400.
 */
function settle(input: AnswerInput): Settled {
  const { message, headers, server } = input;
  const sorted = classify(message);
  if (sorted.kind === 'refused') return CORE_SETTLES;
  const { method, params } = sorted.message;
  const name = params?.['name'];
  const headerInput = {
    headers,
    message: { method, params, isNotification: sorted.kind === 'notification' },
    headerFields:
      // Stryker disable next-line ConditionalExpression: a name that is no string finds no tool either
      method === 'tools/call' && typeof name === 'string'
        ? server.catalog.tools?.get(name)?.headerFields
        : undefined,
  };
  const meta = params?.['_meta'];
  if (isPlainObject(meta) && Object.hasOwn(meta, META_PROTOCOL_VERSION)) {
    const check = checkModernHeaders(headerInput);
    if (!check.ok) return { kind: 'mismatch', check };
    // Stryker disable next-line StringLiteral: only 'mismatch' is told apart, and a modern body's transport is not read
    return { kind: 'run', state: initialState('http'), modern: true };
  }
  if (method === 'initialize') {
    const check = checkCarriedHeaders(headerInput);
    if (!check.ok) return { kind: 'mismatch', check };
    return CORE_SETTLES;
  }
  const versionHeader = valuesOf(headers, PROTOCOL_VERSION_LOWER);
  // A 2026-07-28 header on a body without that revision's `_meta`: the body is what is wrong, and
  // the core names it (-32602, `_meta` missing), as the 2026-07-28 envelope rules ask.
  if (versionHeader.length === 1 && trimOws(versionHeader[0]!) === MODERN_REVISION) return CORE_SETTLES;
  const header = readVersionHeader(headers);
  if (!header.ok) return { kind: 'mismatch', check: header };
  const served = servedOver(server.supportedVersions, 'http');
  const revision = header.version ?? HEADERLESS_REVISION;
  const runs = isHandshakeRevision(revision) && served.includes(revision);
  if (header.version === undefined && !runs) return CORE_SETTLES;
  if (!runs) return { kind: 'not-served' };
  const carried = checkCarriedHeaders(headerInput);
  if (!carried.ok) return { kind: 'mismatch', check: carried };
  // Stryker disable next-line StringLiteral: only 'mismatch' is told apart; any other kind runs
  return { kind: 'run', state: statelessHandshakeState(revision), modern: false };
}

const OVERRUN_REFUSALS: Readonly<Record<Overrun, HttpRefusal>> = {
  queue: WRITE_REFUSALS.sseQueueFull,
  events: WRITE_REFUSALS.sseEventsQueued,
  stall: WRITE_REFUSALS.sseDrainTimeout,
};

function report(input: AnswerInput, refusal: HttpRefusal): void {
  publishRefusal(refusal);
  input.onLog({ kind: 'refusal', rule: refusal.rule, status: refusal.status });
}

export function answer(input: AnswerInput, res: ServerResponse): void {
  const settled = settle(input);
  if (settled.kind === 'mismatch') {
    const id = isValidId(input.message['id']) ? input.message['id'] : undefined;
    // Reported like every other refusal (channel and onLog/logger): a client probing header
    // smuggling leaves a line in the host's log. The message is built from constants and names.
    report(input, lateRefusal('header-mismatch', 400, HEADER_MISMATCH, settled.check.message));
    writeJson(res, 400, JSON.stringify(errorResponse(id, HEADER_MISMATCH, settled.check.message)));
    return;
  }
  if (settled.kind === 'not-served') {
    const id = isValidId(input.message['id']) ? input.message['id'] : undefined;
    // The header's value is not echoed: `supported` tells the client what to ask for instead.
    const refusal = REFUSALS.versionNotServed;
    report(input, refusal);
    const supported = servedOver(input.server.supportedVersions, 'http');
    writeJson(
      res,
      refusal.status,
      JSON.stringify(errorResponse(id, refusal.code, refusal.message, { supported })),
    );
    return;
  }
  if (settled.modern && !input.mayStream && input.message['method'] === 'subscriptions/listen') {
    const id = isValidId(input.message['id']) ? input.message['id'] : undefined;
    const refusal = REFUSALS.listenNeedsStream;
    report(input, refusal);
    writeJson(res, refusal.status, JSON.stringify(errorResponse(id, refusal.code, refusal.message)));
    return;
  }
  new HttpAnswer(input, res, settled.modern).run(settled.state);
}

/**
 * One admitted message's answer, and what the core borrows for it (`ExchangeIO`): its members
 * are methods and fields of one object, not closures made per request. The AbortController is
 * made only when the signal is first read (most tools never read it) or there is a cancel to
 * carry, and the bounded writer only when a notification is streamed or a JSON answer is left
 * queued: one of each per request was a measurable share of the work.
 */
class HttpAnswer implements ExchangeIO {
  readonly auth: unknown;
  readonly reportFault: (description: string, cause: unknown) => void;
  readonly #input: AnswerInput;
  readonly #res: ServerResponse;
  /** 2026-07-28: closing the response is the cancel. 2025-11-25: a disconnect is not one. */
  readonly #modern: boolean;
  #controller: AbortController | undefined = undefined;
  #writer: BoundedWriter | undefined = undefined;
  /** Nothing more is written: the client went away, or the writer gave up on it. */
  #gone = false;
  #status = 200;
  /** A shared store could not serve this request now: answered 503 with its Retry-After. */
  #unavailable: UnavailableError | undefined = undefined;

  constructor(input: AnswerInput, res: ServerResponse, modern: boolean) {
    this.auth = input.auth;
    this.reportFault = input.reportFault;
    this.#input = input;
    this.#res = res;
    this.#modern = modern;
  }

  get signal(): AbortSignal {
    this.#controller ??= new AbortController();
    return this.#controller.signal;
  }

  #abort(): void {
    this.#controller ??= new AbortController();
    this.#controller.abort();
  }

  #writerOf(): BoundedWriter {
    this.#writer ??= boundedWriter(this.#res, (why) => this.#overrun(why));
    return this.#writer;
  }

  /** The writer gave up on a client that does not read. */
  #overrun(why: Overrun): void {
    this.#gone = true;
    // Stryker disable next-line OptionalChaining: the writer exists, it is the one giving up
    if (this.#writer?.started !== true)
      report(this.#input, { ...WRITE_REFUSALS.jsonDrainTimeout, status: this.#status });
    else report(this.#input, OVERRUN_REFUSALS[why]);
    // The server gives up, on both revisions: the response can no longer be delivered, so the
    // work is wasted. (A 2025-11-25 client's own disconnect is still no cancel, below.)
    this.#abort();
  }

  unavailable(error: UnavailableError): void {
    this.#unavailable = error;
  }

  emit(notification: JsonRpcNotification): void {
    if (this.#gone || !this.#input.mayStream) return;
    const encoded = encodeMessage(notification);
    if (!encoded.ok) {
      this.#input.reportFault(`a notification could not be serialized: ${encoded.reason}`, undefined);
      return;
    }
    this.#writerOf().event(encoded.text);
  }

  run(state: ConnectionState): void {
    const res = this.#res;
    res.once('close', () => {
      if (res.writableFinished) return;
      this.#gone = true;
      if (this.#modern) this.#abort();
    });
    const exchange = handleMessage(this.#input.server, state, this.#input.message, this);
    void exchange.response.then((response) => this.#deliver(response, exchange.stage));
  }

  #deliver(response: JsonRpcResponse | undefined, stage: AnswerStage): void {
    if (this.#gone) return;
    const res = this.#res;
    const writer = this.#writer;
    if (response === undefined) {
      // Stryker disable next-line BooleanLiteral,ConditionalExpression: a notification emits nothing, so no stream was started
      if (writer?.started === true) writer.end();
      else writeEmpty(res, 202);
      return;
    }
    this.#status = statusOf(response, stage);
    let headers: Readonly<Record<string, string>> | undefined;
    const unavailable = this.#unavailable;
    if (unavailable !== undefined) {
      const streaming = writer?.started === true;
      if (!streaming) this.#status = 503;
      const unavailableOf = unavailableAnswer(unavailable, this.#status);
      // Stryker disable next-line ConditionalExpression: a stream's head is sent already, so its headers are never read
      if (!streaming) headers = unavailableOf.headers;
      report(this.#input, unavailableOf.refusal);
    }
    let encoded = encodeMessage(response);
    if (!encoded.ok) {
      this.#input.reportFault(`a response could not be serialized: ${encoded.reason}`, undefined);
      encoded = encodeMessage(internalError('id' in response ? response.id : undefined));
    }
    const text = encoded.ok
      ? encoded.text
      : // unreachable: internalError(id) always encodes
        INTERNAL_ERROR_TEXT;
    if (writer?.started === true) writer.end(text);
    else {
      // One `end` of one result: the bytes are bounded by the result, as any JSON answer; only
      // the deadline applies, so a client that never reads does not hold the connection. A
      // small answer the connection took whole leaves nothing to watch. An `end` a front has
      // replaced (compression middleware ends the response only once its stream has) is not
      // ended yet, and nothing is queued yet either: it is watched.
      writeJson(res, this.#status, text, headers);
      // Stryker disable next-line ConditionalExpression,EqualityOperator: watching an answer taken whole arms a deadline its 'finish' clears: only the cost differs
      if (res.writableLength > 0 || !res.writableEnded) this.#writerOf().watchEnd();
    }
  }
}
