#!/usr/bin/env node
/**
 * The client program the official conformance suite drives (`conformance client --command ...`):
 * palisade-mcp-client with its defaults, doing what a scenario asks of a client. The suite
 * appends the mock server's URL and names the scenario, the revision and any context
 * (credentials, tool calls) in the environment. Nothing here is tuned per scenario but what a
 * host would configure: which revision it wants, the handlers it answers input with, the OAuth
 * client it authorizes with; the scenario name picks only what to do once connected.
 */
import { createClient, httpTransport, type JsonObject, type Tool } from 'palisade-mcp-client';
import { authFor } from './auth.js';

const url = process.argv[process.argv.length - 1] ?? '';
const scenario = process.env['MCP_CONFORMANCE_SCENARIO'] ?? '';
const revision = process.env['MCP_CONFORMANCE_PROTOCOL_VERSION'] ?? '2025-11-25';
const context = JSON.parse(process.env['MCP_CONFORMANCE_CONTEXT'] ?? '{}') as JsonObject;

/** Arguments for a tool from its schema's required properties (the suite's tools take plain ones). */
function argumentsFor(tool: Tool): JsonObject {
  const properties = (tool.inputSchema['properties'] ?? {}) as Record<string, { type?: string }>;
  const required = (tool.inputSchema['required'] ?? []) as string[];
  const args: JsonObject = {};
  for (const name of required) {
    const type = properties[name]?.type;
    args[name] =
      type === 'number' || type === 'integer'
        ? 1
        : type === 'boolean'
          ? true
          : type === 'object'
            ? {}
            : 'test';
  }
  return args;
}

async function main(): Promise<void> {
  const revisions = revision === '2026-07-28' ? ['2026-07-28'] : [revision];
  const auth = scenario.startsWith('auth/') ? authFor(scenario, context) : undefined;
  const client = createClient({
    transport: httpTransport(url, { ...(auth === undefined ? {} : { auth }) }),
    clientInfo: { name: 'palisade-conformance-client', version: '0.1.0' },
    revisions,
    onElicitation: () => ({ action: 'accept', content: {} }),
    onSampling: () => ({ role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'conformance' }),
    roots: [{ uri: 'file:///tmp/conformance', name: 'conformance' }],
  });
  try {
    const server = await client.connect();
    const calls = context['toolCalls'];
    const tools = await client.listAllTools();
    if (scenario === 'json-schema-2020-12-preservation') {
      // The scenario reads back what the client kept of a listed tool's inputSchema: sent as listed.
      const focal = tools.find((tool) => tool.name === 'json_schema_2020_12_tool');
      if (focal !== undefined) await client.callTool('json_schema_echo', { schema: focal.inputSchema });
      return;
    }
    if (Array.isArray(calls)) {
      for (const call of calls as { name: string; arguments: JsonObject }[]) {
        await client.callTool(call.name, call.arguments).catch((error: unknown) => report(error));
      }
      return;
    }
    for (const tool of tools) {
      await client.callTool(tool.name, argumentsFor(tool)).catch((error: unknown) => report(error));
    }
    const capabilities = server.capabilities;
    if (capabilities['resources'] !== undefined) {
      const resources = await client.listResources().catch(() => undefined);
      const first = resources?.items[0];
      if (first !== undefined) await client.readResource(first.uri).catch((error: unknown) => report(error));
    }
    if (capabilities['prompts'] !== undefined) {
      const prompts = await client.listPrompts().catch(() => undefined);
      const first = prompts?.items[0];
      if (first !== undefined) await client.getPrompt(first.name).catch((error: unknown) => report(error));
    }
  } finally {
    await client.close();
  }
}

function report(error: unknown): void {
  const code = (error as { code?: unknown }).code;
  process.stderr.write(
    `palisade-conformance-client: ${String(code)}: ${error instanceof Error ? error.message : String(error)}\n`,
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    report(error);
    process.exit(1);
  },
);
