/**
 * Adversarial: a Standard Schema whose converted JSON Schema admits arguments the library itself
 * refuses, so a handler written against the library's type receives what it was never meant to.
 * Each case is a real zod 4 schema served over a real socket; the handler records what it got.
 * The library's own `safeParse` is the oracle for what its author expected to be refused.
 */
import { afterEach, expect, test } from 'vitest';
import { z } from 'zod';
import { createHttpHandler } from '../../src/http/node/handler.js';
import { createServer, defineTool } from '../../src/index.js';
import { ADMIT_ALL, exchange, type Mounted, modernRequest, mount, post } from '../support/http-peer.js';

const opened: Mounted[] = [];
afterEach(async () => {
  for (const mounted of opened.splice(0)) await mounted.close();
});

/** Serves one zod tool `t` and calls it with `args`; returns what the handler received, if anything. */
async function callWith(inputSchema: z.ZodType, args: Record<string, unknown>): Promise<unknown[]> {
  const received: unknown[] = [];
  const server = createServer({
    name: 'adversarial',
    version: '1',
    tools: [
      defineTool({
        name: 't',
        inputSchema: inputSchema as z.ZodObject,
        handler: (got) => {
          received.push(got);
          return { content: [] };
        },
      }),
    ],
  });
  const mounted = await mount(createHttpHandler(server, ADMIT_ALL));
  opened.push(mounted);
  const call = modernRequest(1, 'tools/call', { name: 't', arguments: args });
  const reply = await exchange(mounted.port, post(call.body, call.headers));
  reply.client.end();
  return received;
}

test('an argument a plain zod .regex() refuses never reaches the handler (control)', async () => {
  const schema = z.object({ slug: z.string().regex(/^[a-z]+$/) });
  const args = { slug: '../../etc/passwd' };
  expect(schema.safeParse(args).success).toBe(false);
  expect(await callWith(schema, args)).toEqual([]);
});

/** Builds a server holding one zod tool `t`: throws what construction refuses. */
function construct(inputSchema: z.ZodType): void {
  createServer({
    name: 'adversarial',
    version: '1',
    tools: [
      defineTool({ name: 't', inputSchema: inputSchema as z.ZodObject, handler: () => ({ content: [] }) }),
    ],
  });
}

const NOT_CONVERTIBLE = expect.objectContaining({ code: 'PALISADE_ERR_SCHEMA_NOT_CONVERTIBLE' });

// Was a hole. zod's converter writes a regex's source as `pattern` and drops its flags. With `y`
// (sticky) zod's test is anchored at index 0; the JSON Schema pattern is not, so `[a-z]+$`
// admitted any string that merely ends in letters (`../../etc/passwd`, which zod refuses). A zod
// regex carrying any flag but `u` is now refused at construction, as valibot's own converter
// refuses flags ("RegExp flags are not supported by JSON Schema").
test('a zod .regex() with the sticky flag is refused at construction', { tags: ['threat-model'] }, () => {
  const schema = z.object({ slug: z.string().regex(/[a-z]+$/y) });
  expect(schema.safeParse({ slug: '../../etc/passwd' }).success).toBe(false);
  expect(() => construct(schema)).toThrow(NOT_CONVERTIBLE);
});

test('a zod .regex() with the u flag is carried and enforced', async () => {
  const schema = z.object({ c: z.string().regex(/^.$/u) });
  expect(await callWith(schema, { c: 'ab' })).toEqual([]);
  expect(await callWith(schema, { c: '\u{1F600}' })).toEqual([{ c: '\u{1F600}' }]);
});

// Was a hole. z.success(inner) takes what `inner` takes and outputs a boolean; zod's converter
// describes the boolean on the input side too, so the typed handler (`{ ok: string }`) was handed
// `true`. The `success` node is a value change like `transform`, refused at construction with
// PALISADE_ERR_SCHEMA_NOT_CONVERTIBLE (ZOD_NODES in standard-schema-vendors.ts).
test('a z.success() field is refused at construction', { tags: ['threat-model'] }, () => {
  expect(() =>
    createServer({
      name: 'adversarial',
      version: '1',
      tools: [
        defineTool({
          name: 't',
          inputSchema: z.object({ ok: z.success(z.string()) }),
          handler: () => ({ content: [] }),
        }),
      ],
    }),
  ).toThrow(expect.objectContaining({ code: 'PALISADE_ERR_SCHEMA_NOT_CONVERTIBLE' }));
});

// Was a hole. JSON Schema patterns are ECMA-262 with the `u` flag, where `.` is one code point;
// a flagless zod regex's `.` is one UTF-16 unit. `^.$` admitted an astral character (two units)
// that zod refuses, and `[^x]`, `\S` and friends widen the same way. A flagless zod regex is now
// refused at construction unless nothing in its source could read otherwise in u mode.
test.each([/^.$/, /^[^x]$/, /^\S$/])(
  'a flagless zod .regex() %s, which reads otherwise in u mode, is refused at construction',
  { tags: ['threat-model'] },
  (pattern) => {
    const schema = z.object({ c: z.string().regex(pattern) });
    expect(schema.safeParse({ c: '\u{1F600}' }).success).toBe(false);
    expect(() => construct(schema)).toThrow(NOT_CONVERTIBLE);
  },
);

test('a flagless zod .regex() that reads the same in u mode is carried and enforced', async () => {
  // An escaped `.` and a `.` inside a class are literal dots in both modes.
  const schema = z.object({ file: z.string().regex(/^[a-z.]+\.json$/) });
  expect(await callWith(schema, { file: '../etc/passwd' })).toEqual([]);
  expect(await callWith(schema, { file: 'a.b.json' })).toEqual([{ file: 'a.b.json' }]);
});
