/**
 * A 2020-12 schema that puts `required` in composition and conditional subschemas (the shape of
 * the official conformance suite's `json_schema_2020_12_tool`): accepted, advertised verbatim
 * and enforced, each branch.
 */
import { describe, expect, test } from 'vitest';
import { compileSchema } from '../../src/catalog/schema.js';

const SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'addressDef',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword here; the object is never awaited.
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};

describe('required inside composition and conditionals', () => {
  const compiled = compileSchema(SCHEMA, 'tool "t" inputSchema', 'input');

  test('a schema with required inside anyOf, then and else compiles and is advertised as declared', () => {
    expect(compiled.json).toEqual(SCHEMA);
  });

  test('the anyOf branch is enforced: neither phone nor email is refused', () => {
    expect(compiled.validate({ name: 'a' }).ok).toBe(false);
  });

  test('the then branch is enforced: contactMethod phone without a phone is refused', () => {
    expect(compiled.validate({ contactMethod: 'phone', email: 'a@example.com' }).ok).toBe(false);
  });

  test('the else branch is enforced and a value meeting every branch is accepted', () => {
    expect(compiled.validate({ phone: '1' }).ok).toBe(false);
    expect(compiled.validate({ email: 'a@example.com', address: { city: 'x' } }).ok).toBe(true);
  });
});
