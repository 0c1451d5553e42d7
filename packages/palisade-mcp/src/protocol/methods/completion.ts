/**
 * `completion/complete` for prompt arguments and template variables. The host's completer may
 * return any number of values; at most MAX_COMPLETION_VALUES reach the client, with `hasMore`.
 */
import { MAX_COMPLETION_VALUES } from '../../limits.js';

export { MAX_COMPLETION_VALUES } from '../../limits.js';

import { HostFault } from '../../catalog/host-fault.js';
import type { Completer, JsonObject } from '../../catalog/types.js';
import { isPlainObject } from '../../options.js';
import { invalidParams } from '../errors.js';
import { type Call, failure, type Outcome, result } from './call.js';

/** A completer sees only the context arguments its prompt or template declares. */
function onlyDeclared(
  given: Record<string, string>,
  declared: (name: string) => boolean,
): Record<string, string> {
  return Object.fromEntries(Object.entries(given).filter(([name]) => declared(name)));
}

export async function complete(call: Call): Promise<Outcome> {
  const { params } = call;
  const ref = params['ref'];
  const argument = params['argument'];
  if (!isPlainObject(ref))
    return failure(invalidParams(call.id, 'completion/complete needs params.ref as an object'));
  if (
    !isPlainObject(argument) ||
    typeof argument['name'] !== 'string' ||
    typeof argument['value'] !== 'string'
  ) {
    return failure(
      invalidParams(call.id, 'completion/complete needs params.argument with string name and value'),
    );
  }
  const context = params['context'];
  let contextArguments: Record<string, string> = {};
  if (context !== undefined) {
    if (!isPlainObject(context)) return failure(invalidParams(call.id, 'params.context must be an object'));
    const given = context['arguments'];
    if (given !== undefined) {
      if (!isPlainObject(given) || !Object.values(given).every((value) => typeof value === 'string')) {
        return failure(invalidParams(call.id, 'params.context.arguments must map names to strings'));
      }
      contextArguments = given as Record<string, string>;
    }
  }

  let completer: Completer | undefined;
  const { catalog } = call.server;
  if (ref['type'] === 'ref/prompt') {
    const prompt = typeof ref['name'] === 'string' ? catalog.prompts?.get(ref['name']) : undefined;
    if (prompt === undefined) return failure(invalidParams(call.id, 'no prompt has that name'));
    const declared = prompt.arguments.get(argument['name']);
    if (declared === undefined)
      return failure(invalidParams(call.id, 'the prompt declares no such argument'));
    completer = declared.complete;
    contextArguments = onlyDeclared(contextArguments, (name) => prompt.arguments.has(name));
  } else if (ref['type'] === 'ref/resource') {
    const template = typeof ref['uri'] === 'string' ? catalog.templatesByUri.get(ref['uri']) : undefined;
    if (template === undefined) return failure(invalidParams(call.id, 'no resource template has that URI'));
    if (!template.template.variables.some((variable) => variable.name === argument['name'])) {
      return failure(invalidParams(call.id, 'the template has no such variable'));
    }
    const completers = template.definition.complete;
    // Own properties only: a variable named `constructor` must not find Object's.
    completer =
      completers !== undefined && Object.hasOwn(completers, argument['name'])
        ? completers[argument['name']]
        : undefined;
    const variables = new Set(template.template.variables.map((variable) => variable.name));
    contextArguments = onlyDeclared(contextArguments, (name) => variables.has(name));
  } else {
    return failure(invalidParams(call.id, 'params.ref.type must be "ref/prompt" or "ref/resource"'));
  }

  const values =
    completer === undefined
      ? []
      : ((await completer(argument['value'], { arguments: contextArguments, ctx: call.ctx })) as unknown);
  if (!Array.isArray(values) || !values.every((value) => typeof value === 'string')) {
    throw new HostFault('a completer must return an array of strings');
  }
  const completion: JsonObject = { values: values.slice(0, MAX_COMPLETION_VALUES), total: values.length };
  completion['hasMore'] = values.length > MAX_COMPLETION_VALUES;
  return result({ completion });
}
