/**
 * Builds the `ctx` a host handler receives, and holds the two rules on what it may send before
 * the response: progress only when the request carried a `progressToken`, strictly increasing;
 * log messages only at or above the level the request asked for. Once the response is settled,
 * both are silent, so nothing of a request is ever sent after its response.
 */
import type { HandlerContext, JsonObject, LogLevel } from '../catalog/types.js';
import type { JsonRpcNotification } from './jsonrpc.js';
import type { Revision } from './revisions.js';

export const LOG_LEVELS: readonly LogLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && (LOG_LEVELS as readonly string[]).includes(value);
}

export interface ContextInput {
  readonly revision: Revision;
  readonly meta: Readonly<JsonObject>;
  readonly clientCapabilities: Readonly<JsonObject>;
  readonly signal: AbortSignal;
  readonly auth: unknown;
  /** The lowest level this request asked to hear; undefined sends no log messages at all. */
  readonly logLevel: LogLevel | undefined;
  readonly emit: (notification: JsonRpcNotification) => void;
}

export interface OpenContext {
  readonly ctx: HandlerContext;
  /** Called once the response is settled: from then on the context sends nothing. */
  close(): void;
}

function progressToken(meta: Readonly<JsonObject>): string | number | undefined {
  const token = meta['progressToken'];
  if (typeof token === 'string' || (typeof token === 'number' && Number.isSafeInteger(token))) return token;
  return undefined;
}

export function openContext(input: ContextInput): OpenContext {
  let open = true;
  let lastProgress = Number.NEGATIVE_INFINITY;
  const token = progressToken(input.meta);
  const threshold = input.logLevel === undefined ? undefined : LOG_LEVELS.indexOf(input.logLevel);
  const ctx: HandlerContext = Object.freeze({
    signal: input.signal,
    revision: input.revision,
    meta: input.meta,
    clientCapabilities: input.clientCapabilities,
    auth: input.auth,
    progress(progress: number, total?: number, message?: string): void {
      if (!open || token === undefined || input.signal.aborted) return;
      if (typeof progress !== 'number' || !Number.isFinite(progress) || progress <= lastProgress) return;
      lastProgress = progress;
      const params: JsonObject = { progressToken: token, progress };
      if (typeof total === 'number' && Number.isFinite(total)) params['total'] = total;
      if (typeof message === 'string') params['message'] = message;
      input.emit({ jsonrpc: '2.0', method: 'notifications/progress', params });
    },
    log(level: LogLevel, data: unknown, logger?: string): void {
      if (!open || threshold === undefined || input.signal.aborted || !isLogLevel(level)) return;
      if (LOG_LEVELS.indexOf(level) < threshold) return;
      const params: JsonObject = { level, data };
      if (typeof logger === 'string') params['logger'] = logger;
      input.emit({ jsonrpc: '2.0', method: 'notifications/message', params });
    },
  });
  return {
    ctx,
    close(): void {
      open = false;
    },
  };
}
