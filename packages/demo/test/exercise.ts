/**
 * One walk through everything the demo offers, shared by the stdio and HTTP interop tests: every
 * tool called, every resource and template read, the prompt got. `revision` is the one the client
 * negotiated: before 2025-06-18 a tool result has no `structuredContent` (its JSON is in the text
 * block beside it) and no `resource_link` block. The clients walking declare no capabilities, so
 * `ask_model` and `ask_user` are refused -32021 wherever the demo can ask a client (stdio, a
 * session, 2026-07-28), and answer a tool error naming --sessions where it cannot (`canAsk`
 * false: a handshake revision over stateless HTTP). Their answered flow is proven in
 * sdk-interop-sessions.test.ts.
 */
import { expect } from 'vitest';

const TOOL_NAMES = [
  'add',
  'announce_tools_changed',
  'ask_model',
  'ask_user',
  'count',
  'divide',
  'echo',
  'embed_readme',
  'fail',
  'link_readme',
  'play_sound',
  'show_image',
  'wait',
];

/** The tools that ask the client, so the walk's clients, declaring nothing, cannot answer them. */
const ASKING = new Set(['ask_model', 'ask_user']);

export interface AnyClient {
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
  divide: { a: 84, b: 2 },
  wait: { seconds: 0.01 },
};

export interface Where {
  /** Whether the demo can send this client a request (false: a handshake revision over stateless HTTP). */
  readonly canAsk: boolean;
}

export async function exerciseEverything(
  client: AnyClient,
  revision = '2025-11-25',
  where: Where = { canAsk: true },
): Promise<void> {
  const structured = revision !== '2025-03-26' && revision !== '2024-11-05';
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name).sort()).toEqual(TOOL_NAMES);
  for (const tool of tools) {
    const args = ARGUMENTS[tool.name] ?? {};
    if (tool.name === 'fail') {
      // A host fault is a JSON-RPC error (-32603): the SDKs surface it as a rejection.
      await expect(client.callTool({ name: tool.name, arguments: args })).rejects.toThrow(/Internal error/);
      continue;
    }
    if (ASKING.has(tool.name)) {
      await expectAskRefused(client, tool.name, where);
      continue;
    }
    const result = await client.callTool({ name: tool.name, arguments: args });
    expect(result['isError']).not.toBe(true);
    expect(Array.isArray(result['content'])).toBe(true);
  }
  expect(await client.callTool({ name: 'echo', arguments: { text: 'hello' } })).toMatchObject({
    content: [{ type: 'text', text: 'hello' }],
  });
  const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 40 } });
  if (structured) expect(sum).toMatchObject({ structuredContent: { sum: 42 } });
  else {
    expect(sum['structuredContent']).toBeUndefined();
    expect(sum).toMatchObject({ content: [{ type: 'text', text: '{"sum":42}' }] });
  }
  const link = (await client.callTool({ name: 'link_readme' }))['content'] as Array<{ type: string }>;
  expect(link.map((block) => block.type)).toEqual(structured ? ['resource_link'] : []);
  // A ToolError is a tool result the model can read, not a JSON-RPC error.
  expect(await client.callTool({ name: 'divide', arguments: { a: 1, b: 0 } })).toMatchObject({
    content: [{ type: 'text', text: 'Cannot divide by zero: b must not be 0.' }],
    isError: true,
  });

  expect(await client.callTool({ name: 'wait', arguments: { seconds: 0 } })).toMatchObject({
    content: [{ type: 'text', text: 'Waited 0 s.' }],
  });
  expect(await client.callTool({ name: 'announce_tools_changed' })).toMatchObject({
    content: [{ type: 'text', text: expect.stringContaining('notifications/tools/list_changed') }],
  });

  const { resources } = await client.listResources();
  expect(resources.map((resource) => resource.uri).sort()).toEqual([
    'connectome://declared',
    'connectome://diff',
    'connectome://observed',
    'demo://pixel.png',
    'demo://readme',
  ]);
  for (const resource of resources) {
    const { contents } = await client.readResource({ uri: resource.uri });
    expect(contents[0]).toMatchObject({ uri: resource.uri });
  }
  await expectOwnConnectome(client);
  const { resourceTemplates } = await client.listResourceTemplates();
  expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(['demo://notes/{id}']);
  const note = await client.readResource({ uri: 'demo://notes/welcome' });
  expect(note.contents[0]).toMatchObject({ text: expect.stringContaining('refuses') });

  const { prompts } = await client.listPrompts();
  expect(prompts.map((prompt) => prompt.name)).toEqual(['greet']);
  const prompt = await client.getPrompt({ name: 'greet', arguments: { name: 'Ada', style: 'formal' } });
  expect(prompt.messages).toHaveLength(1);
}

/** A client that declared neither sampling nor elicitation is not asked: -32021, or no way to ask. */
async function expectAskRefused(client: AnyClient, name: string, where: Where): Promise<void> {
  const call = client.callTool({ name, arguments: {} });
  if (where.canAsk) {
    await expect(call).rejects.toThrow(/Missing required client capability/);
    return;
  }
  expect(await call).toMatchObject({
    isError: true,
    content: [{ type: 'text', text: expect.stringContaining('start the demo with --sessions') }],
  });
}

interface DiffRecord {
  readonly schema_version: number;
  readonly classes: Record<string, Array<{ from: string; to: string; kind: string }>>;
}

/** The demo's connectome resources answer canonical JSON, and every tool called above was seen. */
async function expectOwnConnectome(client: AnyClient): Promise<void> {
  const read = async (uri: string): Promise<unknown> => {
    const { contents } = await client.readResource({ uri });
    expect(contents[0]).toMatchObject({ uri, mimeType: 'application/json' });
    return JSON.parse(contents[0]!['text'] as string);
  };
  expect(await read('connectome://declared')).toMatchObject({ schema_version: 3, algorithm: 'sha256' });
  expect(await read('connectome://observed')).toMatchObject({ schema_version: 3, algorithm: 'sha256' });
  const diff = (await read('connectome://diff')) as DiffRecord;
  expect(diff.schema_version).toBe(3);
  const seen = diff.classes['declared_and_observed']!.map((edge) => edge.to);
  for (const name of TOOL_NAMES) expect(seen).toContain(`palisade-demo/tool/${name}`);
  expect(diff.classes['observed_but_undeclared']).toEqual([]);
}
