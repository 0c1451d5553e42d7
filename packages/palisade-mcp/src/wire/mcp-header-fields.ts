/**
 * `x-mcp-header` (MCP 2026-07-28, SEP-2243): a property of a tool's inputSchema may be mirrored
 * into an `Mcp-Param-{Name}` HTTP header. The rule is read the same way on both sides: a server
 * refuses to register a tool that breaks it (catalog/mcp-header-annotations.ts), and a client
 * drops such a tool from a `tools/list` answer, as the spec tells it to. An annotation is valid
 * when:
 * - it sits on a property schema reached from the root through `properties` keys alone: not the
 *   root, and nothing under `items`, `anyOf`/`oneOf`/`allOf`/`not`, `if`/`then`/`else`, `$defs`
 *   (so not through `$ref`), `patternProperties` or `additionalProperties`;
 * - its value is a non-empty RFC 9110 token (`1*tchar`), unique within the tool compared
 *   case-insensitively;
 * - the property's `type` is exactly `"string"`, `"integer"` or `"boolean"`.
 * An outputSchema carries no headers, so any annotation there is refused. Pure, and it never
 * throws: the answer is the fields, or where and why the schema is refused.
 */
import { isPlainObject } from './plain-object.js';
import { forEachSubschema, formatPointer, type SubschemaVisit } from './schema-walk.js';

export interface McpHeaderField {
  /** The `{Name}` of `Mcp-Param-{Name}`, as the schema declares it. */
  readonly header: string;
  /** Property names from the root, through `properties` only. */
  readonly path: readonly string[];
  readonly type: 'string' | 'integer' | 'boolean';
}

export type McpHeaderFields =
  | { readonly ok: true; readonly fields: readonly McpHeaderField[] }
  | {
      readonly ok: false;
      /** Where: a JSON Pointer fragment, and the property path when there is one (`#/properties/a (property "a")`). */
      readonly at: string;
      /** What is wrong, worded from the rule, never from the schema's text beyond a JSON-quoted header name. */
      readonly rule: string;
    };

const ANNOTATION = 'x-mcp-header';
/** RFC 9110 §5.6.2: `token = 1*tchar`, tchar being ALPHA, DIGIT and ``!#$%&'*+-.^_`|~``. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_TYPES: ReadonlySet<unknown> = new Set(['string', 'integer', 'boolean']);

class Refused {
  constructor(
    readonly at: string,
    readonly rule: string,
  ) {}
}

function refused(node: SubschemaVisit, rule: string): Refused {
  const path = node.propertyPath;
  const property =
    path === null || path.length === 0
      ? ''
      : ` (property ${path.map((name) => JSON.stringify(name)).join('.')})`;
  return new Refused(`${formatPointer(node.pointer)}${property}`, rule);
}

/**
 * The `Mcp-Param-*` fields `schema` declares, in document order, or the first annotation that
 * breaks the rule. With `role` 'output' any annotation is refused.
 */
export function readMcpHeaderFields(
  schema: Readonly<Record<string, unknown>>,
  role: 'input' | 'output' = 'input',
): McpHeaderFields {
  // A client hands over whatever a tools/list answer held.
  if (!isPlainObject(schema))
    return Object.freeze({ ok: false, at: '#', rule: 'is on a schema that is not an object' });
  const fields: McpHeaderField[] = [];
  const seen = new Map<string, string>();
  try {
    forEachSubschema(schema, (node) => {
      if (!Object.hasOwn(node.schema, ANNOTATION)) return;
      if (role === 'output') throw refused(node, 'is refused: headers mirror arguments, not results');
      const path = node.propertyPath;
      if (path === null || path.length === 0) {
        throw refused(node, 'is not on a property reached from the root through properties alone');
      }
      const header = node.schema[ANNOTATION];
      if (typeof header !== 'string' || header === '') throw refused(node, 'must be a non-empty string');
      if (!TOKEN.test(header)) {
        throw refused(node, `names ${JSON.stringify(header)}, which is not an RFC 9110 token`);
      }
      const type = node.schema['type'];
      if (!HEADER_TYPES.has(type)) {
        throw refused(
          node,
          'must annotate a property whose type is exactly "string", "integer" or "boolean"',
        );
      }
      const folded = header.toLowerCase();
      const earlier = seen.get(folded);
      if (earlier !== undefined) {
        throw refused(node, `names ${JSON.stringify(header)}, already used as ${JSON.stringify(earlier)}`);
      }
      seen.set(folded, header);
      fields.push(
        Object.freeze({ header, path: Object.freeze([...path]), type: type as McpHeaderField['type'] }),
      );
    });
  } catch (error) {
    if (error instanceof Refused) return Object.freeze({ ok: false, at: error.at, rule: error.rule });
    throw error;
  }
  return Object.freeze({ ok: true, fields: Object.freeze(fields) });
}
