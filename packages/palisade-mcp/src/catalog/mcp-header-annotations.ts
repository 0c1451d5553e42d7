/**
 * `x-mcp-header` at construction: a tool whose annotations break the rule (wire/mcp-header-fields.ts,
 * read the same way by a client) is refused here, naming where and why, so no client has to drop
 * it. The headers a request must carry are derived from here, never from the request.
 */
import { PalisadeError } from '../errors.js';
import { type McpHeaderField, readMcpHeaderFields as readFields } from '../wire/mcp-header-fields.js';
import type { CompiledSchema } from './compiled-schema.js';
import { copySchemaData } from './schema-bounds.js';

export type { McpHeaderField } from '../wire/mcp-header-fields.js';

/** Fields by advertised schema (and by compiled schema): both are frozen, so they never go stale. */
const fieldsBySchema = new WeakMap<object, readonly McpHeaderField[]>();

/**
 * Checks every `x-mcp-header` annotation of `json` and returns the fields they declare. For an
 * outputSchema (`role` 'output') any annotation is refused and the list is empty.
 */
export function readMcpHeaderFields(
  json: Readonly<Record<string, unknown>>,
  where: string,
  role: 'input' | 'output',
): readonly McpHeaderField[] {
  const read = readFields(json, role);
  if (!read.ok)
    throw new PalisadeError(
      'PALISADE_ERR_SCHEMA_INVALID',
      `${where}: x-mcp-header at ${read.at} ${read.rule}`,
    );
  fieldsBySchema.set(json, read.fields);
  return read.fields;
}

/** Records the fields of a compiled schema under the compiled object too. */
export function rememberMcpHeaderFields(compiled: CompiledSchema, fields: readonly McpHeaderField[]): void {
  fieldsBySchema.set(compiled, fields);
}

/**
 * The `Mcp-Param-*` fields a tool declares, from its compiled inputSchema or from that schema's
 * advertised `json`. Any other object is copied within the schema bounds and checked on the
 * spot, with `where` naming it in a refusal.
 */
export function mcpHeaderFields(
  schema: CompiledSchema | Readonly<Record<string, unknown>>,
  where = 'inputSchema',
): readonly McpHeaderField[] {
  return fieldsBySchema.get(schema) ?? readMcpHeaderFields(copySchemaData(schema, where), where, 'input');
}
