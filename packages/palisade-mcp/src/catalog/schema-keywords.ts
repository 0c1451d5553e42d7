/**
 * What a host schema may say. Palisade advertises a schema as JSON Schema 2020-12 and enforces
 * it with Ajv, so a keyword is admitted only where both mean the same thing. Ajv's strict mode
 * refuses unknown keywords, but it also knows keywords that are not 2020-12 (`nullable`,
 * `$async`, `dependencies`, `$recursiveRef`, ...) and would enforce them where a client's
 * validator would ignore them; those are refused here by name. So is `$dynamicRef`: Ajv resolves
 * it differently from the specification. Subschemas that Ajv never compiles (an unreferenced
 * `$defs` entry, a `contentSchema`) are checked too: they are advertised all the same.
 */
import { PalisadeError } from '../errors.js';
import { MAX_SCHEMA_SUBSCHEMAS } from '../limits.js';
import { forEachSubschema, formatPointer } from '../wire/schema-walk.js';
import { SCHEMA_FORMATS } from './schema-formats.js';
import type { SchemaPatterns } from './schema-patterns.js';

/** The one dialect Palisade enforces, and the meaning of a schema without `$schema`. */
export const JSON_SCHEMA_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/** The vocabularies of the 2020-12 meta-schema, plus the annotations Palisade knows. */
const KEYWORDS = new Set([
  // core
  '$schema',
  '$id',
  '$ref',
  '$anchor',
  '$defs',
  '$comment',
  // applicator
  'prefixItems',
  'items',
  'contains',
  'additionalProperties',
  'properties',
  'patternProperties',
  'dependentSchemas',
  'propertyNames',
  'if',
  'then',
  'else',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  // unevaluated
  'unevaluatedItems',
  'unevaluatedProperties',
  // validation
  'type',
  'const',
  'enum',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxContains',
  'minContains',
  'maxProperties',
  'minProperties',
  'required',
  'dependentRequired',
  // format, content and meta-data annotations
  'format',
  'contentEncoding',
  'contentMediaType',
  'contentSchema',
  'title',
  'description',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  'examples',
  // a container Ajv knows and `$ref` can point into; harmless
  'definitions',
  // MCP 2026-07-28: mirrors an argument into an HTTP header; placement is checked apart
  'x-mcp-header',
]);

/** Keywords a host may reasonably write, and why each is refused. */
const REFUSED = new Map([
  ['$dynamicRef', 'is not supported: Ajv resolves it differently from JSON Schema 2020-12'],
  ['$dynamicAnchor', 'is not supported: Ajv resolves $dynamicRef differently from JSON Schema 2020-12'],
  ['$vocabulary', 'belongs in a meta-schema; Palisade enforces the 2020-12 vocabularies only'],
  ['$recursiveRef', 'belongs to draft 2019-09, not 2020-12'],
  ['$recursiveAnchor', 'belongs to draft 2019-09, not 2020-12'],
  ['dependencies', 'belongs to draft-07; use dependentRequired or dependentSchemas'],
  ['id', 'belongs to draft-04; use $id'],
  ['nullable', 'is OpenAPI, not JSON Schema 2020-12; use a type list with "null"'],
  ['$async', 'would make validation asynchronous'],
  ['discriminator', 'is OpenAPI, not JSON Schema 2020-12'],
]);

/** Keywords under which Ajv skips a `__proto__` key, so a subschema there would not be enforced. */
const NO_PROTO_KEY = ['properties', 'patternProperties'];

function invalid(where: string, pointer: readonly string[], rule: string): PalisadeError {
  return new PalisadeError('PALISADE_ERR_SCHEMA_INVALID', `${where}: ${formatPointer(pointer)} ${rule}`);
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkDialect(value: unknown, where: string, pointer: readonly string[]): void {
  if (value !== JSON_SCHEMA_2020_12) {
    throw invalid(
      where,
      pointer,
      `names ${JSON.stringify(value)}: dialect not supported (Palisade enforces ${JSON_SCHEMA_2020_12})`,
    );
  }
}

/**
 * Refuses a schema that names another dialect, uses a keyword Palisade will not enforce as
 * 2020-12 means it, uses a format or a pattern Palisade will not run, or has more than
 * MAX_SCHEMA_SUBSCHEMAS subschemas. Compiles every pattern into `patterns` on the way.
 */
export function checkSchemaKeywords(
  root: Readonly<Record<string, unknown>>,
  where: string,
  patterns: SchemaPatterns,
): void {
  // The dialect first: another dialect's keywords would otherwise be refused one by one.
  if (Object.hasOwn(root, '$schema')) checkDialect(root['$schema'], where, ['$schema']);
  let subschemas = 0;
  forEachSubschema(root, ({ schema, pointer }) => {
    subschemas += 1;
    if (subschemas > MAX_SCHEMA_SUBSCHEMAS) {
      throw new PalisadeError(
        'PALISADE_ERR_SCHEMA_UNSAFE',
        `${where}: has more than ${MAX_SCHEMA_SUBSCHEMAS} subschemas (MAX_SCHEMA_SUBSCHEMAS)`,
      );
    }
    for (const [keyword, value] of Object.entries(schema)) {
      const at = [...pointer, keyword];
      if (!KEYWORDS.has(keyword)) {
        throw invalid(where, at, REFUSED.get(keyword) ?? 'is not a JSON Schema 2020-12 keyword');
      }
      if (keyword === '$schema') checkDialect(value, where, at);
      if (keyword === 'format' && typeof value === 'string' && !SCHEMA_FORMATS.has(value)) {
        throw invalid(where, at, `names format ${JSON.stringify(value)}, which Palisade does not check`);
      }
      if (keyword === 'pattern' && typeof value === 'string') patterns.matcher(value, at);
      if (keyword === 'patternProperties' && isObject(value)) {
        for (const key of Object.keys(value)) patterns.matcher(key, [...at, key]);
      }
      if (NO_PROTO_KEY.includes(keyword) && isObject(value) && Object.hasOwn(value, '__proto__')) {
        throw invalid(where, [...at, '__proto__'], 'cannot be enforced: Ajv skips the key "__proto__" here');
      }
      // Seven JSON types, each at most once: a longer list is invalid, and the meta-schema's
      // uniqueness check on it would be quadratic.
      if (keyword === 'type' && Array.isArray(value) && value.length > 7) {
        throw invalid(where, at, 'lists more than the seven JSON types');
      }
    }
  });
}
