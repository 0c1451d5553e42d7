/**
 * Where the subschemas of a JSON Schema 2020-12 document are. Every construction-time rule that
 * looks at subschemas (keywords, formats, patterns, `x-mcp-header` placement) walks through
 * here, so all of them agree on what is a schema and what is data: an `x-mcp-header` key inside
 * a `const` or `default` value is data, and a property *named* `$ref` under `properties` is a
 * property name, not a reference.
 */

/** Keywords whose value is one subschema. `contentSchema` is an annotation, but still a schema. */
const SINGLE = new Set([
  'additionalProperties',
  'propertyNames',
  'items',
  'contains',
  'if',
  'then',
  'else',
  'not',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
]);

/** Keywords whose value is an array of subschemas. */
const LIST = new Set(['prefixItems', 'allOf', 'anyOf', 'oneOf']);

/**
 * Keywords whose value maps names to subschemas. `definitions` is not a 2020-12 keyword, but
 * Ajv knows it as a container and a `$ref` may point into it by JSON Pointer.
 */
const MAP = new Set(['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions']);

export interface SubschemaVisit {
  readonly schema: Readonly<Record<string, unknown>>;
  /** JSON Pointer segments from the root to this subschema. */
  readonly pointer: readonly string[];
  /** Property names from the root while every step so far was `properties`; null once one was not. */
  readonly propertyPath: readonly string[] | null;
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `#/properties/a~1b`: a JSON Pointer fragment, for host-side messages. */
export function formatPointer(pointer: readonly string[]): string {
  return `#${pointer.map((segment) => `/${segment.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('')}`;
}

/**
 * Calls `visit` once for every object subschema of `root` (boolean subschemas hold nothing to
 * check), root first, then in document order. Iterative: the depth is bounded before this runs,
 * but a stack of frames costs nothing.
 */
export function forEachSubschema(
  root: Readonly<Record<string, unknown>>,
  visit: (node: SubschemaVisit) => void,
): void {
  const stack: SubschemaVisit[] = [{ schema: root, pointer: [], propertyPath: [] }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    visit(node);
    const children: SubschemaVisit[] = [];
    for (const [keyword, value] of Object.entries(node.schema)) {
      const at = [...node.pointer, keyword];
      if (SINGLE.has(keyword)) {
        if (isObject(value)) children.push({ schema: value, pointer: at, propertyPath: null });
      } else if (LIST.has(keyword)) {
        if (!Array.isArray(value)) continue;
        value.forEach((item: unknown, index) => {
          if (isObject(item))
            children.push({ schema: item, pointer: [...at, String(index)], propertyPath: null });
        });
      } else if (MAP.has(keyword)) {
        if (!isObject(value)) continue;
        for (const [name, item] of Object.entries(value)) {
          if (!isObject(item)) continue;
          const chain =
            keyword === 'properties' && node.propertyPath !== null ? [...node.propertyPath, name] : null;
          children.push({ schema: item, pointer: [...at, name], propertyPath: chain });
        }
      }
    }
    // Reversed onto the stack so they are visited in document order.
    for (let index = children.length - 1; index >= 0; index -= 1) stack.push(children[index]!);
  }
}
