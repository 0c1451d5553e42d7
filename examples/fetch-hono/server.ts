/**
 * An MCP server on the Web-standard fetch handler, routed by Hono and served on Node by
 * @hono/node-server. The same `handler(request)` serves Next.js route handlers, Bun and Deno.
 *
 *   npx tsx examples/fetch-hono/server.ts      (PORT=3002 by default)
 *
 * What a fetch runtime cannot give is listed in docs/mounts.md: it owns the socket, so Palisade
 * cannot close the connection after an early refusal or see two Host lines.
 */
import { serve as serveNode } from '@hono/node-server';
import { Hono } from 'hono';
import { createServer, defineTool } from 'palisade-mcp';
import { createFetchHandler } from 'palisade-mcp/fetch';
import { z } from 'zod';

const server = createServer({
  name: 'fetch-hono',
  version: '1.0.0',
  tools: [
    defineTool({
      name: 'add',
      description: 'Adds two integers.',
      inputSchema: z.strictObject({ a: z.number().int(), b: z.number().int() }),
      handler: ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
    }),
  ],
});

const mcp = createFetchHandler(server, {
  authorize: () => ({ ok: true }), // loopback only; check a credential here for anything else
  allowedOrigins: [],
  allowedHosts: ['localhost', '127.0.0.1', '::1'],
});

const app = new Hono();
app.post('/mcp', (c) => mcp(c.req.raw));

serveNode({ fetch: app.fetch, port: Number(process.env['PORT'] ?? 3002), hostname: '127.0.0.1' }, (info) => {
  process.stderr.write(`MCP server at http://127.0.0.1:${info.port}/mcp\n`);
});
