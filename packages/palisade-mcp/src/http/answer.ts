/**
 * From one decoded body to its HTTP answer: settle the revision (2026-07-28 `_meta`, a stateless
 * 2025-11-25 `initialize`, or a 2025-11-25 request named by `MCP-Protocol-Version`), hold the
 * headers to the body, run the core, and write JSON or, when the client accepts it and the
 * request emits notifications first, an SSE stream, bounded against a client that does not read
 * it (sse-writer.ts).
 */
import type { ServerResponse } from 'node:http';
import { isPlainObject } from '../options.js';
import { type ExchangeIO, handleMessage } from '../protocol/core.js';
import { internalError } from '../protocol/errors.js';
import { classify, errorResponse, isValidId, type JsonRpcNotification } from '../protocol/jsonrpc.js';
import { type ConnectionState, initialState } from '../protocol/state.js';
import { LEGACY_REVISION, META_PROTOCOL_VERSION, MODERN_REVISION } from '../revisions.js';
import type { Server } from '../server.js';
import { encodeMessage } from '../wire/encode.js';
import type { HeaderCheck } from './header-check.js';
import {
  checkCarriedHeaders,
  checkLegacyVersionHeader,
  checkModernHeaders,
  PROTOCOL_VERSION_LOWER,
} from './header-match.js';
import { trimOws } from './header-text.js';
import { type HeaderIndex, valuesOf } from './header-values.js';
import type { HttpLogEvent } from './http-options.js';
import { type HttpRefusal, lateRefusal, publishRefusal, REFUSALS, WRITE_REFUSALS } from './refusals.js';
import { writeEmpty, writeJson } from './respond.js';
import { boundedWriter, type Overrun } from './sse-writer.js';
import { statusOf } from './status.js';

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

const LEGACY_STATE: ConnectionState = Object.freeze({
  transport: 'http',
  legacy: Object.freeze({ clientCapabilities: Object.freeze({}), initialized: true }),
});

type Settled =
  | { readonly kind: 'run'; readonly state: ConnectionState; readonly modern: boolean }
  | { readonly kind: 'mismatch'; readonly check: Extract<HeaderCheck, { ok: false }> };

/**
 * A body that is no valid envelope goes straight to the core, which refuses it (envelope before
 * header match, spec-notes item 12). Without modern `_meta`, an `initialize` or a 2025-11-25
 * version header, the core answers too: -32602 naming `_meta`, with 400.
 */
function settle(input: AnswerInput): Settled {
  const { message, headers, server } = input;
  const sorted = classify(message);
  // Stryker disable next-line ObjectLiteral: the core refuses a refused envelope before it reads the state
  if (sorted.kind === 'refused') return { kind: 'run', state: initialState('http'), modern: false };
  const { method, params } = sorted.message;
  const name = params?.['name'];
  const headerInput = {
    headers,
    message: { method, params, isNotification: sorted.kind === 'notification' },
    headerFields:
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
    // Stryker disable next-line BooleanLiteral: `modern` only makes a disconnect abort; the handshake reads no signal
    return { kind: 'run', state: initialState('http'), modern: false };
  }
  const versionHeader = valuesOf(headers, PROTOCOL_VERSION_LOWER);
  // A 2026-07-28 header on a body without that revision's `_meta`: the body is what is wrong, and
  // the core names it (-32602, `_meta` missing), as the 2026-07-28 envelope rules ask.
  if (versionHeader.length === 1 && trimOws(versionHeader[0]!) === MODERN_REVISION)
    return { kind: 'run', state: initialState('http'), modern: false };
  if (versionHeader.length > 0 && server.supportedVersions.includes(LEGACY_REVISION)) {
    const version = checkLegacyVersionHeader(headers, LEGACY_REVISION);
    if (!version.ok) return { kind: 'mismatch', check: version };
    const carried = checkCarriedHeaders(headerInput);
    if (!carried.ok) return { kind: 'mismatch', check: carried };
    // Stryker disable next-line StringLiteral: only 'mismatch' is told apart; any other kind runs
    return { kind: 'run', state: LEGACY_STATE, modern: false };
  }
  return { kind: 'run', state: initialState('http'), modern: false };
}

/**
 * The request's AbortController, made only when its signal is first read (most tools never read
 * it) or there is a cancel to carry: one per request was a measurable share of the work.
 */
class LazyAbort {
  #controller: AbortController | undefined;

  get signal(): AbortSignal {
    this.#controller ??= new AbortController();
    return this.#controller.signal;
  }

  abort(): void {
    this.#controller ??= new AbortController();
    this.#controller.abort();
  }
}

/** What the core borrows; `signal` read through to the LazyAbort only when asked for. */
class HttpExchangeIO implements ExchangeIO {
  readonly #cancel: LazyAbort;

  constructor(
    cancel: LazyAbort,
    readonly auth: unknown,
    readonly emit: (notification: JsonRpcNotification) => void,
    readonly reportFault: (description: string, cause: unknown) => void,
  ) {
    this.#cancel = cancel;
  }

  get signal(): AbortSignal {
    return this.#cancel.signal;
  }
}

const OVERRUN_REFUSALS: Readonly<Record<Overrun, HttpRefusal>> = {
  queue: WRITE_REFUSALS.sseQueueFull,
  events: WRITE_REFUSALS.sseEventsQueued,
  stall: WRITE_REFUSALS.sseDrainTimeout,
};

export function answer(input: AnswerInput, res: ServerResponse): void {
  const report = (refusal: HttpRefusal): void => {
    publishRefusal(refusal);
    input.onLog({ kind: 'refusal', rule: refusal.rule, status: refusal.status });
  };
  const settled = settle(input);
  if (settled.kind === 'mismatch') {
    const id = isValidId(input.message['id']) ? input.message['id'] : undefined;
    // Reported like every other refusal (channel and onLog/logger): a client probing header
    // smuggling leaves a line in the host's log. The message is built from constants and names.
    report(lateRefusal('header-mismatch', 400, -32020, settled.check.message));
    writeJson(res, 400, JSON.stringify(errorResponse(id, -32020, settled.check.message)));
    return;
  }
  if (settled.modern && !input.mayStream && input.message['method'] === 'subscriptions/listen') {
    const id = isValidId(input.message['id']) ? input.message['id'] : undefined;
    const refusal = REFUSALS.listenNeedsStream;
    report(refusal);
    writeJson(res, refusal.status, JSON.stringify(errorResponse(id, refusal.code, refusal.message)));
    return;
  }
  const cancel = new LazyAbort();
  let gone = false;
  let status = 200;
  const writer = boundedWriter(res, (why: Overrun) => {
    gone = true;
    if (!writer.started) report({ ...WRITE_REFUSALS.jsonDrainTimeout, status });
    else report(OVERRUN_REFUSALS[why]);
    // The server gives up, on both revisions: the response can no longer be delivered, so the
    // work is wasted. (A 2025-11-25 client's own disconnect is still no cancel, below.)
    cancel.abort();
  });
  res.once('close', () => {
    if (res.writableFinished) return;
    gone = true;
    // 2026-07-28: closing the response is the cancel. 2025-11-25: a disconnect is not one.
    if (settled.modern) cancel.abort();
  });
  const emit = (notification: JsonRpcNotification): void => {
    if (gone || !input.mayStream) return;
    const encoded = encodeMessage(notification);
    if (!encoded.ok) {
      input.reportFault(`a notification could not be serialized: ${encoded.reason}`, undefined);
      return;
    }
    writer.event(encoded.text);
  };
  const exchange = handleMessage(
    input.server,
    settled.state,
    input.message,
    new HttpExchangeIO(cancel, input.auth, emit, input.reportFault),
  );
  void exchange.response.then((response) => {
    if (gone) return;
    if (response === undefined) {
      if (writer.started) writer.end();
      else writeEmpty(res, 202);
      return;
    }
    status = statusOf(response, exchange.stage);
    let encoded = encodeMessage(response);
    if (!encoded.ok) {
      input.reportFault(`a response could not be serialized: ${encoded.reason}`, undefined);
      encoded = encodeMessage(internalError('id' in response ? response.id : undefined));
    }
    const text = encoded.ok
      ? encoded.text
      : // Stryker disable next-line StringLiteral: unreachable, internalError(id) always encodes
        '{"jsonrpc":"2.0","error":{"code":-32603,"message":"Internal error"}}';
    if (writer.started) writer.end(text);
    else {
      // One `end` of one result: the bytes are bounded by the result, as any JSON answer; only
      // the deadline applies, so a client that never reads does not hold the connection.
      writeJson(res, status, text);
      writer.watchEnd();
    }
  });
}
