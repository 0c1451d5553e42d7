/**
 * The client against the official SDK v2 server over real sockets: its 2026-07-28 stateless
 * handler, and its Streamable HTTP transport for 2025-11-25 both without sessions (JSON answers)
 * and with them (SSE answers, the session id kept on every request, DELETE on close).
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type NodeIncomingMessageLike,
  NodeStreamableHTTPServerTransport,
  toNodeHandler,
} from '@modelcontextprotocol/node';
import { createMcpHandler, fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, test } from 'vitest';
import { createClient, httpTransport } from '../src/index.js';

function sdkServer(): McpServer {
  const server = new McpServer({ name: 'sdk', version: '2.0.0' });
  server.registerTool(
    'echo',
    {
      description: 'Echoes.',
      inputSchema: fromJsonSchema<{ text: string }>({
        type: 'object',
        properties: { text: { type: 'string' } },
        required: ['text'],
      }),
    },
    ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  return server;
}

const running: Server[] = [];
afterEach(() => {
  for (const server of running.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

async function listen(server: Server): Promise<string> {
  running.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

describe('the official SDK v2 server', () => {
  test('its 2026-07-28 stateless handler is reached through server/discover and serves a tool call', async () => {
    const handler = toNodeHandler(createMcpHandler(() => sdkServer(), { legacy: 'reject' }));
    const url = await listen(createServer((req, res) => void handler(req as NodeIncomingMessageLike, res)));
    const client = createClient({ transport: httpTransport(url) });
    const server = await client.connect();
    const result = await client.callTool('echo', { text: 'modern' });
    await client.close();
    expect(server.revision).toBe('2026-07-28');
    expect(result.content).toEqual([{ type: 'text', text: 'modern' }]);
  });

  test('its 2025-11-25 transport without sessions serves a tool call over JSON answers', async () => {
    const url = await listen(
      createServer((req, res) => {
        const mcp = sdkServer();
        const transport = new NodeStreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: true,
        });
        res.on('close', () => {
          void transport.close();
          void mcp.close();
        });
        void mcp.connect(transport).then(() => transport.handleRequest(req, res));
      }),
    );
    const client = createClient({ transport: httpTransport(url), revisions: ['2025-11-25'] });
    const server = await client.connect();
    const result = await client.callTool('echo', { text: 'legacy' });
    await client.close();
    expect(server.revision).toBe('2025-11-25');
    expect(result.content).toEqual([{ type: 'text', text: 'legacy' }]);
  });

  test('its 2025-11-25 transport with sessions gets the session id on every request and a DELETE on close', async () => {
    const sessions = new Map<string, NodeStreamableHTTPServerTransport>();
    const seen: { method: string; session: string | undefined }[] = [];
    const url = await listen(
      createServer((req: IncomingMessage, res) => {
        const id = req.headers['mcp-session-id'];
        const session = typeof id === 'string' ? id : undefined;
        seen.push({ method: req.method ?? '', session });
        const known = session === undefined ? undefined : sessions.get(session);
        if (known !== undefined) {
          void known.handleRequest(req, res);
          return;
        }
        const transport = new NodeStreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sid) => {
            sessions.set(sid, transport);
          },
        });
        void sdkServer()
          .connect(transport)
          .then(() => transport.handleRequest(req, res));
      }),
    );
    const client = createClient({ transport: httpTransport(url), revisions: ['2025-11-25'] });
    await client.connect();
    const result = await client.callTool('echo', { text: 'session' });
    await client.close();

    expect(result.content).toEqual([{ type: 'text', text: 'session' }]);
    expect(sessions.size).toBe(1);
    const sid = [...sessions.keys()][0];
    expect(seen[0]).toEqual({ method: 'POST', session: undefined });
    // Every later request carries the session the server issued, and close() ends it.
    expect(seen.slice(1).every((request) => request.session === sid)).toBe(true);
    expect(seen.map((request) => request.method)).toContain('DELETE');
  });
});
