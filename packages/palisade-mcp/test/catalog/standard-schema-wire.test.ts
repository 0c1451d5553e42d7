/**
 * Tools declared with zod, valibot and ArkType, served over a spawned stdio process and over a
 * real socket, called by the official SDK clients: what `tools/list` advertises is the converted
 * JSON Schema, and a call outside it is refused before the handler runs, as any tool's is: a
 * tool error `Invalid arguments: …` (the spec has argument errors reported as tool errors, so
 * the model can see and correct them), never -32602, which Palisade keeps for malformed params.
 */
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHttpHandler } from '../../src/http/node/handler.js';
import { countInput, echoInput, greetInput, greetOutput, typedServer } from '../fixtures/typed-tools.js';
import { bundledFixture } from '../support/fixture-bundles.js';
import { ADMIT_ALL, type Mounted, mount } from '../support/http-peer.js';

/** What the library itself converts the schema to, as a plain object. */
function converted(schema: {
  '~standard': { jsonSchema: { input(options: { target: string }): Record<string, unknown> } };
}): Record<string, unknown> {
  return { ...schema['~standard'].jsonSchema.input({ target: 'draft-2020-12' }) };
}

/** The refusal of arguments outside the schema, as the handler never answers. */
function expectInvalidArguments(called: unknown, message: RegExp): void {
  const result = called as { isError?: unknown; content?: unknown };
  expect(result.isError).toBe(true);
  const [block] = result.content as { type: string; text: string }[];
  expect(block?.text).toMatch(/^Invalid arguments: /);
  expect(block?.text).toMatch(message);
}

describe('a zod tool over stdio with the 2.x SDK client', () => {
  let client: ClientV2;
  beforeAll(async () => {
    client = new ClientV2({ name: 'typed-stdio', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bundledFixture('serve-typed')],
        stderr: 'pipe',
      }),
    );
  });
  afterAll(async () => {
    await client.close();
  });

  test('tools/list advertises the JSON Schema zod converts the input and output schemas to', async () => {
    const { tools } = await client.listTools();
    const greet = tools.find((tool) => tool.name === 'greet');
    expect(greet?.inputSchema).toEqual(converted(greetInput));
    expect(greet?.outputSchema).toEqual(converted(greetOutput));
  });

  test('a call inside the schema reaches the handler with its arguments', async () => {
    const result = await client.callTool({ name: 'greet', arguments: { name: 'ada', times: 2 } });
    expect(result.structuredContent).toEqual({ greeting: 'hello ada, hello ada' });
  });

  test('a call outside the converted schema is refused before the handler runs', async () => {
    const result = await client.callTool({ name: 'greet', arguments: { name: 'ada', times: 1.5 } });
    expectInvalidArguments(result, /times/);
  });
});

describe('valibot and ArkType tools over HTTP with the 1.x SDK client', () => {
  let mounted: Mounted;
  let client: ClientV1;
  beforeAll(async () => {
    mounted = await mount(createHttpHandler(typedServer(), ADMIT_ALL));
    client = new ClientV1({ name: 'typed-http', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${mounted.port}/mcp`)));
  });
  afterAll(async () => {
    await client.close();
    await mounted.close();
  });

  test('tools/list advertises what valibot and ArkType convert their schemas to', async () => {
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === 'count')?.inputSchema).toEqual(converted(countInput));
    expect(tools.find((tool) => tool.name === 'echo')?.inputSchema).toEqual(converted(echoInput));
  });

  test('a valibot tool called outside its schema is refused before the handler runs', async () => {
    const items = ['a', 'b', 'c', 'd', 'e', 'f'];
    expectInvalidArguments(await client.callTool({ name: 'count', arguments: { items } }), /items/);
  });

  test('an ArkType tool called outside its schema is refused before the handler runs', async () => {
    const text = 'x'.repeat(101);
    expectInvalidArguments(await client.callTool({ name: 'echo', arguments: { text } }), /text/);
  });

  test('an ArkType tool called inside its schema answers', async () => {
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    expect(result.content).toEqual([{ type: 'text', text: 'hi' }]);
  });
});
