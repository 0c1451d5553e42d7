/**
 * The MCP client: negotiation, requests with their signals and deadlines, progress, the answers
 * a server's questions get, typed calls and pagination. It does no I/O itself: a transport
 * carries every message, and what comes back arrives through the transport's bounded reading.
 *
 * Negotiation, both ways: with 2026-07-28 acceptable, a `server/discover` probe first (answered:
 * a 2026-07-28 server; `-32022` naming a handshake revision, or a refusal that is not a modern
 * one: `initialize`). With only handshake revisions, `initialize` offering the newest; an answer
 * naming a revision the client does not accept fails by name, as the spec has the client
 * disconnect.
 */
import {
  isHandshakeRevision,
  isRevision,
  isValidId,
  LEGACY_REVISION,
  type McpHeaderField,
  META_CLIENT_CAPABILITIES,
  META_CLIENT_INFO,
  META_PROTOCOL_VERSION,
  META_SERVER_INFO,
  MODERN_REVISION,
  type Revision,
  readMcpHeaderFields,
} from 'palisade-mcp/wire';
import { ClientError } from '../errors.js';
import {
  DEFAULT_REQUEST_TIMEOUT_MS,
  DISCOVER_PROBE_MS,
  MAX_INPUT_REQUESTS,
  MAX_INPUT_ROUNDS,
  MAX_PAGES,
} from '../limits.js';
import { checkObject, isPlainObject, optionalFunction, positiveInteger } from '../options.js';
import type { Transport } from '../transport/types.js';
import { answerInput, capabilitiesOf, type HostHandlers, UnsupportedInput } from './host-handlers.js';
import { checkResult } from './results.js';
import { type OutputCheck, outputChecker } from './structured-content.js';
import type {
  CallOptions,
  CallToolResult,
  CompleteResult,
  GetPromptResult,
  Implementation,
  JsonObject,
  Page,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  ServerDescription,
  Tool,
} from './types.js';

export interface ClientOptions extends HostHandlers {
  readonly transport: Transport;
  /** Default `{ name: 'palisade-mcp-client', version: '0.1.0' }`. */
  readonly clientInfo?: Implementation;
  /** The revisions the client accepts, newest preferred first. Default all five. */
  readonly revisions?: readonly string[];
  /** Server notifications not tied to a call (list changes, logs, ...). */
  readonly onNotification?: (notification: { method: string; params: JsonObject }) => void;
  /** Default 60,000 ms. */
  readonly requestTimeoutMs?: number;
  /** Declare the tasks extension (2026-07-28): a tool call the server runs as a task is polled to its end. */
  readonly tasks?: boolean;
}

const KEYS = [
  'transport',
  'clientInfo',
  'revisions',
  'onNotification',
  'requestTimeoutMs',
  'tasks',
  'onElicitation',
  'onSampling',
  'roots',
] as const;

const DEFAULT_REVISIONS: readonly Revision[] = [
  MODERN_REVISION,
  LEGACY_REVISION,
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
];
const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

interface Pending {
  readonly method: string;
  resolve(message: Record<string, unknown>): void;
  reject(error: ClientError): void;
}

interface RequestPlan {
  readonly revision: Revision | undefined;
  readonly fields?: readonly McpHeaderField[];
}

function rpcError(error: unknown): ClientError {
  const body = isPlainObject(error) ? error : {};
  const code = Number.isSafeInteger(body['code']) ? (body['code'] as number) : -32603;
  const message = typeof body['message'] === 'string' ? body['message'].slice(0, 512) : 'error';
  return new ClientError('PALISADE_CLIENT_ERR_RPC', `the server answered error ${code}`, {
    rpc: body['data'] === undefined ? { code, message } : { code, message, data: body['data'] },
  });
}

/**
 * What a server message is, from the client's side: a response (no method, an id, exactly one
 * of result and error), a request (a method and an id), a notification (a method, no id), or
 * something else, which is dropped.
 */
function kindOf(message: Record<string, unknown>): 'response' | 'request' | 'notification' | 'other' {
  if (message['jsonrpc'] !== '2.0') return 'other';
  const hasId = Object.hasOwn(message, 'id');
  if (typeof message['method'] === 'string') {
    if (Object.hasOwn(message, 'result') || Object.hasOwn(message, 'error')) return 'other';
    if (!hasId) return 'notification';
    return isValidId(message['id']) ? 'request' : 'other';
  }
  if (Object.hasOwn(message, 'method') || !hasId) return 'other';
  return Object.hasOwn(message, 'result') !== Object.hasOwn(message, 'error') ? 'response' : 'other';
}

/** The modern error codes that tell a probing client this is a 2026-07-28 server. */
const MODERN_ERRORS = new Set([-32022, -32021, -32020]);

export class Client {
  readonly #transport: Transport;
  readonly #info: Implementation;
  readonly #revisions: readonly Revision[];
  readonly #handlers: HostHandlers;
  readonly #onNotification: ClientOptions['onNotification'];
  readonly #timeoutMs: number;
  readonly #tasks: boolean;
  readonly #pending = new Map<number, Pending>();
  readonly #progress = new Map<string, NonNullable<CallOptions['onProgress']>>();
  readonly #toolFields = new Map<string, readonly McpHeaderField[]>();
  readonly #outputs = new Map<string, OutputCheck>();
  readonly #closer = new AbortController();
  /**
   * What `close()` ends: one entry per call in flight. A Set rather than a listener on the
   * closer's signal each, which past 10 calls in flight made Node warn of a listener leak.
   */
  readonly #onClose = new Set<() => void>();
  #nextId = 0;
  #revision: Revision | undefined;
  #server: ServerDescription | undefined;
  #connecting: Promise<ServerDescription> | undefined;
  #closed = false;

  constructor(options: ClientOptions) {
    const opts = checkObject(options, '', KEYS);
    const transport = opts['transport'];
    if (
      !isPlainObject(transport) &&
      (typeof transport !== 'object' ||
        transport === null ||
        typeof (transport as Transport).send !== 'function')
    ) {
      throw new ClientError(
        'PALISADE_CLIENT_ERR_INVALID_OPTION',
        'option "transport" must be a transport (httpTransport, stdioTransport, inProcessTransport)',
      );
    }
    this.#transport = transport as Transport;
    const info = opts['clientInfo'];
    if (
      info !== undefined &&
      (!isPlainObject(info) || typeof info['name'] !== 'string' || typeof info['version'] !== 'string')
    ) {
      throw new ClientError(
        'PALISADE_CLIENT_ERR_INVALID_OPTION',
        'option "clientInfo" must be { name, version } strings',
      );
    }
    this.#info = Object.freeze({
      ...((info as Implementation | undefined) ?? { name: 'palisade-mcp-client', version: '0.1.0' }),
    });
    const revisions = opts['revisions'];
    if (revisions !== undefined) {
      if (!Array.isArray(revisions) || revisions.length === 0 || revisions.some((r) => !isRevision(r))) {
        throw new ClientError(
          'PALISADE_CLIENT_ERR_INVALID_OPTION',
          `option "revisions" must list revisions from ${DEFAULT_REVISIONS.join(', ')}`,
        );
      }
    }
    this.#revisions = Object.freeze([...((revisions as Revision[] | undefined) ?? DEFAULT_REVISIONS)]);
    this.#handlers = {
      onElicitation: optionalFunction(opts['onElicitation'], 'onElicitation'),
      onSampling: optionalFunction(opts['onSampling'], 'onSampling'),
      roots: (() => {
        const roots = opts['roots'];
        if (roots === undefined || typeof roots === 'function' || Array.isArray(roots))
          return roots as HostHandlers['roots'];
        throw new ClientError(
          'PALISADE_CLIENT_ERR_INVALID_OPTION',
          'option "roots" must be an array of roots or a function',
        );
      })(),
    };
    this.#onNotification = optionalFunction(opts['onNotification'], 'onNotification');
    this.#timeoutMs = positiveInteger(
      opts['requestTimeoutMs'],
      'requestTimeoutMs',
      DEFAULT_REQUEST_TIMEOUT_MS,
    );
    this.#tasks = opts['tasks'] === true;
  }

  /** The server as negotiated, once `connect()` has resolved. */
  get server(): ServerDescription | undefined {
    return this.#server;
  }

  /** Negotiates a revision and starts the connection. Idempotent. */
  connect(options: { signal?: AbortSignal } = {}): Promise<ServerDescription> {
    this.#connecting ??= this.#connect(options.signal).catch((error: unknown) => {
      this.#connecting = undefined;
      throw error;
    });
    return this.#connecting;
  }

  async #connect(signal: AbortSignal | undefined): Promise<ServerDescription> {
    if (this.#closed) throw new ClientError('PALISADE_CLIENT_ERR_CLOSED', 'the client is closed');
    await this.#transport.start({
      message: (message) => this.#receive(message),
      refusal: (error) => this.#failAll(error),
      closed: (error) => this.#failAll(error),
    });
    const handshake = this.#revisions.filter((revision) => isHandshakeRevision(revision));
    if (this.#revisions.includes(MODERN_REVISION)) {
      const probe = await this.#probe(signal);
      if (probe.kind === 'modern') return probe.description;
      const offer =
        probe.kind === 'handshake' && probe.revision !== undefined ? probe.revision : handshake[0];
      if (offer === undefined) {
        throw new ClientError(
          'PALISADE_CLIENT_ERR_NEGOTIATION',
          'the server does not speak 2026-07-28 and the client accepts no other revision',
        );
      }
      return this.#initialize(offer, signal);
    }
    const offer = handshake[0];
    if (offer === undefined) throw new ClientError('PALISADE_CLIENT_ERR_NEGOTIATION', 'no revision to offer');
    return this.#initialize(offer, signal);
  }

  async #probe(
    signal: AbortSignal | undefined,
    retried = false,
  ): Promise<
    { kind: 'modern'; description: ServerDescription } | { kind: 'handshake'; revision: Revision | undefined }
  > {
    let result: JsonObject;
    try {
      result = await this.#exchange(
        'server/discover',
        {},
        { revision: MODERN_REVISION },
        {
          ...(signal === undefined ? {} : { signal }),
          timeoutMs: this.#transport.kind === 'http' ? this.#timeoutMs : DISCOVER_PROBE_MS,
        },
        true,
      );
    } catch (error) {
      if (!(error instanceof ClientError)) throw error;
      if (error.code === 'PALISADE_CLIENT_ERR_RPC' && error.rpc?.code === -32022) {
        const supported =
          isPlainObject(error.rpc.data) && Array.isArray(error.rpc.data['supported'])
            ? error.rpc.data['supported']
            : [];
        // Refused, yet listing 2026-07-28: the probe is tried again once, as the spec has a client retry.
        if (supported.includes(MODERN_REVISION) && !retried) return this.#probe(signal, true);
        const common = this.#revisions.find(
          (revision) => supported.includes(revision) && revision !== MODERN_REVISION,
        );
        if (common === undefined) {
          throw new ClientError(
            'PALISADE_CLIENT_ERR_NEGOTIATION',
            'the server and the client have no revision in common',
          );
        }
        return { kind: 'handshake', revision: common };
      }
      if (error.code === 'PALISADE_CLIENT_ERR_RPC' && MODERN_ERRORS.has(error.rpc?.code ?? 0)) throw error;
      // A handshake-era server: an unknown method, a 400 without a modern body, a 404 or 405, a silent probe.
      if (
        error.code === 'PALISADE_CLIENT_ERR_RPC' ||
        error.code === 'PALISADE_CLIENT_ERR_HTTP_STATUS' ||
        error.code === 'PALISADE_CLIENT_ERR_TIMEOUT'
      ) {
        return { kind: 'handshake', revision: undefined };
      }
      throw error;
    }
    const supported = result['supportedVersions'] as string[];
    if (!supported.includes(MODERN_REVISION)) {
      const common = this.#revisions.find((revision) => supported.includes(revision));
      return { kind: 'handshake', revision: common };
    }
    this.#revision = MODERN_REVISION;
    const meta = isPlainObject(result['_meta']) ? result['_meta'] : {};
    const serverInfo = meta[META_SERVER_INFO];
    this.#server = Object.freeze({
      revision: MODERN_REVISION,
      capabilities: result['capabilities'] as JsonObject,
      serverInfo: isPlainObject(serverInfo) ? (serverInfo as unknown as Implementation) : undefined,
      instructions: typeof result['instructions'] === 'string' ? result['instructions'] : undefined,
      supportedVersions: Object.freeze([...supported]),
    });
    await this.#transport.handshakeDone?.(MODERN_REVISION);
    return { kind: 'modern', description: this.#server };
  }

  async #initialize(offer: Revision, signal: AbortSignal | undefined): Promise<ServerDescription> {
    const result = await this.#exchange(
      'initialize',
      { protocolVersion: offer, capabilities: capabilitiesOf(this.#handlers, offer), clientInfo: this.#info },
      { revision: undefined },
      signal === undefined ? {} : { signal },
    );
    const chosen = result['protocolVersion'];
    if (!this.#revisions.includes(chosen as Revision) || !isHandshakeRevision(chosen)) {
      throw new ClientError(
        'PALISADE_CLIENT_ERR_NEGOTIATION',
        'the server chose a revision the client does not accept',
      );
    }
    this.#revision = chosen;
    await this.#transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' }, { revision: chosen });
    this.#server = Object.freeze({
      revision: chosen,
      capabilities: result['capabilities'] as JsonObject,
      serverInfo: result['serverInfo'] as Implementation,
      instructions: typeof result['instructions'] === 'string' ? result['instructions'] : undefined,
      supportedVersions: Object.freeze([chosen]),
    });
    await this.#transport.handshakeDone?.(chosen);
    return this.#server;
  }

  /** Any request, by method: the result as the server sent it, checked against its method's shape. */
  async request(method: string, params: JsonObject = {}, options: CallOptions = {}): Promise<JsonObject> {
    await this.connect();
    // Here rather than in readResource alone: a subscribe, or a read sent through request(), carries
    // the same URI to a stdio server that reads it with the client's rights.
    if (method.startsWith('resources/') && typeof params['uri'] === 'string')
      await this.#transport.checkResourceUri?.(params['uri']);
    return this.#withInput(method, params, options);
  }

  /** One exchange: the request sent, its answer awaited under the call's signal and deadline. */
  async #exchange(
    method: string,
    params: JsonObject,
    plan: RequestPlan,
    options: CallOptions,
    probe = false,
  ): Promise<JsonObject> {
    if (this.#closed) throw new ClientError('PALISADE_CLIENT_ERR_CLOSED', 'the client is closed');
    const id = ++this.#nextId;
    const revision = plan.revision;
    const meta: JsonObject = { ...(options.meta ?? {}) };
    let token: string | undefined;
    if (options.onProgress !== undefined) {
      token = `p${id}`;
      meta['progressToken'] = token;
      this.#progress.set(token, options.onProgress);
    }
    if (revision === MODERN_REVISION) {
      const capabilities = capabilitiesOf(this.#handlers, revision);
      if (this.#tasks) capabilities['extensions'] = { [TASKS_EXTENSION]: {} };
      meta[META_PROTOCOL_VERSION] = MODERN_REVISION;
      meta[META_CLIENT_CAPABILITIES] = capabilities;
      meta[META_CLIENT_INFO] = this.#info;
    }
    const fullParams =
      Object.keys(meta).length === 0
        ? { ...params }
        : { ...params, _meta: { ...(isPlainObject(params['_meta']) ? params['_meta'] : {}), ...meta } };
    const message = { jsonrpc: '2.0', id, method, params: fullParams };
    const controller = new AbortController();
    const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
    let reason: ClientError | undefined;
    const stop = (error: ClientError): void => {
      if (reason !== undefined) return;
      reason = error;
      controller.abort();
    };
    const timer = setTimeout(
      () =>
        stop(
          new ClientError(
            'PALISADE_CLIENT_ERR_TIMEOUT',
            `${method.length > 64 ? 'the request' : method} had no answer within ${timeoutMs} ms`,
          ),
        ),
      timeoutMs,
    );
    const onAbort = (): void =>
      stop(new ClientError('PALISADE_CLIENT_ERR_ABORTED', 'the call was aborted by its signal'));
    const onClose = (): void => stop(new ClientError('PALISADE_CLIENT_ERR_CLOSED', 'the client was closed'));
    if (options.signal?.aborted === true) onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (this.#closer.signal.aborted) onClose();
    else this.#onClose.add(onClose);
    let settled = false;
    try {
      const answer = new Promise<Record<string, unknown>>((resolve, reject) => {
        this.#pending.set(id, { method, resolve, reject });
        controller.signal.addEventListener('abort', () => reject(reason), { once: true });
      });
      void this.#transport
        .send(message, {
          signal: controller.signal,
          revision,
          ...(plan.fields === undefined ? {} : { fields: plan.fields }),
        })
        .catch((error: unknown) => {
          const failure =
            reason ??
            (error instanceof ClientError
              ? error
              : new ClientError('PALISADE_CLIENT_ERR_TRANSPORT', 'the request could not be sent', {
                  cause: error,
                }));
          this.#pending.get(id)?.reject(failure);
        })
        .finally(() => {
          settled = true;
        });
      const response = await answer;
      if (Object.hasOwn(response, 'error')) throw rpcError(response['error']);
      const result = response['result'];
      checkResult(method, probe ? MODERN_REVISION : revision, result);
      return result as JsonObject;
    } catch (error) {
      if (reason !== undefined && error === reason) this.#cancel(id, revision, reason);
      throw error;
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      this.#onClose.delete(onClose);
      this.#pending.delete(id);
      if (token !== undefined) this.#progress.delete(token);
      // The answer may come before its exchange is over (on the standalone stream, or ahead of
      // the end of an SSE stream a server keeps open): what is left of the exchange is dropped.
      if (!settled)
        setImmediate(() => {
          if (!settled) controller.abort();
        });
    }
  }

  /** Tells the server a request is abandoned, where the revision and transport carry that. */
  #cancel(id: number, revision: Revision | undefined, reason: ClientError): void {
    if (this.#closed || reason.code === 'PALISADE_CLIENT_ERR_CLOSED') return;
    // 2026-07-28 over HTTP: the closed stream is the cancellation. Elsewhere: the notification.
    if (revision === MODERN_REVISION && this.#transport.kind === 'http') return;
    if (revision === undefined) return; // never cancel initialize
    const why = reason.code === 'PALISADE_CLIENT_ERR_TIMEOUT' ? 'timeout' : 'aborted by the client';
    this.#transport
      .send(
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: why } },
        { revision },
      )
      .catch(() => {});
  }

  /** A request that may answer `input_required` (2026-07-28) or a task: answered and retried to its end. */
  async #withInput(method: string, params: JsonObject, options: CallOptions): Promise<JsonObject> {
    const revision = this.#revision;
    const plan: RequestPlan = {
      revision,
      ...(method === 'tools/call' && typeof params['name'] === 'string'
        ? { fields: this.#toolFields.get(params['name']) ?? [] }
        : {}),
    };
    let current = params;
    for (let round = 0; ; round += 1) {
      let result: JsonObject;
      try {
        result = await this.#exchange(method, current, plan, options);
      } catch (error) {
        // -32020: the server's view of the tool's headers differs from ours; list again, once.
        if (
          error instanceof ClientError &&
          error.rpc?.code === -32020 &&
          method === 'tools/call' &&
          round === 0 &&
          revision === MODERN_REVISION
        ) {
          await this.listAllTools(options.signal === undefined ? {} : { signal: options.signal });
          const fields = this.#toolFields.get(current['name'] as string);
          if (fields !== undefined) {
            (plan as { fields?: readonly McpHeaderField[] }).fields = fields;
            continue;
          }
        }
        throw error;
      }
      if (revision !== MODERN_REVISION) return result;
      if (result['resultType'] === 'task') return this.#pollTask(result, options);
      if (result['resultType'] !== 'input_required') return result;
      if (round + 1 >= MAX_INPUT_ROUNDS) {
        throw new ClientError(
          'PALISADE_CLIENT_ERR_INPUT_REQUIRED',
          `the server asked for input more than ${MAX_INPUT_ROUNDS} times`,
          {
            rule: 'too-many-rounds',
          },
        );
      }
      const responses = await this.#answerRequests(result['inputRequests'], options.signal);
      const next: JsonObject = { ...params };
      if (responses !== undefined) next['inputResponses'] = responses;
      if (typeof result['requestState'] === 'string') next['requestState'] = result['requestState'];
      current = next;
    }
  }

  async #answerRequests(requests: unknown, signal: AbortSignal | undefined): Promise<JsonObject | undefined> {
    if (requests === undefined) return undefined;
    const entries = Object.entries(requests as JsonObject);
    if (entries.length > MAX_INPUT_REQUESTS) {
      throw new ClientError(
        'PALISADE_CLIENT_ERR_INPUT_REQUIRED',
        `the server asked for more than ${MAX_INPUT_REQUESTS} inputs at once`,
        {
          rule: 'too-many-inputs',
        },
      );
    }
    const responses: JsonObject = {};
    const handlerSignal = signal ?? this.#closer.signal;
    for (const [key, request] of entries) {
      if (!isPlainObject(request) || typeof request['method'] !== 'string') {
        throw new ClientError(
          'PALISADE_CLIENT_ERR_RESULT_INVALID',
          'an input request is not { method, params }',
          { rule: 'result-shape' },
        );
      }
      try {
        responses[key] = await answerInput(
          this.#handlers,
          request['method'],
          request['params'],
          handlerSignal,
        );
      } catch (error) {
        if (error instanceof UnsupportedInput) {
          throw new ClientError(
            'PALISADE_CLIENT_ERR_INPUT_REQUIRED',
            'the server asked for input the client declared no handler for',
            {
              rule: 'no-handler',
            },
          );
        }
        throw error;
      }
    }
    return responses;
  }

  /** The tasks extension: a task polled with `tasks/get` to its end, input answered with `tasks/update`. */
  async #pollTask(created: JsonObject, options: CallOptions): Promise<JsonObject> {
    const taskId = created['taskId'] as string;
    let interval = typeof created['pollIntervalMs'] === 'number' ? created['pollIntervalMs'] : 1000;
    const deadline = Date.now() + (options.timeoutMs ?? this.#timeoutMs);
    const plan: RequestPlan = { revision: MODERN_REVISION };
    for (;;) {
      if (options.signal?.aborted === true || Date.now() > deadline) {
        await this.#exchange('tasks/cancel', { taskId }, plan, {}).catch(() => {});
        throw new ClientError(
          options.signal?.aborted === true ? 'PALISADE_CLIENT_ERR_ABORTED' : 'PALISADE_CLIENT_ERR_TIMEOUT',
          'the task was cancelled before it finished',
        );
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(Math.max(interval, 50), 30_000)));
      const task = await this.#exchange(
        'tasks/get',
        { taskId },
        plan,
        options.signal === undefined ? {} : { signal: options.signal },
      );
      if (typeof task['pollIntervalMs'] === 'number') interval = task['pollIntervalMs'];
      switch (task['status']) {
        case 'completed': {
          const result = task['result'];
          checkResult('tools/call', undefined, result);
          return result as JsonObject;
        }
        case 'failed':
          throw rpcError(task['error']);
        case 'cancelled':
          throw new ClientError('PALISADE_CLIENT_ERR_ABORTED', 'the server cancelled the task');
        case 'input_required': {
          const responses = await this.#answerRequests(task['inputRequests'], options.signal);
          await this.#exchange('tasks/update', { taskId, inputResponses: responses ?? {} }, plan, {});
          break;
        }
        default:
          break;
      }
    }
  }

  #receive(message: Record<string, unknown>): void {
    switch (kindOf(message)) {
      case 'response': {
        const id = message['id'];
        const pending = typeof id === 'number' ? this.#pending.get(id) : undefined;
        pending?.resolve(message);
        return;
      }
      case 'request':
        void this.#answerServer(message);
        return;
      case 'notification': {
        const method = message['method'] as string;
        const params = isPlainObject(message['params']) ? message['params'] : {};
        if (method === 'notifications/progress') {
          const token = params['progressToken'];
          const sink = typeof token === 'string' ? this.#progress.get(token) : undefined;
          if (sink !== undefined && typeof params['progress'] === 'number') {
            sink({
              progress: params['progress'],
              ...(typeof params['total'] === 'number' ? { total: params['total'] } : {}),
              ...(typeof params['message'] === 'string' ? { message: params['message'] } : {}),
            });
          }
          return;
        }
        try {
          this.#onNotification?.({ method, params });
        } catch {
          // A host's notification hook that throws loses that notification, not the connection.
        }
        return;
      }
      default:
        return;
    }
  }

  /** A server-to-client request (2025 family): answered by the host's handler, or refused. */
  async #answerServer(message: Record<string, unknown>): Promise<void> {
    const id = message['id'];
    const method = message['method'] as string;
    let reply: Record<string, unknown>;
    try {
      const result = await answerInput(this.#handlers, method, message['params'], this.#closer.signal);
      reply = { jsonrpc: '2.0', id, result };
    } catch (error) {
      reply =
        error instanceof UnsupportedInput
          ? { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } }
          : { jsonrpc: '2.0', id, error: { code: -32603, message: 'The client could not answer' } };
    }
    await this.#transport.send(reply, { revision: this.#revision }).catch(() => {});
  }

  #failAll(error: ClientError): void {
    for (const pending of this.#pending.values()) pending.reject(error);
  }

  // ---- typed calls ----

  /** One page of tools. Tools whose `x-mcp-header` annotations are invalid are left out, as the spec has clients do. */
  async listTools(options: CallOptions & { cursor?: string } = {}): Promise<Page<Tool>> {
    const result = await this.request(
      'tools/list',
      options.cursor === undefined ? {} : { cursor: options.cursor },
      options,
    );
    const tools: Tool[] = [];
    for (const tool of result['tools'] as Tool[]) {
      const fields = readMcpHeaderFields(tool.inputSchema);
      if (!fields.ok) continue;
      this.#toolFields.set(tool.name, fields.fields);
      if (tool.outputSchema !== undefined) this.#outputs.set(tool.name, outputChecker(tool.outputSchema));
      else this.#outputs.delete(tool.name);
      tools.push(tool);
    }
    return { items: tools, nextCursor: result['nextCursor'] as string | undefined };
  }

  listAllTools(options: CallOptions = {}): Promise<Tool[]> {
    return this.#all((cursor) => this.listTools({ ...options, ...(cursor === undefined ? {} : { cursor }) }));
  }

  /**
   * Calls a tool. A `structuredContent` is checked against the `outputSchema` the tool listed
   * (list the tools first to have it checked); a mismatch is PALISADE_CLIENT_ERR_STRUCTURED_CONTENT.
   */
  async callTool(name: string, args: JsonObject = {}, options: CallOptions = {}): Promise<CallToolResult> {
    const result = (await this.request(
      'tools/call',
      { name, arguments: args },
      options,
    )) as unknown as CallToolResult;
    const check = this.#outputs.get(name);
    if (check !== undefined && result.isError !== true) check(result.structuredContent);
    return result;
  }

  async listResources(options: CallOptions & { cursor?: string } = {}): Promise<Page<Resource>> {
    const result = await this.request(
      'resources/list',
      options.cursor === undefined ? {} : { cursor: options.cursor },
      options,
    );
    let items = result['resources'] as Resource[];
    // Over stdio a listed `file:` URI is one the host may go on to read: entries on origins the
    // boundary refuses are withheld, as tools with invalid header annotations are.
    const refused = await this.#transport.refusedResourceUris?.(items.map((item) => item.uri));
    if (refused !== undefined && refused.size > 0) items = items.filter((item) => !refused.has(item.uri));
    return { items, nextCursor: result['nextCursor'] as string | undefined };
  }

  listAllResources(options: CallOptions = {}): Promise<Resource[]> {
    return this.#all((cursor) =>
      this.listResources({ ...options, ...(cursor === undefined ? {} : { cursor }) }),
    );
  }

  async listResourceTemplates(
    options: CallOptions & { cursor?: string } = {},
  ): Promise<Page<ResourceTemplate>> {
    const result = await this.request(
      'resources/templates/list',
      options.cursor === undefined ? {} : { cursor: options.cursor },
      options,
    );
    return {
      items: result['resourceTemplates'] as ResourceTemplate[],
      nextCursor: result['nextCursor'] as string | undefined,
    };
  }

  /** Reads a resource. Over stdio the URI passes the trust boundary first (a `file:` URI needs consent). */
  async readResource(uri: string, options: CallOptions = {}): Promise<ReadResourceResult> {
    return (await this.request('resources/read', { uri }, options)) as unknown as ReadResourceResult;
  }

  async listPrompts(options: CallOptions & { cursor?: string } = {}): Promise<Page<Prompt>> {
    const result = await this.request(
      'prompts/list',
      options.cursor === undefined ? {} : { cursor: options.cursor },
      options,
    );
    return { items: result['prompts'] as Prompt[], nextCursor: result['nextCursor'] as string | undefined };
  }

  async getPrompt(
    name: string,
    args: Readonly<Record<string, string>> = {},
    options: CallOptions = {},
  ): Promise<GetPromptResult> {
    return (await this.request(
      'prompts/get',
      { name, arguments: { ...args } },
      options,
    )) as unknown as GetPromptResult;
  }

  async complete(
    ref: JsonObject,
    argument: { name: string; value: string },
    options: CallOptions = {},
  ): Promise<CompleteResult> {
    return (await this.request(
      'completion/complete',
      { ref, argument },
      options,
    )) as unknown as CompleteResult;
  }

  /** Every page of a list, following `nextCursor` (at most MAX_PAGES pages; a cursor seen twice ends it). */
  async #all<T>(page: (cursor: string | undefined) => Promise<Page<T>>): Promise<T[]> {
    const items: T[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let count = 0; count < MAX_PAGES; count += 1) {
      const next = await page(cursor);
      items.push(...next.items);
      if (next.nextCursor === undefined) return items;
      if (seen.has(next.nextCursor)) {
        throw new ClientError('PALISADE_CLIENT_ERR_RESULT_INVALID', 'the server repeated a cursor', {
          rule: 'cursor-loop',
        });
      }
      seen.add(next.nextCursor);
      cursor = next.nextCursor;
    }
    throw new ClientError('PALISADE_CLIENT_ERR_RESULT_INVALID', `the list went on past ${MAX_PAGES} pages`, {
      rule: 'too-many-pages',
    });
  }

  /** Ends the connection: in-flight calls fail with PALISADE_CLIENT_ERR_CLOSED, the transport closes (HTTP sessions get DELETE). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closer.abort();
    for (const end of [...this.#onClose]) end();
    this.#onClose.clear();
    this.#closed = true;
    this.#failAll(new ClientError('PALISADE_CLIENT_ERR_CLOSED', 'the client was closed'));
    await this.#transport.close();
  }
}

/** A client over `options.transport`. Options are checked here, once. */
export function createClient(options: ClientOptions): Client {
  return new Client(options);
}
