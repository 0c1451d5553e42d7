/**
 * The official SDK v2 contenders, served statelessly, imported only by the children that serve
 * them (servers.ts says why).
 */
import { createServer as createHttpServer } from 'node:http';
import {
  localhostHostValidation,
  localhostOriginValidation,
  type NodeIncomingMessageLike,
  NodeStreamableHTTPServerTransport,
  toNodeHandler,
} from '@modelcontextprotocol/node';
import { createMcpHandler, fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import { listen, type ServerSettings, type Started } from './servers.js';
import { ECHO_DESCRIPTION, ECHO_SCHEMA, type Gate, HOLD_DESCRIPTION, HOLD_SCHEMA } from './tools.js';

function sdkServer(gate: Gate): McpServer {
  const server = new McpServer({ name: 'bench', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: ECHO_DESCRIPTION, inputSchema: fromJsonSchema<{ text: string }>(ECHO_SCHEMA) },
    ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  server.registerTool(
    'hold',
    { description: HOLD_DESCRIPTION, inputSchema: fromJsonSchema<{ pad: string }>(HOLD_SCHEMA) },
    async ({ pad }) => {
      await gate.wait();
      return { content: [{ type: 'text', text: String(pad.length) }] };
    },
  );
  return server;
}

// The SDK README's plain node:http wiring: Host and Origin guards in front, as Palisade checks both.
const validateHost = localhostHostValidation();
const validateOrigin = localhostOriginValidation();

/** 2026-07-28: the SDK's stateless entry, a fresh server from the factory per request. */
export function startSdkModern(gate: Gate, settings: ServerSettings): Promise<Started> {
  const handler = toNodeHandler(createMcpHandler(() => sdkServer(gate), { legacy: 'reject' }));
  const server = createHttpServer({ requestTimeout: settings.readTimeoutMs }, (req, res) => {
    if (!validateHost(req, res) || !validateOrigin(req, res)) return;
    // The adapter's structural type predates exactOptionalPropertyTypes; node:http's objects fit it.
    void handler(req as NodeIncomingMessageLike, res);
  });
  return listen(server);
}

/** 2025-11-25: the transport with `sessionIdGenerator: undefined`, JSON answers, a server per request. */
export function startSdkLegacy(gate: Gate, settings: ServerSettings): Promise<Started> {
  const server = createHttpServer({ requestTimeout: settings.readTimeoutMs }, (req, res) => {
    if (!validateHost(req, res) || !validateOrigin(req, res)) return;
    const mcp = sdkServer(gate);
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    mcp
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch(() => res.destroy());
  });
  return listen(server);
}
