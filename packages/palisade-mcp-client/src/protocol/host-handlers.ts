/**
 * What a server may ask of the client, answered by the host: elicitation, sampling and roots.
 * On the 2025 family they arrive as server-to-client requests; on 2026-07-28 as the input
 * requests of an `input_required` result. Either way the same handler answers, and the answer is
 * checked before it is sent: a handler that returns something of the wrong shape fails the call
 * by name rather than sending the server garbage. A request for a capability the client did not
 * declare is refused (-32601 to a server request; a named error on a call).
 */
import { ClientError } from '../errors.js';
import { isPlainObject } from '../options.js';
import type { CreateMessageResult, ElicitResult, JsonObject, Root } from './types.js';

export interface HandlerContext {
  readonly signal: AbortSignal;
}

export type ElicitationHandler = (
  params: JsonObject,
  context: HandlerContext,
) => ElicitResult | Promise<ElicitResult>;
export type SamplingHandler = (
  params: JsonObject,
  context: HandlerContext,
) => CreateMessageResult | Promise<CreateMessageResult>;
export type RootsSource = readonly Root[] | (() => readonly Root[] | Promise<readonly Root[]>);

export interface HostHandlers {
  readonly onElicitation?: ElicitationHandler | undefined;
  readonly onSampling?: SamplingHandler | undefined;
  readonly roots?: RootsSource | undefined;
}

/** The client capabilities the handlers the host gave amount to, on `revision`. */
export function capabilitiesOf(handlers: HostHandlers, revision: string | undefined): JsonObject {
  const capabilities: JsonObject = {};
  if (handlers.onElicitation !== undefined) {
    capabilities['elicitation'] = revision === '2025-06-18' ? {} : { form: {} };
  }
  if (handlers.onSampling !== undefined) capabilities['sampling'] = {};
  if (handlers.roots !== undefined)
    capabilities['roots'] = revision === '2026-07-28' ? {} : { listChanged: false };
  return capabilities;
}

/** SEP-1034: a field the user left alone takes the default the requested schema gives it. */
function withDefaults(content: JsonObject | undefined, schema: unknown): JsonObject {
  const filled: JsonObject = { ...(content ?? {}) };
  if (!isPlainObject(schema) || !isPlainObject(schema['properties'])) return filled;
  for (const [name, property] of Object.entries(schema['properties'])) {
    if (Object.hasOwn(filled, name) || !isPlainObject(property) || !Object.hasOwn(property, 'default'))
      continue;
    filled[name] = property['default'];
  }
  return filled;
}

function handlerFault(what: string): ClientError {
  return new ClientError('PALISADE_CLIENT_ERR_INPUT_REQUIRED', `the host's ${what}`, {
    rule: 'handler-answer',
  });
}

export class UnsupportedInput extends Error {}

/** The host's answer to one input request, checked; throws UnsupportedInput when no handler is given. */
export async function answerInput(
  handlers: HostHandlers,
  method: string,
  params: unknown,
  signal: AbortSignal,
): Promise<JsonObject> {
  const args = isPlainObject(params) ? params : {};
  switch (method) {
    case 'elicitation/create': {
      if (handlers.onElicitation === undefined) throw new UnsupportedInput(method);
      const answer = (await handlers.onElicitation(args, { signal })) as unknown;
      if (!isPlainObject(answer) || !['accept', 'decline', 'cancel'].includes(answer['action'] as string)) {
        throw handlerFault('elicitation handler answered without an action of accept, decline or cancel');
      }
      if (answer['content'] !== undefined && !isPlainObject(answer['content'])) {
        throw handlerFault('elicitation handler answered content that is not an object');
      }
      if (answer['action'] !== 'accept') return { action: answer['action'] };
      const mode = args['mode'];
      if (mode === 'url') return { action: 'accept' };
      return {
        action: 'accept',
        content: withDefaults(answer['content'] as JsonObject | undefined, args['requestedSchema']),
      };
    }
    case 'sampling/createMessage': {
      if (handlers.onSampling === undefined) throw new UnsupportedInput(method);
      const answer = (await handlers.onSampling(args, { signal })) as unknown;
      if (
        !isPlainObject(answer) ||
        typeof answer['model'] !== 'string' ||
        typeof answer['role'] !== 'string'
      ) {
        throw handlerFault('sampling handler answered without role and model');
      }
      if (!isPlainObject(answer['content']) && !Array.isArray(answer['content'])) {
        throw handlerFault('sampling handler answered without content');
      }
      return { ...answer };
    }
    case 'roots/list': {
      const source = handlers.roots;
      if (source === undefined) throw new UnsupportedInput(method);
      const roots = typeof source === 'function' ? await source() : source;
      if (
        !Array.isArray(roots) ||
        roots.some((root) => !isPlainObject(root) || typeof root['uri'] !== 'string')
      ) {
        throw handlerFault('roots are not a list of { uri, name? }');
      }
      return { roots: roots.map((root) => ({ ...root })) };
    }
    case 'ping':
      return {};
    default:
      throw new UnsupportedInput(method);
  }
}
