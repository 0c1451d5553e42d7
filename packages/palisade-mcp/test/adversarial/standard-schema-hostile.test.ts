/**
 * Informational finding of the adversarial review: a Standard Schema whose properties throw when
 * read (a `~standard` getter, a getter on the converter's result) escaped construction as the raw
 * error, its text shown, rather than as PALISADE_ERR_SCHEMA_NOT_CONVERTIBLE. Now it is refused
 * with a fixed reason, naming the tool and the schema as every conversion refusal does.
 */
import { expect, test } from 'vitest';
import { createServer, defineTool } from '../../src/index.js';

const HOST_TEXT = 'SECRET-HOST-TEXT';

function refusalOf(inputSchema: unknown): unknown {
  try {
    createServer({
      name: 'adversarial',
      version: '1',
      // biome-ignore lint/suspicious/noExplicitAny: the point is a schema no type admits
      tools: [defineTool({ name: 't', inputSchema: inputSchema as any, handler: () => ({ content: [] }) })],
    });
  } catch (error) {
    return error;
  }
  return undefined;
}

function expectFixedRefusal(error: unknown): void {
  expect(error).toMatchObject({ code: 'PALISADE_ERR_SCHEMA_NOT_CONVERTIBLE' });
  expect(String((error as Error).message)).toContain('tool "t" inputSchema');
  expect(String((error as Error).message)).not.toContain(HOST_TEXT);
}

test('a ~standard getter that throws is refused as not convertible, without its text', () => {
  const schema = {
    get '~standard'(): never {
      throw new Error(HOST_TEXT);
    },
  };
  expectFixedRefusal(refusalOf(schema));
});

test('a converter result whose getter throws is refused as not convertible, without its text', () => {
  const result = {
    type: 'object',
    get properties(): never {
      throw new Error(HOST_TEXT);
    },
  };
  const converter = { input: () => result, output: () => ({ type: 'object' }) };
  const schema = {
    '~standard': { version: 1, vendor: 'hostile', validate: () => ({ value: {} }), jsonSchema: converter },
  };
  expectFixedRefusal(refusalOf(schema));
});
