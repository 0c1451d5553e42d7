/**
 * `tools/call`: the one dispatch site. The arguments are validated against the schema
 * `tools/list` advertised, and the handler receives that very object: no coercion, no
 * defaults, nothing removed. Arguments that fail the schema are a tool result with
 * `isError: true` (SEP-1303), so a model can read what was wrong, and so is a `ToolError` the
 * handler throws; any other throw is a host fault (-32603, nothing of it sent). An unknown tool or
 * malformed params are -32602. What the host returns is checked for shape, never interpreted.
 */
import { contentBlocks } from '../../catalog/content.js';
import { HostFault } from '../../catalog/host-fault.js';
import { ToolError, toolErrorResult } from '../../catalog/tool-error.js';
import type { JsonObject, TaskSupport, ToolResult } from '../../catalog/types.js';
import { isPlainObject } from '../../options.js';
import { type DispatchOutcome, dispatchTraced, traceDispatch } from '../../telemetry/dispatch-channel.js';
import { invalidParams, methodNotFound } from '../errors.js';
import { inputRequiredValue, isInputRequired } from '../input-required.js';
import { profileOf } from '../revisions/index.js';
import { shapeContentBlocks } from '../revisions/shape.js';
import { declaresTasks, lacksTasks } from '../tasks/negotiation.js';
import { createTask } from '../tasks/runner.js';
import { askedForInput, type Call, failure, type Outcome, result } from './call.js';
import { refuseLackedCapabilities } from './required-capabilities.js';

function toolError(text: string): JsonObject {
  return { content: [{ type: 'text', text }], isError: true };
}

export async function callTool(call: Call): Promise<Outcome> {
  const { params } = call;
  if (typeof params['name'] !== 'string')
    return failure(invalidParams(call.id, 'tools/call needs params.name as a string'));
  const tool = call.server.catalog.tools?.get(params['name']);
  if (tool === undefined) return failure(invalidParams(call.id, 'no tool has that name'));
  const lacked = refuseLackedCapabilities(call, tool.requiredCapabilities);
  if (lacked !== undefined) return lacked;
  const args = params['arguments'] === undefined ? {} : params['arguments'];
  if (!isPlainObject(args)) return failure(invalidParams(call.id, 'params.arguments must be an object'));

  const verdict = tool.input.validate(args);
  if (!verdict.ok) return result(toolError(`Invalid arguments: ${verdict.message}`));
  const mode = taskMode(call, tool.taskSupport);
  if (mode === 'task') return await createTask(call, tool.definition.name, args, invokeTool);
  if (mode !== 'sync') return mode;
  return await invokeTool(call, args);
}

/**
 * The tasks extension decides per request (SEP-2663: server-directed): a tool that supports
 * tasks runs as one when this 2026-07-28 request declared the extension, else synchronously; a
 * tool that requires tasks is refused -32021 without it. 2025-11-25 has its own, different tasks
 * design, which Palisade does not implement, and the older handshake revisions none: there a tool
 * requiring tasks is -32601, as 2025-11-25 answers a required-task tool called without task
 * augmentation.
 */
function taskMode(call: Call, support: TaskSupport): 'sync' | 'task' | Outcome {
  if (support === 'forbidden') return 'sync';
  if (profileOf(call.revision).era === 'handshake')
    return support === 'required' ? failure(methodNotFound(call.id)) : 'sync';
  if (declaresTasks(call.ctx.clientCapabilities)) return 'task';
  return support === 'required' ? lacksTasks(call) : 'sync';
}

/** Runs the tool's handler on arguments already validated; `call.params.name` names the tool. */
export async function invokeTool(call: Call, args: JsonObject): Promise<Outcome> {
  const tool = call.server.catalog.tools?.get(call.params['name'] as string);
  if (tool === undefined) throw new HostFault('a task names a tool this server does not have');
  let value: unknown;
  try {
    if (dispatchTraced()) {
      const event = {
        server: call.server.info.name,
        tool: tool.definition.name,
        revision: call.revision,
        traceContext: call.ctx.traceContext,
      };
      // A ToolError becomes its result inside the traced run, so subscribers see `tool-error`.
      const handler = async (): Promise<unknown> => {
        try {
          return await tool.definition.handler(args as never, call.ctx);
        } catch (error) {
          if (error instanceof ToolError) return toolErrorResult(error);
          throw error;
        }
      };
      value = await traceDispatch(event, handler, toolOutcome);
    } else {
      value = await tool.definition.handler(args as never, call.ctx);
      // Read as the traced path reads it: a getter that throws here is the handler's fault.
      toolOutcome(value);
    }
  } catch (error) {
    if (!(error instanceof ToolError))
      throw new HostFault(`tool ${JSON.stringify(tool.definition.name)} handler threw`, error);
    value = readableError(tool.definition.name, error);
  }
  if (isInputRequired(value)) return askedForInput(inputRequiredValue(value));
  return result(toolResult(call, tool.definition.name, tool.output, tool.outputIsObject, value));
}

/** The tool result a thrown ToolError becomes; one whose message is not a string is a host fault. */
function readableError(name: string, error: ToolError): JsonObject {
  try {
    return toolErrorResult(error);
  } catch (cause) {
    throw new HostFault(
      `tool ${JSON.stringify(name)} threw a ToolError whose message is not a string`,
      cause,
    );
  }
}

/** A tool result's outcome on the dispatch channel. */
function toolOutcome(value: unknown): DispatchOutcome {
  return isPlainObject(value) && value['isError'] === true ? 'tool-error' : 'ok';
}

function toolResult(
  call: Call,
  name: string,
  output: { validate(value: unknown): { ok: true } | { ok: false; message: string } } | undefined,
  outputIsObject: boolean,
  value: unknown,
): JsonObject {
  const where = `tool ${JSON.stringify(name)} result`;
  if (!isPlainObject(value)) throw new HostFault(`${where} must be a plain object`);
  const hostResult = value as ToolResult & JsonObject;
  const profile = profileOf(call.revision);
  const content = contentBlocks(hostResult.content, `${where}.content`);
  const isError = hostResult.isError;
  if (isError !== undefined && typeof isError !== 'boolean')
    throw new HostFault(`${where}.isError must be a boolean`);
  const hasStructured =
    Object.hasOwn(hostResult, 'structuredContent') && hostResult.structuredContent !== undefined;
  if (output !== undefined && isError !== true) {
    // A tool that declares an outputSchema must return conforming structured content (the spec, every
    // revision that has one); the host's contract does not change with the revision it is served under.
    if (!hasStructured)
      throw new HostFault(`${where} has no structuredContent, but the tool declares an outputSchema`);
    const verdict = output.validate(hostResult.structuredContent);
    if (!verdict.ok)
      throw new HostFault(`${where}.structuredContent fails the tool's outputSchema: ${verdict.message}`);
  }
  const out: JsonObject = { content };
  if (hasStructured) {
    const structured = hostResult.structuredContent;
    // For clients that read only text, the JSON goes in a text block too, unless the host already put it there.
    let serialized: string | undefined;
    try {
      serialized = JSON.stringify(structured);
    } catch (error) {
      throw new HostFault(`${where}.structuredContent cannot be serialized`, error);
    }
    if (
      serialized !== undefined &&
      !content.some((block) => block['type'] === 'text' && block['text'] === serialized)
    ) {
      content.push({ type: 'text', text: serialized });
    }
    // Where the revision allows only an object, or no structuredContent at all, anything else
    // stays in the text block alone.
    if (
      profile.structuredContent === 'any' ||
      (profile.structuredContent === 'object' && outputIsObject && isPlainObject(structured))
    ) {
      out['structuredContent'] = structured;
    }
  }
  out['content'] = shapeContentBlocks(profile, content);
  if (isError !== undefined) out['isError'] = isError;
  if (hostResult._meta !== undefined) {
    if (!isPlainObject(hostResult._meta)) throw new HostFault(`${where}._meta must be a plain object`);
    out['_meta'] = hostResult._meta;
  }
  return out;
}
