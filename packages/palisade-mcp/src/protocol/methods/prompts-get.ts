/**
 * `prompts/get`: arguments are validated like tool arguments (each a string, required ones
 * present, nothing undeclared), and a failure is -32602. The reader receives only declared names.
 * A message whose content block the request's revision does not define is left out, as a tool
 * result's block would be: a message cannot be sent without its content.
 */
import { contentBlock } from '../../catalog/content.js';
import { HostFault } from '../../catalog/host-fault.js';
import type { JsonObject } from '../../catalog/types.js';
import { isPlainObject } from '../../options.js';
import { dispatchTraced, traceDispatch } from '../../telemetry/dispatch-channel.js';
import { invalidParams } from '../errors.js';
import { inputRequiredValue, isInputRequired } from '../input-required.js';
import { profileOf } from '../revisions/index.js';
import { shapeContentBlock } from '../revisions/shape.js';
import { askedForInput, type Call, failure, type Outcome, result } from './call.js';
import { refuseLackedCapabilities } from './required-capabilities.js';

export async function getPrompt(call: Call): Promise<Outcome> {
  const { params } = call;
  if (typeof params['name'] !== 'string')
    return failure(invalidParams(call.id, 'prompts/get needs params.name as a string'));
  const prompt = call.server.catalog.prompts?.get(params['name']);
  if (prompt === undefined) return failure(invalidParams(call.id, 'no prompt has that name'));
  const lacked = refuseLackedCapabilities(call, prompt.requiredCapabilities);
  if (lacked !== undefined) return lacked;
  const given = params['arguments'] === undefined ? {} : params['arguments'];
  if (!isPlainObject(given)) return failure(invalidParams(call.id, 'params.arguments must be an object'));

  const entries: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(given)) {
    const declared = prompt.arguments.get(name);
    if (declared === undefined)
      return failure(invalidParams(call.id, 'an argument is not declared by this prompt'));
    if (typeof value !== 'string') {
      return failure(invalidParams(call.id, `argument ${JSON.stringify(declared.name)} must be a string`));
    }
    entries.push([declared.name, value]);
  }
  // fromEntries defines own properties, so an argument named `__proto__` is data, not a setter call.
  const args: Record<string, string> = Object.fromEntries(entries);
  for (const declared of prompt.arguments.values()) {
    if (declared.required === true && !Object.hasOwn(args, declared.name)) {
      return failure(invalidParams(call.id, `argument ${JSON.stringify(declared.name)} is required`));
    }
  }

  const get = (): unknown => prompt.definition.get(Object.freeze(args), call.ctx);
  const answer: unknown = dispatchTraced()
    ? await traceDispatch(
        {
          server: call.server.info.name,
          prompt: prompt.definition.name,
          revision: call.revision,
          traceContext: call.ctx.traceContext,
        },
        get,
        () => 'ok',
      )
    : await get();
  if (isInputRequired(answer)) return askedForInput(inputRequiredValue(answer));
  const where = `prompt ${JSON.stringify(prompt.definition.name)} result`;
  if (!isPlainObject(answer) || !Array.isArray(answer['messages'])) {
    throw new HostFault(`${where} must be an object with a messages array`);
  }
  const profile = profileOf(call.revision);
  const messages: JsonObject[] = [];
  answer['messages'].forEach((message: unknown, index: number) => {
    if (!isPlainObject(message) || (message['role'] !== 'user' && message['role'] !== 'assistant')) {
      throw new HostFault(`${where}.messages[${index}] must have role "user" or "assistant"`);
    }
    const content = contentBlock(message['content'], `${where}.messages[${index}].content`);
    const shaped = shapeContentBlock(profile, content);
    if (shaped === undefined) return;
    // `PromptMessage` is `role` and `content` in every revision; a narrowed one gets nothing else.
    messages.push(
      profile.narrows ? { role: message['role'], content: shaped } : { ...message, content: shaped },
    );
  });
  const body: JsonObject = { messages };
  if (answer['description'] !== undefined) {
    if (typeof answer['description'] !== 'string')
      throw new HostFault(`${where}.description must be a string`);
    body['description'] = answer['description'];
  }
  if (answer['_meta'] !== undefined) body['_meta'] = answer['_meta'];
  return result(body);
}
