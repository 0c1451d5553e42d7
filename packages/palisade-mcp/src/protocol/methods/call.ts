/** What every method handler receives, and what it answers. */
import type { CacheHint, HandlerContext, JsonObject } from '../../catalog/types.js';
import type { Revision } from '../../revisions.js';
import type { JsonRpcError, RequestId } from '../../wire/jsonrpc.js';
import type { InputRequiredValue } from '../input-required.js';
import type { Transport } from '../revisions/index.js';
import type { Server } from '../server-shape.js';

export interface Call {
  readonly server: Server;
  readonly id: RequestId;
  readonly params: Readonly<JsonObject>;
  readonly revision: Revision;
  /** What carries the request: which revisions are served depends on it (2024-11-05 is stdio only). */
  readonly transport: Transport;
  readonly ctx: HandlerContext;
  /** The transport's fault reporter, for work that outlives the request (a task's handler). */
  readonly reportFault?: ((description: string, cause: unknown) => void) | undefined;
}

export type Outcome =
  | { readonly kind: 'result'; readonly result: JsonObject; readonly cache?: CacheHint }
  | { readonly kind: 'error'; readonly error: JsonRpcError }
  /** The handler asked the client for input (MRTR); only tools/call, prompts/get and resources/read answer this. */
  | { readonly kind: 'input-required'; readonly value: InputRequiredValue }
  /** A CreateTaskResult (tasks extension), sent as built: `resultType: "task"`, no cache hints. */
  | { readonly kind: 'task'; readonly result: JsonObject };

export type MethodHandler = (call: Call) => Outcome | Promise<Outcome>;

export function result(value: JsonObject, cache?: CacheHint): Outcome {
  return cache === undefined ? { kind: 'result', result: value } : { kind: 'result', result: value, cache };
}

export function failure(error: JsonRpcError): Outcome {
  return { kind: 'error', error };
}

export function askedForInput(value: InputRequiredValue): Outcome {
  return { kind: 'input-required', value };
}
