/**
 * Validates what a server sends against a revision's schema, closed. The published schemas leave
 * almost every object open (none says `additionalProperties: false`), so a message carrying a
 * member its revision never defined (a `title` on a 2025-03-26 tool, `structuredContent` on a
 * 2025-03-26 result) validates against them as published. Closed, it does not: every object that
 * names its `properties` and says nothing of others gets `additionalProperties: false`.
 *
 * Left open, on purpose:
 * - what the schema itself leaves open by saying so (`additionalProperties: {}` or a schema: `_meta`,
 *   `experimental`, `structuredContent`, the base `Result`);
 * - `Tool.inputSchema` and `Tool.outputSchema`: they are JSON Schema documents, whose keywords are
 *   the tool's, not the protocol's (the schema types only the root members it requires);
 * - members of an `allOf` (2025-11-25, 2026-07-28 error codes): each names only its own part.
 *
 * Which definition a message is held to follows what the message is: a response to the result
 * of the method it answers (`tools/call` → `CallToolResult`), an empty result to `Result` closed,
 * an error to the definition its code belongs to, a notification to `JSONRPCNotification` and to
 * the definition of its method (without `jsonrpc` where, up to 2025-06-18, that leaves it to the
 * envelope).
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { definitions, type SchemaNode, type SchemaRevision, schemaDocument } from './spec-schemas.js';

type Mutable = { [key: string]: unknown };

/** Paths (definition, then member names) whose subtree is a JSON Schema document, not protocol. */
const DOCUMENTS = ['Tool/properties/inputSchema', 'Tool/properties/outputSchema'];

function close(node: unknown, path: string, inAllOf: boolean): void {
  if (Array.isArray(node)) {
    for (const item of node) close(item, path, inAllOf);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  if (DOCUMENTS.some((document) => path.endsWith(document))) return;
  const object = node as Mutable;
  if (
    !inAllOf &&
    typeof object['properties'] === 'object' &&
    object['additionalProperties'] === undefined &&
    object['$ref'] === undefined
  ) {
    object['additionalProperties'] = false;
  }
  for (const [key, value] of Object.entries(object)) {
    if (key === 'allOf') {
      for (const member of value as unknown[]) close(member, `${path}/allOf`, true);
    } else if (key === 'properties' || key === '$defs' || key === 'definitions') {
      for (const [name, child] of Object.entries(value as Mutable))
        close(child, `${path}/${key}/${name}`, false);
    } else {
      close(value, `${path}/${key}`, false);
    }
  }
}

interface Closed {
  readonly revision: SchemaRevision;
  readonly validator: (name: string) => ValidateFunction;
}

const closedByRevision = new Map<SchemaRevision, Closed>();

function closed(revision: SchemaRevision): Closed {
  const cached = closedByRevision.get(revision);
  if (cached !== undefined) return cached;
  const document = structuredClone(schemaDocument(revision)) as Mutable;
  const key = '$defs' in document ? '$defs' : 'definitions';
  for (const [name, node] of Object.entries(document[key] as Mutable)) close(node, name, false);
  // An empty result: `Result` as the schema defines it, closed (the published one is open on purpose).
  const result = structuredClone((document[key] as Record<string, Mutable>)['Result']) as Mutable;
  result['additionalProperties'] = false;
  (document[key] as Mutable)['PalisadeClosedEmptyResult'] = result;
  const options = { strict: false, allErrors: true };
  const ajv = key === '$defs' ? new Ajv2020(options) : new Ajv(options);
  addFormats.default(ajv);
  const id = `mcp://${revision}/schema.json`;
  ajv.addSchema({ ...document, $id: id });
  const compiled = new Map<string, ValidateFunction>();
  const entry: Closed = {
    revision,
    validator: (name) => {
      let validate = compiled.get(name);
      if (validate === undefined) {
        validate = ajv.compile({ $ref: `${id}#/${key}/${name}` });
        compiled.set(name, validate);
      }
      return validate;
    },
  };
  closedByRevision.set(revision, entry);
  return entry;
}

/** The result definition of each method a client sends; an empty result is held to `Result`, closed. */
const RESULTS: Readonly<Record<string, string>> = {
  initialize: 'InitializeResult',
  ping: 'PalisadeClosedEmptyResult',
  'logging/setLevel': 'PalisadeClosedEmptyResult',
  'resources/subscribe': 'PalisadeClosedEmptyResult',
  'resources/unsubscribe': 'PalisadeClosedEmptyResult',
  'server/discover': 'DiscoverResult',
  'tools/list': 'ListToolsResult',
  'tools/call': 'CallToolResult',
  'resources/list': 'ListResourcesResult',
  'resources/templates/list': 'ListResourceTemplatesResult',
  'resources/read': 'ReadResourceResult',
  'prompts/list': 'ListPromptsResult',
  'prompts/get': 'GetPromptResult',
  'completion/complete': 'CompleteResult',
};

function firstDefined(revision: SchemaRevision, ...names: string[]): string {
  const defs = definitions(revision);
  const found = names.find((name) => defs[name] !== undefined);
  if (found === undefined) throw new Error(`${revision} defines none of ${names.join(', ')}`);
  return found;
}

/** The definition whose `error.code` is the constant `code` (2026-07-28 names some), if any. */
function errorDefinition(revision: SchemaRevision, code: unknown): string | undefined {
  for (const [name, node] of Object.entries(definitions(revision))) {
    const error = (node['properties'] as Record<string, SchemaNode> | undefined)?.['error'];
    const parts = (error?.['allOf'] as SchemaNode[] | undefined) ?? [];
    for (const part of parts) {
      const constant = (
        (part['properties'] as Record<string, SchemaNode> | undefined)?.['code'] as SchemaNode | undefined
      )?.['const'];
      if (constant === code) return name;
    }
  }
  return undefined;
}

/** The definition of the notification `method`, found by its `method` constant. */
function notificationDefinition(revision: SchemaRevision, method: string): string | undefined {
  for (const [name, node] of Object.entries(definitions(revision))) {
    const constant = (
      (node['properties'] as Record<string, SchemaNode> | undefined)?.['method'] as SchemaNode | undefined
    )?.['const'];
    if (constant === method && name.endsWith('Notification')) return name;
  }
  return undefined;
}

function errorsOf(validate: ValidateFunction, where: string): string[] {
  return (validate.errors ?? []).map((error) => {
    const extra =
      error.keyword === 'additionalProperties'
        ? ` (${(error.params as { additionalProperty: string }).additionalProperty})`
        : '';
    return `${where}${error.instancePath} ${error.message ?? 'is invalid'}${extra}`;
  });
}

/**
 * What is wrong with `message` under `revision`, closed: [] when nothing. `method` is the method
 * of the request a response answers (unknown for a notification, which names its own).
 */
export function closedViolations(revision: SchemaRevision, message: unknown, method?: string): string[] {
  const { validator } = closed(revision);
  const check = (name: string, value: unknown, where: string): string[] => {
    const validate = validator(name);
    return validate(value) ? [] : errorsOf(validate, `${where} (${name})`);
  };
  if (typeof message !== 'object' || message === null || Array.isArray(message))
    return ['not a JSON-RPC object'];
  const object = message as Mutable;
  if (typeof object['method'] === 'string') {
    const name = notificationDefinition(revision, object['method']);
    if (name === undefined) return [`${object['method']} is no notification ${revision} defines`];
    // Up to 2025-06-18 a notification's own definition leaves `jsonrpc` to the envelope.
    const body: Mutable = { ...object };
    delete body['jsonrpc'];
    const own = definitions(revision)[name]?.['properties'] as Mutable | undefined;
    const envelope = check('JSONRPCNotification', message, `${object['method']} envelope`);
    return [...envelope, ...check(name, own?.['jsonrpc'] === undefined ? body : message, object['method'])];
  }
  if (object['error'] !== undefined) {
    const name =
      errorDefinition(revision, (object['error'] as Mutable)['code']) ??
      firstDefined(revision, 'JSONRPCErrorResponse', 'JSONRPCError');
    return check(name, message, `error to ${method ?? 'an unknown request'}`);
  }
  const envelope = check(
    firstDefined(revision, 'JSONRPCResultResponse', 'JSONRPCResponse'),
    message,
    'response',
  );
  const resultName = method === undefined ? undefined : RESULTS[method];
  if (resultName === undefined) return [...envelope, `no result definition is known for ${method}`];
  return [...envelope, ...check(resultName, object['result'], `result of ${method}`)];
}
