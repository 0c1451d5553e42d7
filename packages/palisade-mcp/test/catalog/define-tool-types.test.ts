/**
 * The handler's types come from the schema: checked by `tsc -p tsconfig.json` (part of `npm
 * test`), which fails on a wrong use below that is not refused, as each `@ts-expect-error` then
 * has no error to expect. The runtime assertions only keep vitest from calling the file empty.
 */
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expect, expectTypeOf, test } from 'vitest';
import { z } from 'zod';
import { defineTool, type InferSchemaInput, type ToolDefinition } from '../../src/index.js';

const input = z.object({ city: z.string(), days: z.number().int().optional() });
const output = z.object({ forecast: z.array(z.string()) });

describe('defineTool types a handler from its schemas', () => {
  test('zod input: args are what the schema admits, and a wrong use fails to compile', () => {
    const tool = defineTool({
      name: 'weather',
      inputSchema: input,
      handler: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ city: string; days?: number | undefined }>();
        // @ts-expect-error `city` is a string, not a number
        const wrong: number = args.city;
        // @ts-expect-error no `country` in the schema
        void args.country;
        return { content: [{ type: 'text', text: `${args.city}${wrong}` }] };
      },
    });
    expectTypeOf(tool).toEqualTypeOf<ToolDefinition<never>>();
    expect(tool.name).toBe('weather');
  });

  test('zod output: structuredContent must be what the outputSchema admits', () => {
    const ok = defineTool({
      name: 'forecast',
      inputSchema: input,
      outputSchema: output,
      handler: () => ({ structuredContent: { forecast: ['sun'] } }),
    });
    defineTool({
      name: 'forecast',
      inputSchema: input,
      outputSchema: output,
      // @ts-expect-error `forecast` must be an array of strings
      handler: () => ({ structuredContent: { forecast: 'sun' } }),
    });
    expect(ok.name).toBe('forecast');
  });

  test('valibot and ArkType inputs type the args the same way', () => {
    const valibot = toStandardJsonSchema(v.object({ tags: v.array(v.string()) }));
    const arktype = type({ id: 'number', 'note?': 'string' });
    expectTypeOf<InferSchemaInput<typeof valibot>>().toEqualTypeOf<{ tags: string[] }>();
    expectTypeOf<InferSchemaInput<typeof arktype>>().toEqualTypeOf<{ id: number; note?: string }>();
    defineTool({
      name: 'tags',
      inputSchema: valibot,
      // @ts-expect-error `tags` is an array, not a string
      handler: ({ tags }: { tags: string }) => ({ content: [{ type: 'text', text: tags }] }),
    });
    const tool = defineTool({
      name: 'note',
      inputSchema: arktype,
      handler: ({ id, note }) => ({ content: [{ type: 'text', text: `${id.toFixed(0)}${note ?? ''}` }] }),
    });
    expect(tool.name).toBe('note');
  });

  test('a schema whose input is not an object does not compile as a tool schema', () => {
    // @ts-expect-error a tool's arguments are an object
    defineTool({ name: 's', inputSchema: z.string(), handler: () => ({}) });
    expect(true).toBe(true);
  });

  // A handler that declares its parameter: with none, the compiler reads the body before it has
  // settled the schemas' types, and `new Promise` then needs its type argument (docs/tools.md).
  test('a handler returning new Promise(...) is typed from the result, with or without an outputSchema', () => {
    const plain = defineTool({
      name: 'later',
      inputSchema: input,
      handler: (args) => new Promise((resolve) => resolve({ content: [{ type: 'text', text: args.city }] })),
    });
    const typed = defineTool({
      name: 'later',
      inputSchema: input,
      outputSchema: output,
      handler: (_args) => new Promise((resolve) => resolve({ structuredContent: { forecast: [] } })),
    });
    expect([plain.name, typed.name]).toEqual(['later', 'later']);
  });

  test('plain JSON Schema still takes the type the host names', () => {
    const tool = defineTool<{ text: string }>({
      name: 'echo',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      handler: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ text: string }>();
        return { content: [{ type: 'text', text: args.text }] };
      },
    });
    expect(tool.name).toBe('echo');
  });
});
