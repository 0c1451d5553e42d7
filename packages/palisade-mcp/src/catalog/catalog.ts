/**
 * The catalog, checked and compiled once at construction. Every defect throws naming the item
 * and the rule, so a host learns at start-up, not from a client. Each list is kept sorted by its
 * key (the order cursors page through), and every lookup is a `Map`, so a client naming
 * `toString`, `__proto__` or `constructor` resolves to nothing.
 */
import { PalisadeError } from '../errors.js';
import { MAX_TOOL_NAME_CHARS } from '../limits.js';
import {
  isPlainObject,
  optionalString,
  refuseUnknownKeys,
  requireArray,
  requireFunction,
  requireObject,
  requireString,
} from '../options.js';
import { quoted } from '../quote.js';
import { encodeMessage } from '../wire/encode.js';
import { requiredCapabilities } from './client-capabilities.js';
import { compareKeys } from './cursor.js';
import { type McpHeaderField, mcpHeaderFields } from './mcp-header-annotations.js';
import { type CompiledSchema, createSchemaCompiler, outputRootIsObject } from './schema.js';
import { jsonSchemaOf } from './standard-schema.js';
import type {
  Completer,
  JsonObject,
  PromptArgumentDefinition,
  PromptDefinition,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ServerDefinition,
  TaskSupport,
  ToolDefinition,
} from './types.js';
import { parseUriTemplate, type UriTemplate } from './uri-template.js';

export interface CompiledTool {
  readonly definition: ToolDefinition;
  readonly input: CompiledSchema;
  readonly output: CompiledSchema | undefined;
  /**
   * Whether the output schema's root is an object (or there is none): the handshake revisions
   * that define `outputSchema` allow only such a root, and only an object `structuredContent`.
   */
  readonly outputIsObject: boolean;
  /** `Mcp-Param-*` headers a 2026-07-28 HTTP request for this tool must mirror. */
  readonly headerFields: readonly McpHeaderField[];
  /** Every member the host declared; each revision's listing is shaped from it (protocol/revisions). */
  readonly listing: JsonObject;
  /** Client capabilities a call needs (-32021 when lacked); undefined: none. */
  readonly requiredCapabilities: JsonObject | undefined;
  /** Whether a call runs as a task (tasks extension); never listed, as SEP-2663 task creation is server-directed. */
  readonly taskSupport: TaskSupport;
}

export interface CompiledTemplate {
  readonly definition: ResourceTemplateDefinition;
  readonly template: UriTemplate;
  readonly listing: JsonObject;
  readonly requiredCapabilities: JsonObject | undefined;
}

export interface CompiledResource {
  readonly definition: ResourceDefinition;
  readonly listing: JsonObject;
  readonly requiredCapabilities: JsonObject | undefined;
}

export interface CompiledPrompt {
  readonly definition: PromptDefinition;
  readonly arguments: ReadonlyMap<string, PromptArgumentDefinition>;
  readonly listing: JsonObject;
  readonly requiredCapabilities: JsonObject | undefined;
}

export interface Catalog {
  readonly tools: ReadonlyMap<string, CompiledTool> | undefined;
  readonly toolList: readonly CompiledTool[];
  readonly resources: ReadonlyMap<string, CompiledResource> | undefined;
  readonly resourceList: readonly CompiledResource[];
  /** In declaration order: the first template that matches a URI serves it. */
  readonly templates: readonly CompiledTemplate[];
  readonly templateList: readonly CompiledTemplate[];
  readonly templatesByUri: ReadonlyMap<string, CompiledTemplate>;
  readonly prompts: ReadonlyMap<string, CompiledPrompt> | undefined;
  readonly promptList: readonly CompiledPrompt[];
  readonly completions: boolean;
}

const TOOL_NAME = new RegExp(`^[A-Za-z0-9_.-]{1,${MAX_TOOL_NAME_CHARS}}$`);

/** Per item kind: the descriptive fields copied into its listing, and every key a definition may hold. */
const TOOL_DESCRIPTION = ['title', 'description', 'annotations', 'icons', '_meta'] as const;
const TOOL_KEYS = [
  'name',
  'inputSchema',
  'outputSchema',
  'handler',
  'requiredClientCapabilities',
  'execution',
  ...TOOL_DESCRIPTION,
] as const;

const TASK_SUPPORT: readonly TaskSupport[] = ['forbidden', 'optional', 'required'];

/** `execution.taskSupport`, the name 2025-11-25 gave the same declaration; default `forbidden`. */
function taskSupport(value: unknown, path: string): TaskSupport {
  if (value === undefined) return 'forbidden';
  const execution = requireObject(value, path);
  refuseUnknownKeys(execution, ['taskSupport'], path);
  const support = execution['taskSupport'];
  if (support === undefined) return 'forbidden';
  if (!(TASK_SUPPORT as readonly unknown[]).includes(support))
    throw catalogError(`${path}.taskSupport must be one of ${TASK_SUPPORT.join(', ')}`);
  return support as TaskSupport;
}
const RESOURCE_DESCRIPTION = [
  'title',
  'description',
  'mimeType',
  'size',
  'annotations',
  'icons',
  '_meta',
] as const;
const RESOURCE_KEYS = ['uri', 'name', 'read', 'requiredClientCapabilities', ...RESOURCE_DESCRIPTION] as const;
const TEMPLATE_DESCRIPTION = ['title', 'description', 'mimeType', 'annotations', 'icons', '_meta'] as const;
const TEMPLATE_KEYS = [
  'uriTemplate',
  'name',
  'read',
  'complete',
  'requiredClientCapabilities',
  ...TEMPLATE_DESCRIPTION,
] as const;
const PROMPT_DESCRIPTION = ['title', 'description', 'icons', '_meta'] as const;
const PROMPT_KEYS = [
  'name',
  'arguments',
  'get',
  'requiredClientCapabilities',
  ...PROMPT_DESCRIPTION,
] as const;
const PROMPT_ARGUMENT_DESCRIPTION = ['title', 'description'] as const;
const PROMPT_ARGUMENT_KEYS = ['name', 'required', 'complete', ...PROMPT_ARGUMENT_DESCRIPTION] as const;

function catalogError(message: string): PalisadeError {
  return new PalisadeError('PALISADE_ERR_CATALOG_INVALID', message);
}

function duplicate(what: string, key: string): PalisadeError {
  return new PalisadeError(
    'PALISADE_ERR_CATALOG_DUPLICATE',
    `${what} ${JSON.stringify(key)} is declared twice`,
  );
}

/** Copies the optional descriptive fields a definition shares with its listing, checking each one's type. */
function describe(source: Record<string, unknown>, path: string, keys: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const key of keys) {
    const value = source[key];
    if (value === undefined) continue;
    switch (key) {
      case 'title':
      case 'description':
      case 'mimeType':
        out[key] = optionalString(value, `${path}.${key}`);
        break;
      case 'size':
        if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
          throw catalogError(`${path}.size must be a non-negative integer`);
        }
        out[key] = value;
        break;
      case 'annotations':
      case '_meta':
        out[key] = plainCopy(requireObject(value, `${path}.${key}`), `${path}.${key}`);
        break;
      case 'icons':
        out[key] = requireArray(value, `${path}.icons`).map((icon, index) => {
          const checked = requireObject(icon, `${path}.icons[${index}]`);
          requireString(checked['src'], `${path}.icons[${index}].src`);
          return plainCopy(checked, `${path}.icons[${index}]`);
        });
        break;
      default:
        out[key] = value;
    }
  }
  return out;
}

type SchemaCompiler = ReturnType<typeof createSchemaCompiler>;

/**
 * A copy the host cannot change later, checked to be JSON the listing can carry: a BigInt, a
 * function, a cycle or a non-finite number here would otherwise fail every list request.
 */
function plainCopy(value: Record<string, unknown>, path: string): JsonObject {
  if (!encodeMessage(value).ok) throw catalogError(`${path} must be plain JSON data`);
  return JSON.parse(JSON.stringify(value)) as JsonObject;
}

/** Why a tool name is refused, naming the tool by the name given (quoted, cut, escaped) and what is wrong with it. */
function badToolName(name: string, path: string): string {
  const rule = `a tool name is 1 to ${MAX_TOOL_NAME_CHARS} characters of A-Z a-z 0-9 _ . -`;
  const tool = `tool ${quoted(name, MAX_TOOL_NAME_CHARS)} (${path})`;
  if (name.length > MAX_TOOL_NAME_CHARS)
    return `${tool}: its name is ${name.length} characters long; ${rule}`;
  const index = name.search(/[^A-Za-z0-9_.-]/);
  const char = String.fromCodePoint(name.codePointAt(index) ?? 0);
  return `${tool}: its name holds ${quoted(char, 2)} at index ${index}; ${rule}`;
}

function compileTool(compileSchema: SchemaCompiler, raw: unknown, index: number): CompiledTool {
  const path = `tools[${index}]`;
  const tool = requireObject(raw, path);
  refuseUnknownKeys(tool, TOOL_KEYS, path);
  const name = requireString(tool['name'], `${path}.name`);
  if (!TOOL_NAME.test(name)) throw catalogError(badToolName(name, path));
  requireFunction(tool['handler'], `${path}.handler`);
  const where = `tool ${JSON.stringify(name)}`;
  // A Standard Schema becomes its JSON Schema here, once; from then on it is one like any other.
  const inputWhere = `${where} inputSchema`;
  const input = compileSchema(jsonSchemaOf(tool['inputSchema'], inputWhere), inputWhere, 'input');
  const outputWhere = `${where} outputSchema`;
  const output =
    tool['outputSchema'] === undefined
      ? undefined
      : compileSchema(jsonSchemaOf(tool['outputSchema'], outputWhere), outputWhere, 'output');
  const outputIsObject = output === undefined || outputRootIsObject(output.json);
  const headerFields = mcpHeaderFields(input.json, `${where} inputSchema`);
  const described = describe(tool, path, TOOL_DESCRIPTION);
  const common: JsonObject = { name, ...described, inputSchema: input.json };
  const listing: JsonObject = output === undefined ? common : { ...common, outputSchema: output.json };
  return {
    definition: tool as unknown as ToolDefinition,
    input,
    output,
    outputIsObject,
    headerFields,
    listing: deepFreeze(listing),
    requiredCapabilities: requiredCapabilities(
      tool['requiredClientCapabilities'],
      `${path}.requiredClientCapabilities`,
    ),
    taskSupport: taskSupport(tool['execution'], `${path}.execution`),
  };
}

function requireUri(value: unknown, path: string): string {
  const uri = requireString(value, path);
  if (!URL.canParse(uri)) throw catalogError(`${path} is not an absolute URI`);
  return uri;
}

function compileResource(raw: unknown, index: number): CompiledResource {
  const path = `resources[${index}]`;
  const resource = requireObject(raw, path);
  refuseUnknownKeys(resource, RESOURCE_KEYS, path);
  const uri = requireUri(resource['uri'], `${path}.uri`);
  const name = requireString(resource['name'], `${path}.name`);
  requireFunction(resource['read'], `${path}.read`);
  const described = describe(resource, path, RESOURCE_DESCRIPTION);
  return {
    definition: resource as unknown as ResourceDefinition,
    listing: deepFreeze({ uri, name, ...described }),
    requiredCapabilities: requiredCapabilities(
      resource['requiredClientCapabilities'],
      `${path}.requiredClientCapabilities`,
    ),
  };
}

function compileTemplate(raw: unknown, index: number): CompiledTemplate {
  const path = `resourceTemplates[${index}]`;
  const definition = requireObject(raw, path);
  refuseUnknownKeys(definition, TEMPLATE_KEYS, path);
  const source = requireString(definition['uriTemplate'], `${path}.uriTemplate`);
  const template = parseUriTemplate(source);
  const name = requireString(definition['name'], `${path}.name`);
  requireFunction(definition['read'], `${path}.read`);
  if (definition['complete'] !== undefined) {
    const complete = requireObject(definition['complete'], `${path}.complete`);
    const variables = new Set(template.variables.map((variable) => variable.name));
    for (const [variable, completer] of Object.entries(complete)) {
      if (!variables.has(variable)) {
        throw catalogError(
          `${path}.complete names ${JSON.stringify(variable)}, which is not a variable of its template`,
        );
      }
      requireFunction<Completer>(completer, `${path}.complete.${variable}`);
    }
  }
  const described = describe(definition, path, TEMPLATE_DESCRIPTION);
  return {
    definition: definition as unknown as ResourceTemplateDefinition,
    template,
    listing: deepFreeze({ uriTemplate: source, name, ...described }),
    requiredCapabilities: requiredCapabilities(
      definition['requiredClientCapabilities'],
      `${path}.requiredClientCapabilities`,
    ),
  };
}

function compilePrompt(raw: unknown, index: number): CompiledPrompt {
  const path = `prompts[${index}]`;
  const prompt = requireObject(raw, path);
  refuseUnknownKeys(prompt, PROMPT_KEYS, path);
  const name = requireString(prompt['name'], `${path}.name`);
  requireFunction(prompt['get'], `${path}.get`);
  const argumentsByName = new Map<string, PromptArgumentDefinition>();
  const listedArguments: JsonObject[] = [];
  const declared =
    prompt['arguments'] === undefined ? [] : requireArray(prompt['arguments'], `${path}.arguments`);
  declared.forEach((rawArgument, argumentIndex) => {
    const argumentPath = `${path}.arguments[${argumentIndex}]`;
    const argument = requireObject(rawArgument, argumentPath);
    refuseUnknownKeys(argument, PROMPT_ARGUMENT_KEYS, argumentPath);
    const argumentName = requireString(argument['name'], `${argumentPath}.name`);
    if (argumentsByName.has(argumentName))
      throw duplicate(`argument of prompt ${JSON.stringify(name)}`, argumentName);
    if (argument['required'] !== undefined && typeof argument['required'] !== 'boolean') {
      throw catalogError(`${argumentPath}.required must be a boolean`);
    }
    if (argument['complete'] !== undefined) requireFunction(argument['complete'], `${argumentPath}.complete`);
    argumentsByName.set(argumentName, argument as unknown as PromptArgumentDefinition);
    const listed: JsonObject = {
      name: argumentName,
      ...describe(argument, argumentPath, PROMPT_ARGUMENT_DESCRIPTION),
    };
    if (argument['required'] !== undefined) listed['required'] = argument['required'];
    listedArguments.push(listed);
  });
  const described = describe(prompt, path, PROMPT_DESCRIPTION);
  const listing: JsonObject = { name, ...described };
  if (prompt['arguments'] !== undefined) listing['arguments'] = listedArguments;
  return {
    definition: prompt as unknown as PromptDefinition,
    arguments: argumentsByName,
    listing: deepFreeze(listing),
    requiredCapabilities: requiredCapabilities(
      prompt['requiredClientCapabilities'],
      `${path}.requiredClientCapabilities`,
    ),
  };
}

function indexBy<T>(items: readonly T[], keyOf: (item: T) => string, what: string): Map<string, T> {
  const map = new Map<string, T>();
  for (const item of items) {
    const key = keyOf(item);
    if (map.has(key)) throw duplicate(what, key);
    map.set(key, item);
  }
  return map;
}

function sortedBy<T>(items: readonly T[], keyOf: (item: T) => string): readonly T[] {
  return Object.freeze([...items].sort((a, b) => compareKeys(keyOf(a), keyOf(b))));
}

export function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (typeof next === 'object' && next !== null && !Object.isFrozen(next)) {
      Object.freeze(next);
      for (const child of Object.values(next)) stack.push(child);
    }
  }
  return value;
}

export function buildCatalog(definition: ServerDefinition): Catalog {
  const source = definition as unknown as Record<string, unknown>;
  const list = (key: string): readonly unknown[] | undefined =>
    source[key] === undefined ? undefined : requireArray(source[key], key);

  const rawTools = list('tools');
  const compileSchema = createSchemaCompiler();
  const tools = rawTools?.map((tool, index) => compileTool(compileSchema, tool, index));
  const rawResources = list('resources');
  const resources = rawResources?.map(compileResource);
  const rawTemplates = list('resourceTemplates');
  const templates = rawTemplates?.map(compileTemplate) ?? [];
  const rawPrompts = list('prompts');
  const prompts = rawPrompts?.map(compilePrompt);

  const toolMap = tools && indexBy(tools, (tool) => tool.definition.name, 'tool');
  const resourceMap = resources && indexBy(resources, (resource) => resource.definition.uri, 'resource URI');
  const templatesByUri = indexBy(templates, (template) => template.template.source, 'resource template');
  const promptMap = prompts && indexBy(prompts, (prompt) => prompt.definition.name, 'prompt');

  const completions =
    templates.some((template) => template.definition.complete !== undefined) ||
    (prompts ?? []).some((prompt) =>
      [...prompt.arguments.values()].some((argument) => argument.complete !== undefined),
    );

  // A catalog that declares resource templates but no `resources` list still serves resources.
  const hasResources = resources !== undefined || rawTemplates !== undefined;
  return Object.freeze({
    tools: toolMap,
    toolList: sortedBy(tools ?? [], (tool) => tool.definition.name),
    resources: hasResources ? (resourceMap ?? new Map()) : undefined,
    resourceList: sortedBy(resources ?? [], (resource) => resource.definition.uri),
    templates: Object.freeze(templates),
    templateList: sortedBy(templates, (template) => template.template.source),
    templatesByUri,
    prompts: promptMap,
    promptList: sortedBy(prompts ?? [], (prompt) => prompt.definition.name),
    completions,
  });
}

export function isJsonObject(value: unknown): value is JsonObject {
  return isPlainObject(value);
}
