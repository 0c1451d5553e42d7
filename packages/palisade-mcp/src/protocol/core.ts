/**
 * The protocol core: from (server, connection state, decoded message, what the transport lends)
 * to the outgoing messages of that message: zero or more notifications through `emit`, then at
 * most one response. It does no I/O and keeps no globals; the next connection state is
 * returned synchronously, so a message pipelined right behind `initialize` already sees it.
 */

import { HostFault } from '../catalog/host-fault.js';
import type { JsonObject } from '../catalog/types.js';
import { MAX_INPUT_ROUNDS } from '../limits.js';
import { isPlainObject } from '../options.js';
import {
  isHandshakeRevision,
  LEGACY_REVISION,
  META_CLIENT_CAPABILITIES,
  META_LOG_LEVEL,
  META_PROTOCOL_VERSION,
  META_SERVER_INFO,
  MODERN_REVISION,
  type Revision,
} from '../revisions.js';
import type { TraceContext } from '../telemetry/dispatch-channel.js';
import { UnavailableError } from '../unavailable.js';
import { INVALID_REQUEST } from '../wire/codes.js';
import {
  classify,
  errorResponse,
  isValidId,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type RequestId,
} from '../wire/jsonrpc.js';
import {
  internalError,
  invalidParams,
  methodNotFound,
  missingClientCapability,
  serviceUnavailable,
} from './errors.js';
import { type ContextInput, isLogLevel, openContext } from './handler-context.js';
import {
  definedCapabilities,
  type InputAnswers,
  type InputRequiredValue,
  inputUnanswered,
  lackedForInput,
} from './input-required.js';
import { answerInputRequired, type Prepared, prepareRetry, type Retry } from './input-round.js';
import type { Call, MethodHandler, Outcome } from './methods/call.js';
import { complete } from './methods/completion.js';
import { discover, initialize, ping, unsupportedVersion } from './methods/handshake.js';
import { answerSessionMethod, SESSION_METHODS } from './methods/legacy-session.js';
import { readFilter, runListen } from './methods/listen.js';
import { listPrompts, listResources, listResourceTemplates, listTools } from './methods/lists.js';
import { getPrompt } from './methods/prompts-get.js';
import { readResource } from './methods/resources-read.js';
import { cancelTask, getTask, updateTask } from './methods/tasks.js';
import { callTool } from './methods/tools-call.js';
import { ownCopy } from './own-copy.js';
import { profileOf, servedOver } from './revisions/index.js';
import type { Server } from './server-shape.js';
import type { ConnectionState } from './state.js';
import { metaForHost, readTraceContext } from './trace-context.js';

/** What a transport lends the core for one message. */
export interface ExchangeIO {
  /** Aborted when the client cancels or the transport closes. */
  readonly signal: AbortSignal;
  /** What the transport's `authorize` hook returned (HTTP); undefined on stdio. */
  readonly auth: unknown;
  /** Sends a notification that belongs to this request, before its response. */
  emit(notification: JsonRpcNotification): void;
  /** A host fault, for the host's own log. Never reaches the client. */
  reportFault(description: string, cause: unknown): void;
  /**
   * Told, before the response settles, that a shared store or bus could not serve this request
   * now (UnavailableError): HTTP answers it 503 with the error's Retry-After and rule. Absent on
   * stdio, where the JSON-RPC error alone says it.
   */
  readonly unavailable?: (error: UnavailableError) => void;
  /**
   * Sends one round of input requests to the client and settles with its answers (never
   * rejects). Lent only by an HTTP session, the one place a handshake-revision request can reach
   * the client: a handler's `ctx.inputRequired` then becomes real `sampling/createMessage`,
   * `elicitation/create` or `roots/list` requests, and the handler runs again with the answers.
   */
  readonly ask?: (requests: InputRequiredValue['requests']) => Promise<InputAnswers>;
}

/**
 * Where an answer was decided: `envelope` before any method ran (a malformed message, a missing
 * or unsupported `_meta`, an unknown method), `method` by the method itself (its result, an
 * unknown tool, a host fault). HTTP maps the two to different statuses; stdio ignores it.
 */
export type AnswerStage = 'envelope' | 'method';

export interface Exchange {
  readonly state: ConnectionState;
  /** The one response, or undefined for a notification. Never rejects. */
  readonly response: Promise<JsonRpcResponse | undefined>;
  readonly stage: AnswerStage;
  /** Set when the message was a `notifications/cancelled` naming a request id. */
  readonly cancels?: RequestId;
}

type Capability = 'tools' | 'resources' | 'prompts' | 'completions' | 'tasks' | 'none';

interface MethodEntry {
  readonly handler: MethodHandler;
  readonly capability: Capability;
  /** Cache hints belong to these results on 2026-07-28. */
  readonly cacheable: boolean;
  /** May answer `input_required` on 2026-07-28 (spec §9: tools/call, prompts/get, resources/read only). */
  readonly mrtr?: true;
}

/**
 * Every request method Palisade answers. Which of them a request may call is its revision's
 * (`profile.methods`); `subscriptions/listen` and the three handshake-session methods are
 * answered apart, below.
 */
const METHODS: ReadonlyMap<string, MethodEntry> = new Map([
  ['tools/list', { handler: listTools, capability: 'tools', cacheable: true }],
  ['tools/call', { handler: callTool, capability: 'tools', cacheable: false, mrtr: true }],
  ['resources/list', { handler: listResources, capability: 'resources', cacheable: true }],
  ['resources/templates/list', { handler: listResourceTemplates, capability: 'resources', cacheable: true }],
  ['resources/read', { handler: readResource, capability: 'resources', cacheable: true, mrtr: true }],
  ['prompts/list', { handler: listPrompts, capability: 'prompts', cacheable: true }],
  ['prompts/get', { handler: getPrompt, capability: 'prompts', cacheable: false, mrtr: true }],
  ['completion/complete', { handler: complete, capability: 'completions', cacheable: false }],
  ['server/discover', { handler: discover, capability: 'none', cacheable: true }],
  ['tasks/get', { handler: getTask, capability: 'tasks', cacheable: false }],
  ['tasks/update', { handler: updateTask, capability: 'tasks', cacheable: false }],
  ['tasks/cancel', { handler: cancelTask, capability: 'tasks', cacheable: false }],
  ['ping', { handler: ping, capability: 'none', cacheable: false }],
]);

/** The entry for `method` when the revision defines it and this server offers what it needs. */
function entryFor(server: Server, revision: Revision, method: string): MethodEntry | undefined {
  if (!profileOf(revision).methods.has(method)) return undefined;
  const entry = METHODS.get(method);
  return entry !== undefined && offers(server, entry.capability) ? entry : undefined;
}

function offers(server: Server, capability: Capability): boolean {
  const { catalog } = server;
  switch (capability) {
    case 'tools':
      return catalog.tools !== undefined;
    case 'resources':
      return catalog.resources !== undefined;
    case 'prompts':
      return catalog.prompts !== undefined;
    case 'completions':
      return catalog.completions;
    case 'tasks':
      return server.tasks !== undefined;
    case 'none':
      return true;
  }
}

function settled(state: ConnectionState, response: JsonRpcResponse | undefined): Exchange {
  return { state, response: Promise.resolve(response), stage: 'envelope' };
}

export function handleMessage(
  server: Server,
  state: ConnectionState,
  message: Record<string, unknown>,
  io: ExchangeIO,
): Exchange {
  const sorted = classify(message);
  switch (sorted.kind) {
    case 'refused':
      return settled(state, sorted.response);
    case 'notification':
      return handleNotification(state, sorted.message);
    case 'request':
      return handleRequest(server, state, sorted.message, io);
  }
}

function handleNotification(state: ConnectionState, notification: JsonRpcNotification): Exchange {
  const params = notification.params;
  if (
    notification.method === 'notifications/cancelled' &&
    params !== undefined &&
    isValidId(params['requestId'])
  ) {
    return { state, response: Promise.resolve(undefined), stage: 'envelope', cancels: params['requestId'] };
  }
  if (
    notification.method === 'notifications/initialized' &&
    state.legacy !== undefined &&
    !state.legacy.initialized
  ) {
    return settled(
      Object.freeze({ ...state, legacy: Object.freeze({ ...state.legacy, initialized: true }) }),
      undefined,
    );
  }
  // Every other notification is accepted and ignored: it cannot be answered.
  return settled(state, undefined);
}

function handleRequest(
  server: Server,
  state: ConnectionState,
  request: JsonRpcRequest,
  io: ExchangeIO,
): Exchange {
  const params: JsonObject = request.params ?? {};
  const id = request.id;

  // `initialize` does not exist in 2026-07-28: a request that carries that revision's `_meta` is
  // answered as any unknown method there (404 over HTTP), not by the 2025-11-25 handshake.
  if (request.method === 'initialize' && carriesModernMeta(params)) return settled(state, methodNotFound(id));
  if (request.method === 'initialize') {
    if (state.legacy !== undefined && state.transport === 'stdio') {
      return settled(
        state,
        errorResponse(
          id,
          INVALID_REQUEST,
          'Invalid request: initialize was already answered on this connection',
        ),
      );
    }
    const answer = initialize(server, id, params, state.transport, state.session === true);
    if (!answer.ok) return settled(state, answer.error);
    const next: ConnectionState = Object.freeze({
      ...state,
      legacy: Object.freeze({
        revision: answer.revision,
        clientCapabilities: answer.clientCapabilities,
        initialized: false,
      }),
    });
    return {
      state: next,
      response: Promise.resolve({ jsonrpc: '2.0', id, result: answer.result }),
      stage: 'method',
    };
  }

  if (state.legacy !== undefined) {
    const { revision } = state.legacy;
    const meta = params['_meta'];
    if (meta !== undefined && !isPlainObject(meta))
      return settled(state, invalidParams(id, 'params._meta must be an object'));
    const trace = readTraceContext(meta ?? {}, server.traceContext.baggage);
    if (!trace.ok) return settled(state, invalidParams(id, trace.rule));
    if (SESSION_METHODS.has(request.method) && profileOf(revision).methods.has(request.method)) {
      const answered = answerSessionMethod(server, state, state.legacy, request.method, id, params);
      return { state: answered.state, response: Promise.resolve(answered.response), stage: 'method' };
    }
    const entry = entryFor(server, revision, request.method);
    if (entry === undefined) return settled(state, methodNotFound(id));
    const call: CallBasis = {
      revision,
      meta: metaForHost(meta ?? {}, server.traceContext.baggage),
      clientCapabilities: state.legacy.clientCapabilities,
      traceContext: trace.value,
    };
    const logLevel = state.legacy.logLevel ?? server.defaultLogLevel;
    return {
      state,
      response: run(server, state, request, params, entry, call, logLevel, io),
      stage: 'method',
    };
  }

  const meta = params['_meta'];
  if (meta !== undefined && !isPlainObject(meta))
    return settled(state, invalidParams(id, 'params._meta must be an object'));
  if (meta === undefined || !Object.hasOwn(meta, META_PROTOCOL_VERSION)) {
    // Before `initialize` a handshake client may only ping; anything else without the 2026 `_meta` is refused.
    if (request.method === 'ping' && state.transport === 'stdio' && servesHandshake(server, 'stdio')) {
      return settled(state, { jsonrpc: '2.0', id, result: {} });
    }
    return settled(
      state,
      invalidParams(
        id,
        `params._meta must carry ${META_PROTOCOL_VERSION} (a ${LEGACY_REVISION} or earlier client sends initialize first)`,
      ),
    );
  }
  const version = meta[META_PROTOCOL_VERSION];
  if (typeof version !== 'string') {
    return settled(state, invalidParams(id, `params._meta.${META_PROTOCOL_VERSION} must be a string`));
  }
  const served = servedOver(server.supportedVersions, state.transport);
  if (version !== MODERN_REVISION || !served.includes(MODERN_REVISION)) {
    const why =
      isHandshakeRevision(version) && served.includes(version)
        ? `${version} is served through initialize`
        : 'the requested revision is not served';
    return settled(state, unsupportedVersion(server, state.transport, id, version, why));
  }
  const clientCapabilities = meta[META_CLIENT_CAPABILITIES];
  if (!isPlainObject(clientCapabilities)) {
    return settled(
      state,
      invalidParams(id, `params._meta must carry ${META_CLIENT_CAPABILITIES} as an object`),
    );
  }
  const logLevel = meta[META_LOG_LEVEL];
  if (logLevel !== undefined && !isLogLevel(logLevel)) {
    return settled(state, invalidParams(id, `params._meta.${META_LOG_LEVEL} is not a log level`));
  }
  const trace = readTraceContext(meta, server.traceContext.baggage);
  if (!trace.ok) return settled(state, invalidParams(id, trace.rule));
  if (request.method === 'subscriptions/listen') return listen(server, state, id, params, io);
  const entry = entryFor(server, MODERN_REVISION, request.method);
  if (entry === undefined) return settled(state, methodNotFound(id));
  const call: CallBasis = {
    revision: MODERN_REVISION,
    meta: metaForHost(meta, server.traceContext.baggage),
    clientCapabilities,
    traceContext: trace.value,
  };
  return {
    state,
    response: run(server, state, request, params, entry, call, logLevel, io),
    stage: 'method',
  };
}

/** Whether any revision served over `transport` opens with `initialize`. */
function servesHandshake(server: Server, transport: 'stdio' | 'http'): boolean {
  return servedOver(server.supportedVersions, transport).some(isHandshakeRevision);
}

/**
 * `subscriptions/listen`: answered by every 2026-07-28 server (its filter may honour nothing),
 * held open until the client leaves or the server's lifetime for it passes.
 */
function listen(
  server: Server,
  state: ConnectionState,
  id: RequestId,
  params: JsonObject,
  io: ExchangeIO,
): Exchange {
  const filter = readFilter(server, id, params);
  if (!filter.ok) return { state, response: Promise.resolve(filter.error), stage: 'method' };
  // A shared bus that cannot hear right now: no acknowledgement the stream could not keep.
  try {
    server.changes.ensureListening();
  } catch (error) {
    return { state, response: Promise.resolve(refuseListen(id, io, error)), stage: 'method' };
  }
  const running = runListen(server, id, filter.honoured, io);
  if ('refused' in running) return { state, response: Promise.resolve(running.refused), stage: 'method' };
  const response = running.ended.then((ended): JsonRpcResponse | undefined =>
    ended === undefined
      ? undefined
      : {
          jsonrpc: '2.0',
          id,
          result: envelope(server, MODERN_REVISION, { kind: 'result', result: ended }, false),
        },
  );
  return { state, response, stage: 'method' };
}

function carriesModernMeta(params: JsonObject): boolean {
  const meta = params['_meta'];
  return isPlainObject(meta) && Object.hasOwn(meta, META_PROTOCOL_VERSION);
}

interface CallBasis {
  readonly revision: Revision;
  readonly meta: JsonObject;
  readonly clientCapabilities: JsonObject;
  readonly traceContext: TraceContext | undefined;
}

async function run(
  server: Server,
  state: ConnectionState,
  request: JsonRpcRequest,
  params: JsonObject,
  entry: MethodEntry,
  basis: CallBasis,
  logLevel: unknown,
  io: ExchangeIO,
): Promise<JsonRpcResponse> {
  // MRTR: a retry's inputResponses and requestState are checked before any handler runs.
  let retry: Retry | undefined;
  if (entry.mrtr === true && basis.revision === MODERN_REVISION) {
    let prepared: Prepared;
    try {
      const pending = prepareRetry(server, request.id, request.method, params, io.auth);
      prepared = pending instanceof Promise ? await pending : pending;
    } catch (error) {
      return hostFault(request, io, error);
    }
    if (!prepared.ok) return prepared.error;
    retry = prepared.retry;
  }
  const canAsk = io.ask !== undefined && entry.mrtr === true && profileOf(basis.revision).era === 'handshake';
  const context = openContext(
    contextInput(
      basis,
      logLevel,
      io,
      retry?.inputResponses,
      retry?.hasState === true ? retry.state : undefined,
      canAsk,
    ),
  );
  let outcome: Outcome;
  try {
    outcome = await entry.handler(callOf(server, state, request, params, basis, io, context.ctx));
    if (outcome.kind === 'input-required') {
      if (retry !== undefined)
        return await answerInputRequired(server, request.id, outcome.value, retry, basis.clientCapabilities);
      if (!canAsk) throw new HostFault(`${request.method} cannot answer input_required`);
      context.close();
      return await askClient(server, state, request, params, entry, basis, logLevel, io, outcome.value);
    }
  } catch (error) {
    return hostFault(request, io, error);
  } finally {
    context.close();
  }
  return answered(server, request, basis, entry, outcome);
}

function contextInput(
  basis: CallBasis,
  logLevel: unknown,
  io: ExchangeIO,
  inputResponses: Retry['inputResponses'],
  requestState: unknown,
  canAsk: boolean,
  inputRefusal?: Error,
): ContextInput {
  return {
    revision: basis.revision,
    meta: basis.meta,
    clientCapabilities: basis.clientCapabilities,
    traceContext: basis.traceContext,
    signalSource: io,
    auth: io.auth,
    logLevel: isLogLevel(logLevel) ? logLevel : undefined,
    emit: (notification) => io.emit(notification),
    inputResponses,
    requestState,
    canAsk,
    inputRefusal,
  };
}

function callOf(
  server: Server,
  state: ConnectionState,
  request: JsonRpcRequest,
  params: JsonObject,
  basis: CallBasis,
  io: ExchangeIO,
  ctx: Call['ctx'],
): Call {
  return {
    server,
    id: request.id,
    params,
    revision: basis.revision,
    transport: state.transport,
    ctx,
    reportFault: (description, cause) => io.reportFault(description, cause),
  };
}

function answered(
  server: Server,
  request: JsonRpcRequest,
  basis: CallBasis,
  entry: MethodEntry,
  outcome: Outcome,
): JsonRpcResponse {
  if (outcome.kind === 'error') return outcome.error;
  if (outcome.kind === 'task') return { jsonrpc: '2.0', id: request.id, result: outcome.result };
  if (outcome.kind === 'input-required') return internalError(request.id);
  return {
    jsonrpc: '2.0',
    id: request.id,
    result: envelope(server, basis.revision, outcome, entry.cacheable),
  };
}

/**
 * A handshake-revision handler asked for input on an HTTP session: each round's requests go to the
 * client (after the check that it declared what they need: -32021, as on 2026-07-28), and the
 * handler runs again with the answers in `ctx.inputResponses` and its `state` in
 * `ctx.requestState`, as a 2026-07-28 client's retry would run it. So one handler serves both
 * revisions unchanged. A round the client leaves unanswered runs it once more, where
 * `ctx.inputRequired` throws PALISADE_ERR_INPUT_UNANSWERED naming why; a cancelled request or an
 * ended session is not run again.
 */
async function askClient(
  server: Server,
  state: ConnectionState,
  request: JsonRpcRequest,
  params: JsonObject,
  entry: MethodEntry,
  basis: CallBasis,
  logLevel: unknown,
  io: ExchangeIO,
  first: InputRequiredValue,
): Promise<JsonRpcResponse> {
  let value = first;
  const ask = io.ask as NonNullable<ExchangeIO['ask']>;
  for (let round = 1; ; round += 1) {
    const lacked = lackedForInput(value, definedCapabilities(basis.clientCapabilities, basis.revision));
    if (lacked !== undefined) return missingClientCapability(request.id, lacked);
    const answers = await ask.call(io, value.requests);
    if (io.signal.aborted) return internalError(request.id);
    const refusal =
      answers.unanswered !== undefined
        ? inputUnanswered(answers.unanswered)
        : round >= MAX_INPUT_ROUNDS
          ? inputUnanswered(`a request may ask the client at most ${MAX_INPUT_ROUNDS} times`)
          : undefined;
    const context = openContext(
      contextInput(
        basis,
        logLevel,
        io,
        answers.responses,
        value.hasState ? value.state : undefined,
        refusal === undefined,
        refusal,
      ),
    );
    let outcome: Outcome;
    try {
      outcome = await entry.handler(callOf(server, state, request, params, basis, io, context.ctx));
    } catch (error) {
      return hostFault(request, io, error);
    } finally {
      context.close();
    }
    if (outcome.kind !== 'input-required') return answered(server, request, basis, entry, outcome);
    if (refusal !== undefined)
      return hostFault(request, io, new HostFault(`${request.method} cannot answer input_required`));
    value = outcome.value;
  }
}

/** A bus that cannot hear now refuses the stream (503 over HTTP); one that throws anything else is a host fault. */
function refuseListen(id: RequestId, io: ExchangeIO, error: unknown): JsonRpcResponse {
  if (error instanceof UnavailableError) {
    io.unavailable?.(error);
    return serviceUnavailable(id);
  }
  io.reportFault('notifications.bus.ensureListening threw', error);
  return internalError(id);
}

/**
 * A contract the host broke: its description to the host's log, -32603 to the client. A shared
 * store that is only unreachable for now (UnavailableError) is no broken contract: the transport
 * is told, so HTTP answers 503 with Retry-After, and the host's log gets a refusal, not a fault.
 */
function hostFault(request: JsonRpcRequest, io: ExchangeIO, error: unknown): JsonRpcResponse {
  // Thrown by a store Palisade called, or by one the host's handler called (then wrapped).
  const unavailable =
    error instanceof HostFault && error.cause instanceof UnavailableError ? error.cause : error;
  if (unavailable instanceof UnavailableError) {
    io.unavailable?.(unavailable);
    return serviceUnavailable(request.id);
  }
  const description =
    error instanceof HostFault ? error.description : `${request.method} failed in host code`;
  io.reportFault(description, error instanceof HostFault ? error.cause : error);
  return internalError(request.id);
}

/** 2026-07-28 results carry `resultType`, the server's identity in `_meta`, and cache hints where the schema requires them. */
function envelope(
  server: Server,
  revision: Revision,
  outcome: Extract<Outcome, { kind: 'result' }>,
  cacheable: boolean,
): JsonObject {
  if (profileOf(revision).era === 'handshake') return outcome.result;
  const body = ownCopy(outcome.result);
  body['resultType'] = 'complete';
  if (cacheable) {
    const hint = outcome.cache ?? { ttlMs: 0, scope: 'private' };
    body['ttlMs'] = hint.ttlMs;
    body['cacheScope'] = hint.scope;
  }
  const hostMeta = outcome.result['_meta'];
  const meta = isPlainObject(hostMeta) ? ownCopy(hostMeta) : {};
  meta[META_SERVER_INFO] = ownCopy(server.info);
  body['_meta'] = meta;
  return body;
}
