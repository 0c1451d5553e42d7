// The official SDK v2 with the same tool over stdio, as its README writes a server: McpServer,
// registerTool with the same JSON Schema (fromJsonSchema), StdioServerTransport.
import { fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { ECHO_SCHEMA } from './echo-schema.mjs';

const server = new McpServer({ name: 'one-tool', version: '1.0.0' });
server.registerTool(
  'echo',
  { description: 'Returns its text argument unchanged.', inputSchema: fromJsonSchema(ECHO_SCHEMA) },
  ({ text }) => ({ content: [{ type: 'text', text }] }),
);
await server.connect(new StdioServerTransport());
