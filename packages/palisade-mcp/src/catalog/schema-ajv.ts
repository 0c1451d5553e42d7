/**
 * The Ajv that compiles one host schema. Each schema gets its own instance (about 0.6 ms and a
 * few KiB each, measured): its registry then holds that schema and nothing else, so two tools
 * that declare the same `$id` never collide, one tool's `$ref` can never reach another tool's
 * schema, and, with no meta-schema loaded, a `$ref` to the meta-schema's URI fails like any
 * other `$ref` that leaves the schema. Nothing is ever fetched: there is no `loadSchema`, so an
 * unresolved `$ref` throws at compile time.
 *
 * The meta-schema check runs on standalone code Ajv generated from the meta-schema ahead of time.
 */
import { Ajv2020, type Options, type ValidateFunction } from 'ajv/dist/2020.js';
import { PalisadeError } from '../errors.js';
import { validateMetaSchema } from './meta-schema-validate.generated.js';
import { addSchemaFormats } from './schema-formats.js';
import type { SchemaPatterns } from './schema-patterns.js';
import { uniqueItemsKeyword } from './unique-items.js';

function options(patterns: SchemaPatterns): Options {
  return {
    // Unknown keywords, unknown formats and keywords that cannot apply to the declared type all
    // throw: nothing is advertised that is not enforced.
    strict: true,
    // `type: ["string", "null"]` is plain 2020-12 and fully enforced; strict mode would refuse it.
    allowUnionTypes: true,
    // Strict mode would test each `patternProperties` key against the `properties` names with
    // V8's RegExp at compile time; the overlap is legal 2020-12 and both keywords are enforced.
    allowMatchingProperties: true,
    // `required` in a subschema that does not itself declare those properties (`anyOf: [{required:
    // ["phone"]}, {required: ["email"]}]`, `then: {required: [...]}`) is ordinary 2020-12 and fully
    // enforced; strict mode refuses it only as a style lint.
    strictRequired: false,
    // The first error only: validation stops there, so a failing argument costs no more than a
    // passing one.
    allErrors: false,
    // Arguments reach the handler exactly as validated: nothing coerced, filled in or removed.
    coerceTypes: false,
    useDefaults: false,
    removeAdditional: false,
    // A schema never reads the data it validates as schema.
    $data: false,
    // `required: ["toString"]` must not be met by Object.prototype, and a property named
    // `constructor` must be the data's own.
    ownProperties: true,
    meta: false,
    validateSchema: false,
    // Inlining a referenced subschema at every `$ref` made compile time grow with the product of
    // the two (a 2 KiB schema took 0.85 s); a call per `$ref` costs nothing measurable.
    inlineRefs: false,
    // Ajv's messages are not used: refusals are built from keywords and schema-side parameters.
    messages: false,
    verbose: false,
    // Ajv only logs what strict mode does not already throw on; anything it would warn about is
    // something it would ignore, so it is refused too.
    logger: {
      log: () => {},
      warn: (...args: unknown[]) => {
        throw new Error(args.map(String).join(' '));
      },
      error: () => {},
    },
    code: {
      regExp: patterns.engine,
      // The optimizer tripled compile time on large schemas and changed no validation time.
      optimize: false,
    },
  };
}

/** Compiles `json` alone in a fresh Ajv; the caller maps what it throws to a refusal. */
export function compileWithAjv(
  json: Readonly<Record<string, unknown>>,
  patterns: SchemaPatterns,
): ValidateFunction {
  const ajv = new Ajv2020(options(patterns));
  addSchemaFormats(ajv);
  // Ajv resolves `$anchor` but does not list it as a keyword, so strict mode would refuse it.
  ajv.addKeyword({ keyword: '$anchor', schemaType: 'string' });
  // An annotation with no validation effect; its placement and value are checked apart.
  ajv.addKeyword({ keyword: 'x-mcp-header', schemaType: 'string' });
  ajv.removeKeyword('uniqueItems');
  ajv.addKeyword(uniqueItemsKeyword);
  return ajv.compile(json);
}

/**
 * Refuses a schema that is not valid against the 2020-12 meta-schema (`minLength: -1`,
 * `multipleOf: 0`, `required: "a"`): Ajv compiles some of those without complaint. The meta-schema
 * is Ajv's own compile of it, generated once into standalone code (meta-schema-validate.generated.ts):
 * compiling it here at every start was about a third of a one-tool server's start-up CPU.
 */
export function checkMetaSchema(json: Readonly<Record<string, unknown>>, where: string): void {
  if (validateMetaSchema(json)) return;
  const error = validateMetaSchema.errors?.[0];
  const at = error === undefined ? '' : ` at #${error.instancePath}`;
  throw new PalisadeError(
    'PALISADE_ERR_SCHEMA_INVALID',
    `${where}: is not valid JSON Schema 2020-12${at}: ${error?.message ?? 'fails the meta-schema'}`,
  );
}
