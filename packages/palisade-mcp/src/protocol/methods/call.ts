/** What every method handler receives, and what it answers. */
import type { CacheHint, HandlerContext, JsonObject } from '../../catalog/types.js';
import type { Revision } from '../../revisions.js';
import type { JsonRpcError, RequestId } from '../jsonrpc.js';
import type { Server } from '../server-shape.js';

export interface Call {
  readonly server: Server;
  readonly id: RequestId;
  readonly params: Readonly<JsonObject>;
  readonly revision: Revision;
  readonly ctx: HandlerContext;
}

export type Outcome =
  | { readonly kind: 'result'; readonly result: JsonObject; readonly cache?: CacheHint }
  | { readonly kind: 'error'; readonly error: JsonRpcError };

export type MethodHandler = (call: Call) => Outcome | Promise<Outcome>;

export function result(value: JsonObject, cache?: CacheHint): Outcome {
  return cache === undefined ? { kind: 'result', result: value } : { kind: 'result', result: value, cache };
}

export function failure(error: JsonRpcError): Outcome {
  return { kind: 'error', error };
}
