/**
 * `palisade-mcp/schema`: the bounded JSON Schema compiler the catalog enforces tool schemas
 * with, for a client that checks a `structuredContent` against the `outputSchema` a server
 * listed. The same bounds as the server's (size, depth, subschemas, linear-time patterns, no
 * `$ref` fetched); a schema over them is refused by a PalisadeError, never compiled.
 */
export { type CompiledSchema, compileSchema, type SchemaRole } from './schema.js';
