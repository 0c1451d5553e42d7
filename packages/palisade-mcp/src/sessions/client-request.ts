/**
 * The one place the package builds a request to the client: on an HTTP session, a handler's
 * `ctx.inputRequired` becomes one `sampling/createMessage`, `elicitation/create` or `roots/list`
 * request per input request, under an id the relay issued. The method is the input request's,
 * which `ctx.inputRequired` checked against those three; nothing else is ever asked (a census
 * holds every other file to building no request at all).
 */
import type { InputRequest, JsonObject } from '../catalog/types.js';
import type { RequestId } from '../wire/jsonrpc.js';

export interface ClientRequest {
  readonly jsonrpc: '2.0';
  readonly id: RequestId;
  readonly method: InputRequest['method'];
  readonly params: Readonly<JsonObject>;
}

export function clientRequest(id: RequestId, request: InputRequest): ClientRequest {
  return { jsonrpc: '2.0', id, method: request.method, params: request.params };
}
