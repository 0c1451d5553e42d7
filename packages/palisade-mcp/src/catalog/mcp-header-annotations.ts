/**
 * `x-mcp-header` (MCP 2026-07-28, SEP-2243): a property of a tool's inputSchema may be mirrored
 * into an `Mcp-Param-{Name}` HTTP header. Clients drop a tool whose annotations break the
 * spec's rules, so Palisade refuses it at construction instead (spec-notes item 18):
 * - the annotation sits on a property schema reached from the root through `properties` keys
 *   alone: not the root, and nothing under `items`, `anyOf`/`oneOf`/`allOf`/`not`,
 *   `if`/`then`/`else`, `$defs` (so not through `$ref`), `patternProperties` or
 *   `additionalProperties`;
 * - its value is a non-empty RFC 9110 token (`1*tchar`), unique within the tool compared
 *   case-insensitively;
 * - the property's `type` is exactly `"string"`, `"integer"` or `"boolean"`.
 * An outputSchema carries no headers, so the annotation is refused there. The headers a request
 * must carry are derived from here, never from the request.
 */
import { PalisadeError } from '../errors.js';
import type { CompiledSchema } from './schema.js';
import { copySchemaData } from './schema-bounds.js';
import { forEachSubschema, formatPointer, type SubschemaVisit } from './schema-walk.js';

export interface McpHeaderField {
  /** The `{Name}` of `Mcp-Param-{Name}`, as the schema declares it. */
  readonly header: string;
  /** Property names from the root, through `properties` only. */
  readonly path: readonly string[];
  readonly type: 'string' | 'integer' | 'boolean';
}

const ANNOTATION = 'x-mcp-header';
/** RFC 9110 §5.6.2: `token = 1*tchar`, tchar being ALPHA, DIGIT and ``!#$%&'*+-.^_`|~``. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_TYPES: ReadonlySet<unknown> = new Set(['string', 'integer', 'boolean']);

/** Fields by advertised schema (and by compiled schema): both are frozen, so they never go stale. */
const fieldsBySchema = new WeakMap<object, readonly McpHeaderField[]>();

function refuse(where: string, node: SubschemaVisit, rule: string): PalisadeError {
  const path = node.propertyPath;
  const property =
    path === null || path.length === 0
      ? ''
      : ` (property ${path.map((name) => JSON.stringify(name)).join('.')})`;
  return new PalisadeError(
    'PALISADE_ERR_SCHEMA_INVALID',
    `${where}: x-mcp-header at ${formatPointer(node.pointer)}${property} ${rule}`,
  );
}

/**
 * Checks every `x-mcp-header` annotation of `json` and returns the fields they declare. For an
 * outputSchema (`role` 'output') any annotation is refused and the list is empty.
 */
export function readMcpHeaderFields(
  json: Readonly<Record<string, unknown>>,
  where: string,
  role: 'input' | 'output',
): readonly McpHeaderField[] {
  const fields: McpHeaderField[] = [];
  const seen = new Map<string, string>();
  forEachSubschema(json, (node) => {
    if (!Object.hasOwn(node.schema, ANNOTATION)) return;
    if (role === 'output') throw refuse(where, node, 'is refused: headers mirror arguments, not results');
    const path = node.propertyPath;
    if (path === null || path.length === 0) {
      throw refuse(where, node, 'is not on a property reached from the root through properties alone');
    }
    const header = node.schema[ANNOTATION];
    if (typeof header !== 'string' || header === '') throw refuse(where, node, 'must be a non-empty string');
    if (!TOKEN.test(header)) {
      throw refuse(where, node, `names ${JSON.stringify(header)}, which is not an RFC 9110 token`);
    }
    const type = node.schema['type'];
    if (!HEADER_TYPES.has(type)) {
      throw refuse(
        where,
        node,
        'must annotate a property whose type is exactly "string", "integer" or "boolean"',
      );
    }
    const folded = header.toLowerCase();
    const earlier = seen.get(folded);
    if (earlier !== undefined) {
      throw refuse(
        where,
        node,
        `names ${JSON.stringify(header)}, already used as ${JSON.stringify(earlier)}`,
      );
    }
    seen.set(folded, header);
    fields.push(
      Object.freeze({ header, path: Object.freeze([...path]), type: type as McpHeaderField['type'] }),
    );
  });
  const frozen = Object.freeze(fields);
  fieldsBySchema.set(json, frozen);
  return frozen;
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
