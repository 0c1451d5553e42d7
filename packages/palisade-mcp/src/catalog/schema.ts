/**
 * One schema, one source. A host's JSON Schema is copied, checked and compiled once, at
 * construction, and that one frozen copy is both what `tools/list` advertises and what
 * `tools/call` enforces.
 * - Nothing is advertised that is not enforced: another dialect, a keyword or format Palisade
 *   will not enforce as 2020-12 means it, a `$ref` that leaves the schema, a schema invalid
 *   against the meta-schema, or a misplaced `x-mcp-header` is refused at construction.
 * - Nothing is changed on the way in: no coercion, no defaults, no property removed. The value
 *   a handler receives is the very value that was validated.
 * - Validation cannot hold the event loop on its own account: size, depth and subschema count
 *   are bounded, every pattern runs on a linear-time engine, and `uniqueItems` is linear.
 *   What a host's own schema multiplies is the host's to keep small: every subschema may apply
 *   to every value of the argument (a 500-branch `anyOf` over 100,000 items took 54 s, since
 *   each failed branch allocates an error), and a recursive `$ref` reached twice per level
 *   (`anyOf` branches that both descend) doubles the work per level of nesting.
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { PalisadeError } from '../errors.js';
import type { CompiledSchema } from './compiled-schema.js';
import { RegexWorkExceeded } from './linear-regex.js';
import { readMcpHeaderFields, rememberMcpHeaderFields } from './mcp-header-annotations.js';
import { checkMetaSchema, compileWithAjv } from './schema-ajv.js';
import { copySchemaData } from './schema-bounds.js';
import { checkSchemaKeywords } from './schema-keywords.js';
import { describeValidationError } from './schema-messages.js';
import { SchemaPatterns } from './schema-patterns.js';

export { type McpHeaderField, mcpHeaderFields } from './mcp-header-annotations.js';
export { JSON_SCHEMA_2020_12 } from './schema-keywords.js';

export type SchemaRole = 'input' | 'output';

const VALID = Object.freeze({ ok: true as const });

function invalid(where: string, rule: string): PalisadeError {
  return new PalisadeError('PALISADE_ERR_SCHEMA_INVALID', `${where}: ${rule}`);
}

function compile(
  json: Readonly<Record<string, unknown>>,
  where: string,
  patterns: SchemaPatterns,
): ValidateFunction {
  try {
    return compileWithAjv(json, patterns);
  } catch (error) {
    if (error instanceof PalisadeError) throw error;
    if (typeof error === 'object' && error !== null && 'missingRef' in error) {
      throw invalid(
        where,
        `$ref ${JSON.stringify(String(error.missingRef))} does not resolve inside the schema (Palisade never fetches a schema)`,
      );
    }
    // Ajv's compile-time messages name schema-side facts only: a keyword, a path, a format.
    throw invalid(where, `does not compile: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * Compiles a host schema, or throws a PalisadeError naming `where` (e.g. `tool "echo"
 * inputSchema`): 'PALISADE_ERR_SCHEMA_UNSAFE' for a schema over a bound,
 * 'PALISADE_ERR_SCHEMA_INVALID' for one that does not compile or uses what Palisade will not
 * enforce. An inputSchema must have `type: "object"` at its root; an outputSchema may be any
 * 2020-12 schema object.
 */
export function compileSchema(schema: unknown, where: string, role: SchemaRole): CompiledSchema {
  const json = copySchemaData(schema, where);
  const patterns = new SchemaPatterns(where);
  checkSchemaKeywords(json, where, patterns);
  if (role === 'input' && json['type'] !== 'object') {
    throw invalid(where, 'must have type "object" at its root');
  }
  checkMetaSchema(json, where);
  const fields = readMcpHeaderFields(json, where, role);
  const check = compile(json, where, patterns);
  const compiled: CompiledSchema = Object.freeze({
    json,
    validate(value: unknown) {
      let valid: boolean;
      try {
        // Synchronous: `$async` is refused, so Ajv returns a boolean, never a promise.
        valid = check(value) as boolean;
      } catch (error) {
        if (error instanceof RegexWorkExceeded) {
          return {
            ok: false as const,
            message: '(root) holds a string a pattern could not check within its work budget',
          };
        }
        // A stack overflow: a host-made value nested deeper than the wire allows, or a `$ref`
        // loop that never steps into the value (`{"$ref": "#"}` beside other keywords), which
        // Ajv compiles. Either way the value is refused, and quickly: the stack is the bound.
        return { ok: false as const, message: '(root) could not be validated' };
      }
      return valid ? VALID : { ok: false as const, message: describeValidationError(check.errors) };
    },
  });
  rememberMcpHeaderFields(compiled, fields);
  return compiled;
}

/**
 * For a catalog: every schema is compiled in its own Ajv instance (see `schema-ajv.ts`), so
 * the compiler holds no state and one function serves every catalog.
 */
export function createSchemaCompiler(): typeof compileSchema {
  return compileSchema;
}

/** Whether an outputSchema's root is `type: "object"`, the only root 2025-11-25 allows. */
export function outputRootIsObject(json: Readonly<Record<string, unknown>>): boolean {
  return json['type'] === 'object';
}
