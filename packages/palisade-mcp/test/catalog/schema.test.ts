import { describe, expect, it } from 'vitest';
import type { CompiledSchema } from '../../src/catalog/compiled-schema.js';
import { compileSchema, outputRootIsObject } from '../../src/catalog/schema.js';
import { compileWithAjv } from '../../src/catalog/schema-ajv.js';
import { SchemaPatterns } from '../../src/catalog/schema-patterns.js';
import { hasDuplicateItems } from '../../src/catalog/unique-items.js';
import type { PalisadeError } from '../../src/errors.js';
import { refusalOf } from '../support/refusal.js';

const WHERE = 'tool "t" inputSchema';
const MARKER = 'MARKER-7f3e1c';

type Schema = Record<string, unknown>;

function input(schema: Schema): CompiledSchema {
  return compileSchema(schema, WHERE, 'input');
}

/** An object schema with one property `a`. */
function withA(a: unknown): Schema {
  return { type: 'object', properties: { a } };
}

function refusal(schema: unknown, role: 'input' | 'output' = 'input'): PalisadeError {
  return refusalOf(() => compileSchema(schema, WHERE, role), 'the schema');
}

function failure(compiled: CompiledSchema, value: unknown): string {
  const verdict = compiled.validate(value);
  if (verdict.ok) throw new Error('the value was accepted');
  return verdict.message;
}

describe('the advertised schema', () => {
  it('is a deep-frozen copy equal to what the host declared', () => {
    const declared = withA({ type: 'array', items: { type: 'string' } });
    const compiled = input(declared);
    expect(compiled.json).toEqual(declared);
    expect(compiled.json).not.toBe(declared);
    const items = ((compiled.json['properties'] as Schema)['a'] as Schema)['items'];
    expect(Object.isFrozen(items)).toBe(true);
  });

  it('is not changed by a later change to the host object', () => {
    const declared = withA({ type: 'string' });
    const compiled = input(declared);
    ((declared['properties'] as Schema)['a'] as Schema)['type'] = 'integer';
    expect(compiled.validate({ a: 'text' }).ok).toBe(true);
    expect(compiled.json['properties']).toEqual({ a: { type: 'string' } });
  });

  it('keeps a "__proto__" key in schema data as an own key', () => {
    const compiled = input(withA({ const: JSON.parse('{"__proto__": 1}') }));
    expect(compiled.validate({ a: JSON.parse('{"__proto__": 1}') }).ok).toBe(true);
    expect(compiled.validate({ a: {} }).ok).toBe(false);
  });

  it('accepts one subschema object shared by two properties', () => {
    const text = { type: 'string' };
    expect(input({ type: 'object', properties: { a: text, b: text } }).validate({ a: 'x', b: 1 }).ok).toBe(
      false,
    );
  });
});

describe('the root', () => {
  it.each([
    ['no type', {}],
    ['type array', { type: 'array' }],
    ['a type list', { type: ['object', 'null'] }],
  ])('of an inputSchema with %s is refused', (_, schema) => {
    const error = refusal(schema);
    expect(error.code).toBe('PALISADE_ERR_SCHEMA_INVALID');
    expect(error.message).toBe(`${WHERE}: must have type "object" at its root`);
  });

  it('of an outputSchema may be any schema object', () => {
    const compiled = compileSchema({ type: 'array', items: { type: 'integer' } }, WHERE, 'output');
    expect(compiled.validate([1, 2]).ok).toBe(true);
    expect(compiled.validate([1, 'x']).ok).toBe(false);
  });

  it('of an outputSchema is reported as an object root only for type "object"', () => {
    expect(outputRootIsObject(compileSchema({ type: 'object' }, WHERE, 'output').json)).toBe(true);
    expect(outputRootIsObject(compileSchema({ type: 'array' }, WHERE, 'output').json)).toBe(false);
    expect(outputRootIsObject(compileSchema({}, WHERE, 'output').json)).toBe(false);
  });

  it('must be a schema object, not a boolean schema', () => {
    expect(refusal(true, 'output').message).toBe(`${WHERE}: must be a JSON Schema object`);
  });
});

describe('the dialect', () => {
  it('is 2020-12 when no $schema is named', () => {
    const compiled = input(
      withA({ type: 'array', prefixItems: [{ type: 'string' }], minItems: 1, items: false }),
    );
    expect(compiled.validate({ a: ['x'] }).ok).toBe(true);
    expect(failure(compiled, { a: ['x', 'y'] })).toBe('/a must NOT have more than 1 items');
  });

  it('may be named as 2020-12', () => {
    const compiled = input({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' });
    expect(compiled.validate({}).ok).toBe(true);
  });

  it.each([
    'http://json-schema.org/draft-07/schema#',
    'https://json-schema.org/draft/2019-09/schema',
    'https://json-schema.org/draft/2020-12/schema#',
  ])('is refused by name when $schema is %s', (dialect) => {
    const error = refusal({ $schema: dialect, type: 'object' });
    expect(error.code).toBe('PALISADE_ERR_SCHEMA_INVALID');
    expect(error.message).toContain('dialect not supported');
    expect(error.message).toContain(WHERE);
  });

  it('is refused by name when an embedded resource names another', { tags: ['threat-model'] }, () => {
    const error = refusal(
      withA({ $id: 'urn:example:a', $schema: 'http://json-schema.org/draft-07/schema#', type: 'string' }),
    );
    expect(error.message).toContain('#/properties/a/$schema');
    expect(error.message).toContain('dialect not supported');
  });
});

describe('keywords and formats', () => {
  it('refuses an unknown keyword, which would be advertised and not enforced', {
    tags: ['threat-model'],
  }, () => {
    const error = refusal({ type: 'object', maxPropertiez: 2 });
    expect(error.code).toBe('PALISADE_ERR_SCHEMA_INVALID');
    expect(error.message).toBe(`${WHERE}: #/maxPropertiez is not a JSON Schema 2020-12 keyword`);
  });

  it.each([
    ['nullable', { type: 'string', nullable: true }],
    ['$async', { type: 'string', $async: true }],
    ['dependencies', { type: 'object', dependencies: { b: ['c'] } }],
    ['$recursiveRef', { $recursiveRef: '#' }],
    ['$dynamicRef', { $dynamicRef: '#node' }],
    ['$vocabulary', { $vocabulary: {} }],
  ])('refuses %s, which Ajv knows but would not enforce as 2020-12 means it', (keyword, schema) => {
    expect(refusal(withA(schema)).message).toContain(`#/properties/a/${keyword} `);
  });

  it('refuses a keyword that cannot apply to the declared type', () => {
    expect(refusal(withA({ type: 'string', minimum: 1 })).message).toContain('strictTypes');
  });

  it('refuses a schema that is invalid against the 2020-12 meta-schema', { tags: ['threat-model'] }, () => {
    const error = refusal(withA({ type: 'string', minLength: -1 }));
    expect(error.code).toBe('PALISADE_ERR_SCHEMA_INVALID');
    expect(error.message).toContain('is not valid JSON Schema 2020-12 at #/properties/a/minLength');
  });

  it('checks subschemas that Ajv never compiles, such as an unreferenced $defs entry', () => {
    expect(
      refusal({ type: 'object', $defs: { unused: { type: 'string', minLenght: 1 } } }).message,
    ).toContain('#/$defs/unused/minLenght');
  });

  it.each(['colour', 'url', 'regex', 'byte', 'iso-date-time', 'idn-email'])(
    'refuses format %s, which Palisade does not check',
    (format) => {
      expect(refusal(withA({ type: 'string', format })).message).toContain(
        `names format ${JSON.stringify(format)}, which Palisade does not check`,
      );
    },
  );

  it('checks formats in full mode, so a date that does not exist fails', () => {
    const compiled = input(withA({ type: 'string', format: 'date' }));
    expect(compiled.validate({ a: '2024-02-29' }).ok).toBe(true);
    expect(failure(compiled, { a: '2026-02-31' })).toBe('/a must match format "date"');
  });

  it.each(['properties', 'patternProperties'])(
    'refuses a "__proto__" key under %s, which Ajv would skip',
    (keyword) => {
      const schema = JSON.parse(`{"type":"object","${keyword}":{"__proto__":{"type":"string"}}}`);
      expect(refusal(schema).message).toContain(`#/${keyword}/__proto__ cannot be enforced`);
    },
  );
});

describe('$ref', () => {
  it('resolves into $defs', () => {
    const compiled = input({
      type: 'object',
      $defs: { name: { type: 'string', minLength: 1 } },
      properties: { a: { $ref: '#/$defs/name' } },
    });
    expect(compiled.validate({ a: 'x' }).ok).toBe(true);
    expect(failure(compiled, { a: '' })).toBe('/a must NOT have fewer than 1 characters');
  });

  it('resolves an $anchor', () => {
    const compiled = input({
      type: 'object',
      $defs: { name: { $anchor: 'name', type: 'string' } },
      properties: { a: { $ref: '#name' } },
    });
    expect(failure(compiled, { a: 1 })).toBe('/a must be string');
  });

  it('resolves an $id declared inside the schema', () => {
    const compiled = input({
      $id: 'https://example.com/tool',
      type: 'object',
      $defs: { name: { $id: 'name.json', type: 'string' } },
      properties: { a: { $ref: 'name.json' } },
    });
    expect(failure(compiled, { a: 1 })).toBe('/a must be string');
  });

  it.each([
    ['a network URI', 'https://example.com/schema.json'],
    ['a file URI', 'file:///etc/schema.json'],
    ['the meta-schema', 'https://json-schema.org/draft/2020-12/schema'],
    ['a missing $defs entry', '#/$defs/missing'],
  ])('to %s is refused at construction, never fetched', (_, ref) => {
    const error = refusal(withA({ $ref: ref }));
    expect(error.code).toBe('PALISADE_ERR_SCHEMA_INVALID');
    expect(error.message).toContain(`${WHERE}: $ref `);
    expect(error.message).toContain('does not resolve inside the schema (Palisade never fetches a schema)');
  });

  it('never reaches another schema, even one with the $id it names', { tags: ['threat-model'] }, () => {
    const shared = { $id: 'https://example.com/shared', type: 'object' };
    input(shared);
    expect(input({ ...shared }).validate({}).ok).toBe(true);
    expect(refusal(withA({ $ref: 'https://example.com/shared' })).message).toContain(
      '"https://example.com/shared" does not resolve inside the schema',
    );
  });
});

describe('bounds at construction', () => {
  /** `{"type":"object","description":"xxx…"}` serialized to exactly `bytes` bytes. */
  function ofSize(bytes: number, char = 'x'): Schema {
    const overhead = JSON.stringify({ type: 'object', description: '' }).length;
    return { type: 'object', description: char.repeat(bytes - overhead) };
  }

  it('admits a schema of 262,144 bytes serialized', () => {
    expect(input(ofSize(262_144)).validate({}).ok).toBe(true);
  });

  it('refuses a schema of 262,145 bytes, naming the bound', { tags: ['threat-model'] }, () => {
    const error = refusal(ofSize(262_145));
    expect(error.code).toBe('PALISADE_ERR_SCHEMA_UNSAFE');
    expect(error.message).toBe(`${WHERE}: is larger than 262144 bytes serialized (MAX_SCHEMA_BYTES)`);
  });

  it('counts the size in UTF-8 bytes, not characters', () => {
    // 131,060 two-byte characters: half the bound in characters, over it in bytes.
    const schema = { type: 'object', description: 'é'.repeat(131_060) };
    expect(refusal(schema).code).toBe('PALISADE_ERR_SCHEMA_UNSAFE');
  });

  it('refuses a shared subschema that would only fit if it were not expanded', () => {
    // 8^12 copies once expanded: the copy stops at the size bound instead of expanding them.
    let schema: Schema = { type: 'string' };
    for (let level = 0; level < 12; level += 1) schema = { allOf: Array.from({ length: 8 }, () => schema) };
    expect(refusal(withA(schema)).message).toContain('(MAX_SCHEMA_BYTES)');
  });

  /** A schema whose arrays and objects nest `levels` deep, the root being level 1. */
  function nested(levels: number): Schema {
    let inner: Schema = {};
    for (let level = 2; level < levels; level += 1) inner = { not: inner };
    return { type: 'object', not: inner };
  }

  it('admits a schema nested 32 levels deep', () => {
    expect(() => input(nested(32))).not.toThrow();
  });

  it('refuses a schema nested 33 levels deep, naming the bound', { tags: ['threat-model'] }, () => {
    const error = refusal(nested(33));
    expect(error.code).toBe('PALISADE_ERR_SCHEMA_UNSAFE');
    expect(error.message).toContain(`${WHERE}: nests deeper than 32 levels at #/not`);
    expect(error.message).toContain('(MAX_SCHEMA_DEPTH)');
  });

  /** The root and `count - 1` entries under $defs. */
  function withSubschemas(count: number): Schema {
    const defs = Object.fromEntries(Array.from({ length: count - 1 }, (_, index) => [`d${index}`, {}]));
    return { type: 'object', $defs: defs };
  }

  it('admits 2,000 subschemas', () => {
    expect(() => input(withSubschemas(2_000))).not.toThrow();
  });

  it('refuses 2,001 subschemas, naming the bound', { tags: ['threat-model'] }, () => {
    const error = refusal(withSubschemas(2_001));
    expect(error.code).toBe('PALISADE_ERR_SCHEMA_UNSAFE');
    expect(error.message).toBe(`${WHERE}: has more than 2000 subschemas (MAX_SCHEMA_SUBSCHEMAS)`);
  });

  const sparse: unknown[] = [];
  sparse[1] = 'a';
  it.each([
    ['a function', () => 1],
    ['undefined', undefined],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['a bigint', 1n],
    ['a symbol', Symbol('s')],
    ['a Date', new Date(0)],
    ['a class instance', new (class Point {})()],
    ['a Map', new Map()],
    ['an accessor', Object.defineProperty({}, 'x', { get: () => 1, enumerable: true })],
    ['a non-enumerable property', Object.defineProperty({}, 'x', { value: 1, enumerable: false })],
    ['a symbol key', { [Symbol('k')]: 1 }],
    ['a sparse array', sparse],
  ])('refuses a schema holding %s, which is not plain JSON data', (_, value) => {
    const error = refusal(withA({ default: value }));
    expect(error.code).toBe('PALISADE_ERR_SCHEMA_INVALID');
    expect(error.message).toContain(`${WHERE}: #/properties/a/default`);
  });

  it('refuses a cycle as such', () => {
    const schema: Schema = { type: 'object' };
    schema['properties'] = { a: schema };
    expect(refusal(schema).message).toBe(`${WHERE}: #/properties/a is a cycle back to an enclosing value`);
  });
});

describe('validation leaves the arguments as they are', () => {
  it('does not fill in a default', { tags: ['threat-model'] }, () => {
    const args: Schema = {};
    expect(input(withA({ type: 'integer', default: 7 })).validate(args).ok).toBe(true);
    expect(args).toEqual({});
  });

  it('does not coerce a string to a number', { tags: ['threat-model'] }, () => {
    const args = { a: '1' };
    expect(failure(input(withA({ type: 'integer' })), args)).toBe('/a must be integer');
    expect(args).toEqual({ a: '1' });
  });

  it('refuses an extra property rather than removing it', { tags: ['threat-model'] }, () => {
    const args = { a: 1, extra: 2 };
    const compiled = input({ type: 'object', properties: { a: {} }, additionalProperties: false });
    expect(failure(compiled, args)).toBe('(root) must NOT have additional property "extra"');
    expect(args).toEqual({ a: 1, extra: 2 });
  });

  it('reports the first failure only', () => {
    const compiled = input({ type: 'object', properties: { a: {}, b: {} }, required: ['a', 'b'] });
    expect(failure(compiled, {})).toBe('(root) must have required property "a"');
  });

  it('does not count an inherited property as present', { tags: ['threat-model'] }, () => {
    const compiled = input({
      type: 'object',
      properties: { toString: { type: 'string' } },
      required: ['toString'],
    });
    expect(failure(compiled, {})).toBe('(root) must have required property "toString"');
  });

  it('does not validate an inherited property as if it were the argument', () => {
    expect(input({ type: 'object', properties: { constructor: { type: 'string' } } }).validate({}).ok).toBe(
      true,
    );
  });

  it('treats a parsed "__proto__" key as an extra property, and pollutes nothing', () => {
    const args = JSON.parse('{"__proto__": {"polluted": true}}');
    const compiled = input({ type: 'object', properties: { a: {} }, additionalProperties: false });
    expect(failure(compiled, args)).toBe('(root) must NOT have additional property "__proto__"');
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(({} as Schema)['polluted']).toBeUndefined();
  });

  it('validates a parsed "__proto__" key against additionalProperties like any other key', () => {
    const compiled = input({ type: 'object', additionalProperties: { type: 'string' } });
    expect(failure(compiled, JSON.parse('{"__proto__": 1}'))).toBe('/__proto__ must be string');
    expect(compiled.validate(JSON.parse('{"__proto__": "x"}')).ok).toBe(true);
  });

  it('refuses, without throwing, a host value nested past what the stack can validate', () => {
    const compiled = compileSchema(
      { $defs: { node: { type: 'array', items: { $ref: '#/$defs/node' } } }, $ref: '#/$defs/node' },
      WHERE,
      'output',
    );
    let deep: unknown[] = [];
    for (let level = 0; level < 100_000; level += 1) deep = [deep];
    expect(compiled.validate(deep)).toEqual({ ok: false, message: '(root) could not be validated' });
  });
});

describe('uniqueItems', () => {
  const unique = input(withA({ type: 'array', uniqueItems: true }));

  it('finds equal objects whose keys are in another order', { tags: ['threat-model'] }, () => {
    expect(
      failure(unique, {
        a: [
          { x: 1, y: [2, { z: 3, w: 4 }] },
          { y: [2, { w: 4, z: 3 }], x: 1 },
        ],
      }),
    ).toBe('/a must NOT have duplicate items');
  });

  it('finds two "__proto__" strings, which Ajv\'s own check lets through', () => {
    const compiled = input(withA({ type: 'array', items: { type: 'string' }, uniqueItems: true }));
    expect(compiled.validate({ a: ['__proto__', 'constructor'] }).ok).toBe(true);
    expect(compiled.validate({ a: ['__proto__', '__proto__'] }).ok).toBe(false);
  });

  it('compares values as JSON Schema does: 0 equals -0, 1 differs from "1"', () => {
    expect(hasDuplicateItems(JSON.parse('[0, -0]'))).toBe(true);
    expect(hasDuplicateItems([1, '1', true, 'true', null, 'null', [1], { 0: 1 }])).toBe(false);
  });

  it('tells apart objects with an own "__proto__" key and without one', () => {
    expect(hasDuplicateItems([JSON.parse('{"__proto__": 1}'), {}])).toBe(false);
    expect(hasDuplicateItems([JSON.parse('{"__proto__": 1}'), JSON.parse('{"__proto__": 1}')])).toBe(true);
  });
});

describe('patterns run on the linear-time engine', () => {
  // The only timed assertion here, and deliberately loose: V8's backtracking engine needs
  // 2^n steps to reject this input, so any bound in seconds tells the two apart.
  it('answers ^(a+)+$ against a 1 MiB argument promptly', { tags: ['threat-model'] }, () => {
    const compiled = input(withA({ type: 'string', pattern: '^(a+)+$' }));
    const started = performance.now();
    expect(failure(compiled, { a: `${'a'.repeat(1_048_576)}!` })).toBe('/a must match pattern "^(a+)+$"');
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('hands Ajv the engine for pattern and for patternProperties keys', () => {
    const tested: string[] = [];
    const patterns = new SchemaPatterns(WHERE, (pattern) => ({
      test: (text) => {
        tested.push(`${pattern} ${text}`);
        return true;
      },
    }));
    const check = compileWithAjv(
      {
        type: 'object',
        properties: { a: { type: 'string', pattern: '^a' } },
        patternProperties: { '^k': true },
      },
      patterns,
    );
    check({ a: 'value', key: 1 });
    expect(tested.sort()).toEqual(['^a value', '^k a', '^k key']);
  });

  it('keeps each pattern of a schema apart', () => {
    const compiled = input({
      type: 'object',
      properties: { a: { type: 'string', pattern: '^a$' }, b: { type: 'string', pattern: '^b$' } },
    });
    expect(failure(compiled, { a: 'a', b: 'a' })).toBe('/b must match pattern "^b$"');
  });

  it('refuses a pattern the engine will not run, naming where it is', { tags: ['threat-model'] }, () => {
    const error = refusal({ type: 'object', patternProperties: { '(a)\\1': {} } });
    expect(error.message).toContain(`${WHERE}: pattern "(a)\\\\1" at #/patternProperties/(a)\\1`);
  });
});

describe('refusals sent to the client', () => {
  it.each([
    ['type', { type: 'integer' }, MARKER],
    ['const', { const: 'x' }, MARKER],
    ['enum', { enum: ['x'] }, MARKER],
    ['pattern', { type: 'string', pattern: '^x$' }, MARKER],
    ['format', { type: 'string', format: 'email' }, MARKER],
    ['maxLength', { type: 'string', maxLength: 3 }, MARKER],
    ['uniqueItems', { type: 'array', uniqueItems: true }, [MARKER, MARKER]],
    ['contains', { type: 'array', contains: { const: 1 } }, [MARKER]],
    ['anyOf', { anyOf: [{ type: 'integer' }, { const: 'x' }] }, MARKER],
    ['not', { not: { type: 'string' } }, MARKER],
  ])('do not echo a value that fails %s', (_, schema, value) => {
    expect(failure(input(withA(schema)), { a: value })).not.toContain('MARKER');
  });

  const longKey = `${'k'.repeat(32)}${MARKER}`;

  it.each([
    ['additionalProperties', { type: 'object', additionalProperties: false }],
    ['unevaluatedProperties', { type: 'object', unevaluatedProperties: false }],
    ['propertyNames', { type: 'object', propertyNames: { maxLength: 3 } }],
    ['an instance path', { type: 'object', additionalProperties: { type: 'string' } }],
  ])('cut a client key named in %s to 32 characters', (_, schema) => {
    const message = failure(input(schema), { [longKey]: 1 });
    expect(message).toContain(`${'k'.repeat(32)}`);
    expect(message).toContain('…');
    expect(message).not.toContain('MARKER');
  });

  it('escape quotes, control characters and non-ASCII in a client key', () => {
    const compiled = input({ type: 'object', additionalProperties: false });
    expect(failure(compiled, { 'a"\n\u00e9': 1 })).toBe(
      '(root) must NOT have additional property "a\\"\\n\\u00e9"',
    );
  });

  it('name the path to the failing value and the rule it broke', () => {
    const compiled = input({
      type: 'object',
      properties: {
        items: { type: 'array', items: { type: 'object', properties: { 'a/b': { type: 'string' } } } },
      },
    });
    expect(failure(compiled, { items: [{ 'a/b': 'x' }, { 'a/b': 2 }] })).toBe('/items/1/a~1b must be string');
  });
});
