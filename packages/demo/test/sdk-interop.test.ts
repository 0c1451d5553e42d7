/**
 * The demo, exactly as `npm start -- --stdio` runs it (the built `dist/main.js`), driven over its
 * real stdio pipes by the official TypeScript SDK clients: 1.x, and 2.x in both eras.
 */
import { fileURLToPath } from 'node:url';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioTransportV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, test } from 'vitest';

const DEMO = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const SERVER = { command: process.execPath, args: [DEMO, '--stdio'], stderr: 'pipe' as const };

const TOOL_NAMES = [
  'add',
  'count',
  'echo',
  'embed_readme',
  'fail',
  'link_readme',
  'play_sound',
  'show_image',
];

interface AnyClient {
  listTools(): Promise<{ tools: Array<{ name: string }> }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<Record<string, unknown>>;
  listResources(): Promise<{ resources: Array<{ uri: string }> }>;
  listResourceTemplates(): Promise<{ resourceTemplates: Array<{ uriTemplate: string }> }>;
  readResource(params: { uri: string }): Promise<{ contents: Array<Record<string, unknown>> }>;
  listPrompts(): Promise<{ prompts: Array<{ name: string }> }>;
  getPrompt(params: { name: string; arguments?: Record<string, string> }): Promise<{ messages: unknown[] }>;
  close(): Promise<void>;
}

const ARGUMENTS: Record<string, Record<string, unknown>> = {
  echo: { text: 'hello' },
  add: { a: 2, b: 40 },
  count: { steps: 2 },
};

async function exerciseEverything(client: AnyClient): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name).sort()).toEqual(TOOL_NAMES);
  for (const tool of tools) {
    const args = ARGUMENTS[tool.name] ?? {};
    if (tool.name === 'fail') {
      // A host fault is a JSON-RPC error (-32603): the SDKs surface it as a rejection.
      await expect(client.callTool({ name: tool.name, arguments: args })).rejects.toThrow(/Internal error/);
      continue;
    }
    const result = await client.callTool({ name: tool.name, arguments: args });
    expect(result['isError']).not.toBe(true);
    expect(Array.isArray(result['content'])).toBe(true);
  }
  expect(await client.callTool({ name: 'echo', arguments: { text: 'hello' } })).toMatchObject({
    content: [{ type: 'text', text: 'hello' }],
  });
  expect(await client.callTool({ name: 'add', arguments: { a: 2, b: 40 } })).toMatchObject({
    structuredContent: { sum: 42 },
  });

  const { resources } = await client.listResources();
  expect(resources.map((resource) => resource.uri).sort()).toEqual(['demo://pixel.png', 'demo://readme']);
  for (const resource of resources) {
    const { contents } = await client.readResource({ uri: resource.uri });
    expect(contents[0]).toMatchObject({ uri: resource.uri });
  }
  const { resourceTemplates } = await client.listResourceTemplates();
  expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(['demo://notes/{id}']);
  const note = await client.readResource({ uri: 'demo://notes/welcome' });
  expect(note.contents[0]).toMatchObject({ text: expect.stringContaining('refuses') });

  const { prompts } = await client.listPrompts();
  expect(prompts.map((prompt) => prompt.name)).toEqual(['greet']);
  const prompt = await client.getPrompt({ name: 'greet', arguments: { name: 'Ada', style: 'formal' } });
  expect(prompt.messages).toHaveLength(1);
}

describe('the demo over stdio with the official SDK clients', () => {
  test('the 1.x client initializes on 2025-11-25 and lists, calls, reads and gets everything', async () => {
    const client = new ClientV1({ name: 'sdk-v1', version: '1.0.0' });
    await client.connect(new StdioTransportV1(SERVER));
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'palisade-demo' });
      await exerciseEverything(client as unknown as AnyClient);
    } finally {
      await client.close();
    }
  });

  test('the 2.x client in its default legacy mode negotiates 2025-11-25 and exercises everything', async () => {
    const client = new ClientV2({ name: 'sdk-v2', version: '2.0.0' });
    await client.connect(new StdioTransportV2(SERVER));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      await exerciseEverything(client as unknown as AnyClient);
    } finally {
      await client.close();
    }
  });

  test('the 2.x client in auto mode discovers 2026-07-28 and exercises everything statelessly', async () => {
    const client = new ClientV2(
      { name: 'sdk-v2', version: '2.0.0' },
      { versionNegotiation: { mode: 'auto' } },
    );
    await client.connect(new StdioTransportV2(SERVER));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      await exerciseEverything(client as unknown as AnyClient);
    } finally {
      await client.close();
    }
  });

  test('the 2.x client pinned to 2026-07-28 connects', async () => {
    const client = new ClientV2(
      { name: 'sdk-v2', version: '2.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(new StdioTransportV2(SERVER));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      const result = await client.callTool({ name: 'echo', arguments: { text: 'pinned' } });
      expect(result).toMatchObject({ content: [{ type: 'text', text: 'pinned' }] });
    } finally {
      await client.close();
    }
  });
});
