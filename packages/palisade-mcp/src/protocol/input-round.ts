/**
 * One round of a multi-round-trip request (MRTR, 2026-07-28), on `tools/call`, `prompts/get` and
 * `resources/read`: before the handler, the retry's `inputResponses` are checked for shape and its
 * `requestState` opened and checked; after it, an `inputRequired` answer is checked against this
 * request's client capabilities and its state sealed for the next round.
 */
import { HostFault } from '../catalog/host-fault.js';
import type { JsonObject } from '../catalog/types.js';
import { isPlainObject } from '../options.js';
import { META_SERVER_INFO } from '../revisions.js';
import type { JsonRpcResponse, RequestId } from '../wire/jsonrpc.js';
import { invalidParams, missingClientCapability } from './errors.js';
import { type InputRequiredValue, lackedForInput } from './input-required.js';
import { ownCopy } from './own-copy.js';
import { type Binding, bindingOf, openRequestState, sealRequestState } from './request-state.js';
import type { Server } from './server-shape.js';

/** One refusal for every `requestState` Palisade will not act on, whichever check failed. */
export const REQUEST_STATE_REFUSED = 'requestState was not issued by this server for this request';

export interface Retry {
  readonly inputResponses: Readonly<Record<string, Readonly<JsonObject>>> | undefined;
  /** The round of the verified token, 0 when none was presented (or no sealer is configured). */
  readonly round: number;
  readonly hasState: boolean;
  readonly state: unknown;
  /** What a token issued on this request is bound to; computed once, when first needed. */
  readonly binding: () => Binding;
}

export type Prepared =
  | { readonly ok: true; readonly retry: Retry }
  | { readonly ok: false; readonly error: JsonRpcResponse };

/** Synchronous unless a token must be opened: most calls carry none and should not wait a turn for it. */
export function prepareRetry(
  server: Server,
  id: RequestId,
  method: string,
  params: Readonly<JsonObject>,
  auth: unknown,
): Prepared | Promise<Prepared> {
  let inputResponses: Retry['inputResponses'];
  if (Object.hasOwn(params, 'inputResponses')) {
    const given = params['inputResponses'];
    // Each of ElicitResult, CreateMessageResult and ListRootsResult is an object; what is inside is the handler's to read.
    if (!isPlainObject(given) || !Object.values(given).every(isPlainObject))
      return {
        ok: false,
        error: invalidParams(id, 'params.inputResponses must be an object whose values are objects'),
      };
    inputResponses = Object.freeze(given) as Retry['inputResponses'];
  }
  const config = server.requestState;
  let binding: Binding | undefined;
  const bind = (): Binding => {
    if (config === undefined) throw new HostFault('requestState issued without a sealer');
    binding ??= bindingOf(config, auth, method, params);
    return binding;
  };
  // Without a sealer a `requestState` was never issued here: it is not read, echoed or acted on.
  if (config === undefined || !Object.hasOwn(params, 'requestState')) {
    return {
      ok: true,
      retry: { inputResponses, round: 0, hasState: false, state: undefined, binding: bind },
    };
  }
  return openRequestState(config, params['requestState'], bind(), Date.now()).then((opened): Prepared => {
    if (!opened.ok) return { ok: false, error: invalidParams(id, REQUEST_STATE_REFUSED) };
    return {
      ok: true,
      retry: {
        inputResponses,
        round: opened.round,
        hasState: opened.hasState,
        state: opened.state,
        binding: bind,
      },
    };
  });
}

/**
 * The answer to a handler's `inputRequired`: -32021 when this request did not declare a capability
 * an input request needs, else the `input_required` result. It carries no cache hints (spec §3.3).
 */
export async function answerInputRequired(
  server: Server,
  id: RequestId,
  value: InputRequiredValue,
  retry: Retry,
  clientCapabilities: unknown,
): Promise<JsonRpcResponse> {
  const lacked = lackedForInput(value, clientCapabilities);
  if (lacked !== undefined) return missingClientCapability(id, lacked);
  const config = server.requestState;
  const body: JsonObject = { resultType: 'input_required' };
  const keys = Object.keys(value.requests);
  if (keys.length > 0) {
    const requests: JsonObject = {};
    for (const key of keys) {
      const request = value.requests[key];
      if (request !== undefined)
        Object.defineProperty(requests, key, {
          value: request,
          enumerable: true,
          writable: true,
          configurable: true,
        });
    }
    body['inputRequests'] = requests;
  }
  if (config !== undefined) {
    body['requestState'] = await sealRequestState(
      config,
      retry.binding(),
      retry.round + 1,
      value,
      Date.now(),
    );
  } else {
    if (value.hasState)
      throw new HostFault('ctx.inputRequired was given a state, but the server has no requestState.sealer');
    if (keys.length === 0)
      throw new HostFault('ctx.inputRequired asked for nothing and no requestState can be issued');
  }
  body['_meta'] = { [META_SERVER_INFO]: ownCopy(server.info) };
  return { jsonrpc: '2.0', id, result: body };
}
