/**
 * The conformance fixture as `npm run conformance` builds it (`dist/main.js`), here over its real
 * stdio pipes with the official SDK client: it must offer every name of the suite's fixture
 * contract that today's API expresses, or the suite fails those scenarios for a missing fixture
 * rather than for the behaviour they test.
 */
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const FIXTURE = fileURLToPath(new URL('../dist/main.js', import.meta.url));

/** The contract's names (conformance.md §3) this fixture's basic.ts serves. */
const TOOLS = [
  'test_simple_text',
  'test_image_content',
  'test_audio_content',
  'test_embedded_resource',
  'test_multiple_content_types',
  'test_error_handling',
  'test_tool_with_progress',
  'test_tool_with_logging',
  'test_logging_tool',
  'test_streaming_elicitation',
  'test_x_mcp_header',
];
const PROMPTS = [
  'test_simple_prompt',
  'test_prompt_with_arguments',
  'test_prompt_with_embedded_resource',
  'test_prompt_with_image',
];
const RESOURCES = ['test://static-text', 'test://static-binary', 'test://watched-resource'];

describe('the conformance fixture over stdio', () => {
  const client = new Client({ name: 'fixture-test', version: '1.0.0' });

  beforeAll(async () => {
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [FIXTURE, '--stdio'], stderr: 'pipe' }),
    );
  });
  afterAll(async () => {
    await client.close();
  });

  test('it lists every tool of the contract that today’s API can express', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(TOOLS));
  });

  test('it lists every prompt, resource and the template the suite reads', async () => {
    const { prompts } = await client.listPrompts();
    const { resources } = await client.listResources();
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(prompts.map((prompt) => prompt.name)).toEqual(expect.arrayContaining(PROMPTS));
    expect(resources.map((resource) => resource.uri)).toEqual(expect.arrayContaining(RESOURCES));
    expect(resourceTemplates.map((template) => template.uriTemplate)).toContain('test://template/{id}/data');
  });

  test('test_x_mcp_header advertises its region property mirrored into Mcp-Param-Region', async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((candidate) => candidate.name === 'test_x_mcp_header');
    expect(tool?.inputSchema.properties?.['region']).toEqual({ type: 'string', 'x-mcp-header': 'Region' });
  });
});
