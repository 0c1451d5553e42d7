/**
 * The MCP headers of a Streamable HTTP request (MCP 2026-07-28, SEP-2243): their names, which
 * body member each mirrors, and the one function that writes them for a request. A server holds
 * every one it receives to the body (http/headers/match.ts reads these same names and sources);
 * a client that writes them with `mcpRequestHeaders` sends headers that match by construction,
 * which test/wire/mcp-headers.property.test.ts checks against the server's own match.
 */
import { encodeHeaderValue } from './header-value.js';
import type { McpHeaderField } from './mcp-header-fields.js';

export const PROTOCOL_VERSION_HEADER = 'MCP-Protocol-Version';
export const METHOD_HEADER = 'Mcp-Method';
export const NAME_HEADER = 'Mcp-Name';
export const PARAM_HEADER_PREFIX = 'Mcp-Param-';

/** The `params` member `Mcp-Name` mirrors, by method; a Map so `constructor` is no method here. */
const NAME_SOURCE: ReadonlyMap<string, string> = new Map([
  ['tools/call', 'name'],
  ['prompts/get', 'name'],
  ['resources/read', 'uri'],
  // Tasks extension (SEP-2663 "Routing Headers"): these carry `Mcp-Name: <params.taskId>`.
  ['tasks/get', 'taskId'],
  ['tasks/update', 'taskId'],
  ['tasks/cancel', 'taskId'],
]);

/** The `params` member `Mcp-Name` mirrors for `method`, or `undefined` when the method has no `Mcp-Name`. */
export function mcpNameSource(method: string): string | undefined {
  return NAME_SOURCE.get(method);
}

/** An own member of a plain object, never an inherited one (`toString`) nor an array index. */
function ownMember(node: unknown, key: string): unknown {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
  return Object.hasOwn(node, key) ? (node as Record<string, unknown>)[key] : undefined;
}

/** A field's argument as header text: only a value of the field's own type has one. */
function fieldText(field: McpHeaderField, value: unknown): string | undefined {
  switch (field.type) {
    case 'string':
      return typeof value === 'string' ? encodeHeaderValue(value) : undefined;
    case 'integer':
      return Number.isSafeInteger(value) ? String(value) : undefined;
    case 'boolean':
      return typeof value === 'boolean' ? String(value) : undefined;
  }
}

/**
 * The headers a client sends with `message` under `protocolVersion`: `MCP-Protocol-Version`,
 * `Mcp-Method`, `Mcp-Name` for the methods that have one (when the body's member is a string),
 * and `Mcp-Param-{Name}` for each of `fields` (the called tool's, from `readMcpHeaderFields`)
 * whose argument is present and not null. Values are written as `encodeHeaderValue` writes them.
 * An argument that is not of its field's type gets no header (the server then refuses the
 * request, and its schema would have refused the argument); so does a text no header can carry
 * (a lone surrogate). On 2026-07-28, `protocolVersion` is the one the body's `_meta` names.
 */
export function mcpRequestHeaders(
  message: { readonly method: string; readonly params?: Readonly<Record<string, unknown>> | undefined },
  protocolVersion: string,
  fields: readonly McpHeaderField[] = [],
): Record<string, string> {
  const headers: Record<string, string> = {
    [PROTOCOL_VERSION_HEADER]: protocolVersion,
    [METHOD_HEADER]: message.method,
  };
  const source = mcpNameSource(message.method);
  const name = source === undefined ? undefined : ownMember(message.params, source);
  const nameText = typeof name === 'string' ? encodeHeaderValue(name) : undefined;
  if (nameText !== undefined) headers[NAME_HEADER] = nameText;
  const args = ownMember(message.params, 'arguments');
  for (const field of fields) {
    let value: unknown = args;
    for (const key of field.path) value = ownMember(value, key);
    if (value === undefined || value === null) continue;
    const text = fieldText(field, value);
    if (text !== undefined) headers[PARAM_HEADER_PREFIX + field.header] = text;
  }
  return headers;
}
