import { describe, expect, it } from 'vitest';
import { mcpHeaderFields } from '../../src/catalog/mcp-header-annotations.js';
import { compileSchema } from '../../src/catalog/schema.js';
import type { PalisadeError } from '../../src/errors.js';
import { refusalOf } from '../support/refusal.js';

const WHERE = 'tool "t" inputSchema';

type Schema = Record<string, unknown>;

function fieldsOf(schema: Schema) {
  return mcpHeaderFields(compileSchema(schema, WHERE, 'input'));
}

function refusal(schema: Schema, role: 'input' | 'output' = 'input'): PalisadeError {
  return refusalOf(() => compileSchema(schema, WHERE, role), 'the schema');
}

/** An object schema with one property `a` holding `a`. */
function withA(a: Schema): Schema {
  return { type: 'object', properties: { a } };
}

describe('x-mcp-header fields', () => {
  it('are read from properties reached through properties alone, with the name as declared', () => {
    const fields = fieldsOf({
      type: 'object',
      properties: {
        region: { type: 'string', 'x-mcp-header': 'Region' },
        target: {
          type: 'object',
          properties: { id: { type: 'integer', 'x-mcp-header': 'Target-Id' }, plain: { type: 'string' } },
        },
        dryRun: { type: 'boolean', 'x-mcp-header': 'dry_run' },
      },
    });
    expect(fields).toEqual([
      { header: 'Region', path: ['region'], type: 'string' },
      { header: 'Target-Id', path: ['target', 'id'], type: 'integer' },
      { header: 'dry_run', path: ['dryRun'], type: 'boolean' },
    ]);
  });

  it('are the same list from the compiled schema and from its advertised json', () => {
    const compiled = compileSchema(withA({ type: 'string', 'x-mcp-header': 'A' }), WHERE, 'input');
    expect(mcpHeaderFields(compiled.json, WHERE)).toBe(mcpHeaderFields(compiled));
  });

  it('are empty for a schema without annotations', () => {
    expect(fieldsOf(withA({ type: 'string' }))).toEqual([]);
  });

  it('leave validation unchanged: the annotation is not a constraint', () => {
    const compiled = compileSchema(withA({ type: 'string', 'x-mcp-header': 'A' }), WHERE, 'input');
    expect(compiled.validate({}).ok).toBe(true);
    expect(compiled.validate({ a: 'x' }).ok).toBe(true);
    expect(compiled.validate({ a: 1 }).ok).toBe(false);
  });

  it('accept every tchar of RFC 9110', () => {
    const header = "!#$%&'*+-.^_`|~09AZaz";
    expect(fieldsOf(withA({ type: 'string', 'x-mcp-header': header }))[0]?.header).toBe(header);
  });

  it('ignore a property that is named x-mcp-header', () => {
    expect(fieldsOf({ type: 'object', properties: { 'x-mcp-header': { type: 'string' } } })).toEqual([]);
  });

  it('ignore an x-mcp-header key inside schema data', () => {
    expect(fieldsOf(withA({ type: 'object', default: { 'x-mcp-header': 'A' } }))).toEqual([]);
  });
});

describe('an x-mcp-header annotation', () => {
  it.each([
    ['empty', ''],
    ['with a space', 'Tenant Id'],
    ['with a colon', 'Tenant:Id'],
    ['with a control character', 'Tenant\tId'],
    ['with non-ASCII', 'Région'],
    ['with a separator', 'Tenant(Id)'],
  ])('is refused when its name is %s', (_, header) => {
    const error = refusal(withA({ type: 'string', 'x-mcp-header': header }));
    expect(error.code).toBe('PALISADE_ERR_SCHEMA_INVALID');
    expect(error.message).toMatch(/must be a non-empty string|is not an RFC 9110 token/);
  });

  it('is refused when its value is not a string', () => {
    expect(refusal(withA({ type: 'string', 'x-mcp-header': 7 })).code).toBe('PALISADE_ERR_SCHEMA_INVALID');
  });

  it('is refused when its name repeats another, compared case-insensitively, naming both', {
    tags: ['threat-model'],
  }, () => {
    const error = refusal({
      type: 'object',
      properties: {
        a: { type: 'string', 'x-mcp-header': 'Tenant' },
        b: { type: 'string', 'x-mcp-header': 'TENANT' },
      },
    });
    expect(error.message).toBe(
      `${WHERE}: x-mcp-header at #/properties/b (property "b") names "TENANT", already used as "Tenant"`,
    );
  });

  it.each([
    ['number', { type: 'number' }],
    ['object', { type: 'object' }],
    ['array', { type: 'array' }],
    ['null', { type: 'null' }],
    ['a type list', { type: ['string', 'null'] }],
    ['a one-entry type list', { type: ['string'] }],
    ['no type', {}],
  ])('is refused on a property typed %s', (_, schema) => {
    const error = refusal(withA({ ...schema, 'x-mcp-header': 'A' }));
    expect(error.message).toBe(
      `${WHERE}: x-mcp-header at #/properties/a (property "a") must annotate a property whose type is exactly "string", "integer" or "boolean"`,
    );
  });

  it.each([
    ['the root', { type: 'object', 'x-mcp-header': 'A' }, '#'],
    [
      'items',
      withA({ type: 'array', items: { type: 'string', 'x-mcp-header': 'A' } }),
      '#/properties/a/items',
    ],
    [
      'prefixItems',
      withA({
        type: 'array',
        prefixItems: [{ type: 'string', 'x-mcp-header': 'A' }],
        minItems: 1,
        maxItems: 1,
      }),
      '#/properties/a/prefixItems/0',
    ],
    [
      'anyOf',
      { type: 'object', anyOf: [{ properties: { a: { type: 'string', 'x-mcp-header': 'A' } } }] },
      '#/anyOf/0/properties/a',
    ],
    [
      'oneOf',
      { type: 'object', oneOf: [{ properties: { a: { type: 'string', 'x-mcp-header': 'A' } } }] },
      '#/oneOf/0/properties/a',
    ],
    [
      'allOf',
      { type: 'object', allOf: [{ properties: { a: { type: 'string', 'x-mcp-header': 'A' } } }] },
      '#/allOf/0/properties/a',
    ],
    ['not', withA({ type: 'string', not: { type: 'string', 'x-mcp-header': 'A' } }), '#/properties/a/not'],
    [
      'if',
      { type: 'object', if: { properties: { a: { type: 'string', 'x-mcp-header': 'A' } } } },
      '#/if/properties/a',
    ],
    [
      'then',
      // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword here.
      { type: 'object', if: true, then: { properties: { a: { type: 'string', 'x-mcp-header': 'A' } } } },
      '#/then/properties/a',
    ],
    [
      'else',
      { type: 'object', if: true, else: { properties: { a: { type: 'string', 'x-mcp-header': 'A' } } } },
      '#/else/properties/a',
    ],
    [
      '$defs, reached through $ref',
      {
        type: 'object',
        $defs: { id: { type: 'string', 'x-mcp-header': 'A' } },
        properties: { a: { $ref: '#/$defs/id' } },
      },
      '#/$defs/id',
    ],
    [
      'patternProperties',
      { type: 'object', patternProperties: { '^a': { type: 'string', 'x-mcp-header': 'A' } } },
      '#/patternProperties/^a',
    ],
    [
      'additionalProperties',
      { type: 'object', additionalProperties: { type: 'string', 'x-mcp-header': 'A' } },
      '#/additionalProperties',
    ],
  ])('is refused under %s, naming where it is', (_, schema, pointer) => {
    const error = refusal(schema);
    expect(error.code).toBe('PALISADE_ERR_SCHEMA_INVALID');
    expect(error.message).toBe(
      `${WHERE}: x-mcp-header at ${pointer} is not on a property reached from the root through properties alone`,
    );
  });

  it('is refused in an outputSchema, which mirrors nothing into headers', () => {
    expect(refusal(withA({ type: 'string', 'x-mcp-header': 'A' }), 'output').message).toContain(
      'x-mcp-header at #/properties/a (property "a") is refused',
    );
  });
});
