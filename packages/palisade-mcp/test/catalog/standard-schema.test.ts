/**
 * A Standard Schema is converted to JSON Schema once, at construction, and whatever that JSON
 * Schema cannot carry is refused there, naming the tool and the reason: one test per library
 * construct. The converted schema is the one listed and the one enforced.
 */
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createServer, PalisadeError, type ServerDefinition, type ToolSchema } from '../../src/index.js';
import { serveInProcess } from '../support/in-process.js';
import { modern } from '../support/stdio-peer.js';

const handler = () => ({ content: [] });

function serverWith(inputSchema: unknown, outputSchema?: unknown) {
  const tool = { name: 't', inputSchema, handler, ...(outputSchema === undefined ? {} : { outputSchema }) };
  return createServer({ name: 's', version: '1', tools: [tool] } as unknown as ServerDefinition);
}

function refusal(inputSchema: unknown, outputSchema?: unknown): PalisadeError {
  try {
    serverWith(inputSchema, outputSchema);
  } catch (error) {
    expect(error).toBeInstanceOf(PalisadeError);
    return error as PalisadeError;
  }
  throw new Error('createServer accepted the schema');
}

function expectRefused(schema: unknown, reason: RegExp): void {
  const error = refusal(schema);
  expect(error.code).toBe('PALISADE_ERR_SCHEMA_NOT_CONVERTIBLE');
  expect(error.message).toMatch(/^tool "t" inputSchema: /);
  expect(error.message).toMatch(reason);
}

describe('zod constructs the JSON Schema cannot carry are refused at construction', () => {
  test('a .refine() is refused as having no JSON Schema form', () => {
    expectRefused(z.object({ a: z.string().refine((s) => s !== 'x') }), /#\/properties\/a: a \.refine\(\)/);
  });

  test('a .superRefine() is refused as having no JSON Schema form', () => {
    expectRefused(z.object({ a: z.string().superRefine(() => {}) }), /\.refine\(\), \.superRefine\(\)/);
  });

  test('a z.custom() is refused with the reason zod gives', () => {
    expectRefused(
      z.object({ a: z.custom<string>(() => true) }),
      /no JSON Schema form \(input side\): Custom/,
    );
  });

  test('a .transform() is refused as changing the value', () => {
    expectRefused(
      z.object({ a: z.string().transform((s) => s.length) }),
      /\.transform\(\).*changes the value/,
    );
  });

  test('a .pipe() into another schema is refused as changing the value', () => {
    expectRefused(z.object({ a: z.string().pipe(z.email()) }), /\.pipe\(\) changes the value/);
  });

  test('a .default() is refused as filling in a value, saying to write .optional() and default in the handler', () => {
    expectRefused(
      z.object({ a: z.string().default('x') }),
      /\.default\(\) fills in a value Palisade never fills in: write \.optional\(\) in its place and give the default where the handler reads the argument, as in \(\{ days = 1 \}\) => \.\.\.$/,
    );
  });

  test('a .prefault() is refused as filling in a value, saying what to write instead', () => {
    expectRefused(
      z.object({ a: z.string().prefault('x') }),
      /\.prefault\(\) fills in a value Palisade never fills in: write \.optional\(\) in its place/,
    );
  });

  test('a .catch() is refused as replacing a refused value', () => {
    expectRefused(z.object({ a: z.string().catch('x') }), /\.catch\(\) replaces a refused value/);
  });

  test('a .trim() is refused as rewriting the value', () => {
    expectRefused(z.object({ a: z.string().trim() }), /\.trim\(\).*rewrites the value/);
  });

  test('a refinement nested in an array inside a union is found', () => {
    const nested = z.object({ a: z.union([z.number(), z.array(z.string().refine(() => true))]) });
    expectRefused(nested, /a \.refine\(\)/);
  });

  test('a refinement in the outputSchema is refused naming the outputSchema', () => {
    const error = refusal(z.object({}), z.object({ n: z.number().refine((n) => n > 0) }));
    expect(error.code).toBe('PALISADE_ERR_SCHEMA_NOT_CONVERTIBLE');
    expect(error.message).toMatch(/^tool "t" outputSchema: .*\.refine\(\)/);
  });
});

describe('valibot constructs the JSON Schema cannot carry are refused at construction', () => {
  test('a schema not wrapped by toStandardJsonSchema is refused, saying how to wrap it', () => {
    expectRefused(v.object({ a: v.string() }), /toStandardJsonSchema/);
  });

  test('a check action is refused with the reason valibot gives', () => {
    const schema = v.object({
      a: v.pipe(
        v.string(),
        v.check((s) => s !== 'x'),
      ),
    });
    expectRefused(toStandardJsonSchema(schema), /input side\): The "check" action/);
  });

  test('a transform action is refused, found on the output side', () => {
    const schema = v.object({
      a: v.pipe(
        v.string(),
        v.transform((s) => s.length),
      ),
    });
    expectRefused(toStandardJsonSchema(schema), /output side\): The "transform" action/);
  });

  test('an optional with a default is refused as a default, saying to default in the handler instead', () => {
    expectRefused(
      toStandardJsonSchema(v.object({ a: v.optional(v.string(), 'x') })),
      /default at #\/properties\/a; .*: make the field optional and give the default where the handler reads the argument/,
    );
  });
});

describe('ArkType constructs the JSON Schema cannot carry are refused at construction', () => {
  test('a .narrow() is refused as having no JSON Schema form', () => {
    expectRefused(
      type({ a: type('string').narrow((s) => s !== 'x') }),
      /a \.narrow\(\) has no JSON Schema form/,
    );
  });

  test('a morph is refused as changing the value', () => {
    expectRefused(type({ a: type('string').pipe((s) => s.length) }), /morph .* changes the value/);
  });

  test('a default is refused as changing the value, saying to write the key optional instead', () => {
    expectRefused(
      type({ a: 'string = "x"' }),
      /or default changes the value .*\(for a default, write the key optional, as "days\?": "number", and give the default where the handler reads the argument/,
    );
  });
});

describe('any Standard JSON Schema library', () => {
  /** A hand-made library: what it converts to is all Palisade can know of it. */
  function library(input: () => Record<string, unknown>, output = input): ToolSchema {
    return {
      '~standard': {
        version: 1,
        vendor: 'hand-made',
        validate: () => {
          throw new Error('validate must never be called');
        },
        jsonSchema: { input, output },
      },
    } as ToolSchema;
  }

  test('a schema the library converts is listed exactly as converted', async () => {
    const json = { type: 'object', properties: { a: { type: 'string', maxLength: 3 } }, required: ['a'] };
    const peer = serveInProcess(serverWith(library(() => structuredClone(json))));
    const listed = await peer.request(modern(1, 'tools/list'));
    await peer.close();
    expect((listed['result'] as { tools: { inputSchema: unknown }[] }).tools[0]?.inputSchema).toEqual(json);
  });

  test('the converted schema is enforced and the library validate is never called', async () => {
    const json = { type: 'object', properties: { a: { type: 'string', maxLength: 3 } }, required: ['a'] };
    const peer = serveInProcess(serverWith(library(() => structuredClone(json))));
    const refused = await peer.request(modern(1, 'tools/call', { name: 't', arguments: { a: 'long' } }));
    const accepted = await peer.request(modern(2, 'tools/call', { name: 't', arguments: { a: 'ok' } }));
    await peer.close();
    expect(refused['result']).toMatchObject({ isError: true });
    expect(accepted['result']).toMatchObject({ content: [] });
    expect(accepted['result']).not.toHaveProperty('isError');
  });

  test('a schema whose output side does not convert is refused as a transform would be', () => {
    const schema = library(
      () => ({ type: 'object' }),
      () => {
        throw new Error('no output form');
      },
    );
    expectRefused(schema, /output side\): no output form/);
  });

  test('a default in the converted schema is refused, naming where it is', () => {
    const schema = library(() => ({ type: 'object', properties: { n: { type: 'number', default: 1 } } }));
    expectRefused(schema, /declares a default at #\/properties\/n/);
  });

  test('a property named default is a name, not a default', () => {
    const schema = library(() => ({ type: 'object', properties: { default: { type: 'number' } } }));
    expect(() => serverWith(schema)).not.toThrow();
  });

  test('a Standard Schema without the JSON Schema converter is refused', () => {
    const schema = { '~standard': { version: 1, vendor: 'bare', validate: () => ({ value: {} }) } };
    expectRefused(schema, /without the Standard JSON Schema converter/);
  });

  test('what the converter returns must still be plain JSON data inside the schema bounds', () => {
    const error = refusal(library(() => ({ type: 'object', properties: { a: new Date(0) } })));
    expect(error.code).toBe('PALISADE_ERR_SCHEMA_INVALID');
    expect(error.message).toContain('tool "t" inputSchema');
  });
});
