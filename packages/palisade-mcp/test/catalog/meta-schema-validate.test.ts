/**
 * The meta-schema check runs on standalone code Ajv generated once (scripts/meta-schema-validator.ts)
 * instead of a meta-schema compiled at every start. Two things hold it to what it replaced: the
 * committed file is exactly what the generator makes from the Ajv installed now, and on fixed and
 * random schemas it gives the verdict, and the first error, of the meta-schema Ajv compiles at run
 * time with the same options.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { GENERATED, generate, META_OPTIONS } from '../../../../scripts/meta-schema-validator.js';
import { validateMetaSchema } from '../../src/catalog/meta-schema-validate.generated.js';

const META_SCHEMA = 'https://json-schema.org/draft/2020-12/schema';
const runtime = new Ajv2020(META_OPTIONS);

/** The verdict and first error of a validator, in the fields the refusal message uses. */
function verdictOf(
  valid: boolean,
  errors: readonly { instancePath: string; keyword: string; message?: string }[] | null | undefined,
) {
  const first = valid ? undefined : errors?.[0];
  return { valid, at: first?.instancePath, keyword: first?.keyword, message: first?.message };
}

function bothOn(schema: unknown) {
  const generated = verdictOf(validateMetaSchema(schema), validateMetaSchema.errors);
  const compiled = verdictOf(runtime.validate(META_SCHEMA, schema) as boolean, runtime.errors);
  return { generated, compiled };
}

const VALID = [
  { type: 'object', properties: { text: { type: 'string', maxLength: 10 } }, required: ['text'] },
  true,
  false,
  {
    $defs: { node: { type: 'object', properties: { next: { $ref: '#/$defs/node' } } } },
    $ref: '#/$defs/node',
    unevaluatedProperties: false,
  },
  { prefixItems: [{ type: 'integer' }], items: false, contains: { const: 1 }, minContains: 1 },
  // biome-ignore lint/suspicious/noThenProperty: then is a JSON Schema keyword here
  { if: { required: ['a'] }, then: { required: ['b'] }, else: { not: {} }, dependentRequired: { a: ['b'] } },
  {
    type: ['string', 'null'],
    enum: ['a', null],
    examples: ['a'],
    deprecated: true,
    contentMediaType: 'text/plain',
  },
  { patternProperties: { '^x-': { type: 'string' } }, propertyNames: { maxLength: 5 }, $comment: 'note' },
];

const INVALID = [
  { minLength: -1 },
  { multipleOf: 0 },
  { required: 'a' },
  { type: 'strung' },
  { items: 1 },
  { properties: { a: 3 } },
  { $defs: { a: { maxItems: 'many' } } },
  { definitions: { a: { enum: 'x' } } },
  { dependencies: { a: [1] } },
  { $anchor: '1starts-with-a-digit' },
  { allOf: [] },
  { anyOf: [{ type: 'string' }, { minimum: 'zero' }] },
  { deprecated: 'yes' },
  { uniqueItems: 'true' },
  { $vocabulary: { x: 'yes' } },
  { contentSchema: { type: 7 } },
  [],
  'a schema',
];

describe('the generated meta-schema validator', () => {
  test('is what the generator makes from the installed Ajv', () => {
    expect(readFileSync(GENERATED, 'utf8') === generate()).toBe(true);
  });

  test.each(VALID.map((schema) => [JSON.stringify(schema), schema]))(
    'admits %s, as runtime Ajv does',
    (_name, schema) => {
      const { generated, compiled } = bothOn(schema);
      expect(generated).toEqual(compiled);
      expect(generated.valid).toBe(true);
    },
  );

  test.each(INVALID.map((schema) => [JSON.stringify(schema), schema]))(
    'refuses %s with the first error runtime Ajv gives',
    (_name, schema) => {
      const { generated, compiled } = bothOn(schema);
      expect(generated).toEqual(compiled);
      expect(generated.valid).toBe(false);
    },
  );

  test('agrees with runtime Ajv on random schema-shaped values', () => {
    const keyword = fc.constantFrom(
      'type',
      'properties',
      'items',
      'prefixItems',
      'required',
      'minLength',
      'maxItems',
      'multipleOf',
      'enum',
      'const',
      'allOf',
      'anyOf',
      'not',
      '$defs',
      '$ref',
      '$anchor',
      'additionalProperties',
      'dependentRequired',
      'uniqueItems',
      'format',
      'x-other',
    );
    const { schema } = fc.letrec((tie) => ({
      schema: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.boolean(),
        fc.dictionary(keyword, tie('value'), { maxKeys: 4 }),
      ),
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom('object', 'string', 'integer', 'strung', '#/$defs/a', 'a', ''),
        fc.integer({ min: -3, max: 5 }),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('schema'), { maxLength: 3 }),
        fc.array(fc.string({ maxLength: 3 }), { maxLength: 3 }),
        tie('schema'),
        fc.dictionary(fc.string({ maxLength: 3 }), tie('schema'), { maxKeys: 3 }),
      ),
    }));
    fc.assert(
      fc.property(schema, (candidate) => {
        const { generated, compiled } = bothOn(candidate);
        expect(generated).toEqual(compiled);
      }),
      { numRuns: 1_000 },
    );
  });
});
