/**
 * An MCP server mounted in Express 5 behind a bearer-token `authorize`, beside an ordinary route.
 *
 *   MCP_TOKEN=change-me npx tsx examples/express-bearer/server.ts      (PORT=3001 by default)
 *
 * `authorize` runs before a byte of the body is read: a caller without the token costs the
 * server one request head and is answered 401 with `WWW-Authenticate`. The token is compared as
 * SHA-256 digests with `timingSafeEqual`, so neither its length nor its prefix leaks through
 * timing. `hostAllowList()` guards every route of the app, not only /mcp, against DNS rebinding.
 * No body parser runs in front of /mcp: Palisade reads the body itself, under its bounds.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import express from 'express';
import { createServer, defineTool } from 'palisade-mcp';
import {
  type AuthorizeRequest,
  type AuthorizeResult,
  createHttpHandler,
  hostAllowList,
} from 'palisade-mcp/http';
import { z } from 'zod';

const token = process.env['MCP_TOKEN'];
if (token === undefined || token.length < 8) {
  process.stderr.write('set MCP_TOKEN to a secret of at least 8 characters\n');
  process.exit(2);
}
const expected = createHash('sha256').update(token).digest();

function authorize(request: AuthorizeRequest): AuthorizeResult {
  const header = request.headers['authorization'];
  const given = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7) : '';
  const digest = createHash('sha256').update(given).digest();
  if (given !== '' && timingSafeEqual(digest, expected))
    return { ok: true, auth: { subject: 'token-holder' } };
  return {
    ok: false,
    status: 401,
    headers: { 'www-authenticate': 'Bearer realm="mcp"' },
    reason: given === '' ? 'no bearer token' : 'wrong bearer token',
  };
}

const server = createServer({
  name: 'express-bearer',
  version: '1.0.0',
  tools: [
    defineTool({
      name: 'whoami',
      description: 'Says who the server thinks is calling.',
      inputSchema: z.strictObject({}),
      handler: (_args, ctx) => ({ content: [{ type: 'text', text: JSON.stringify(ctx.auth) }] }),
    }),
  ],
});

const app = express();
app.use(hostAllowList()); // loopback names by default: pass { allowedHosts } when serving a real name
app.get('/health', (_req, res) => {
  res.json({ ok: true });
});
app.post(
  '/mcp',
  createHttpHandler(server, {
    authorize,
    allowedOrigins: [],
    allowedHosts: ['localhost', '127.0.0.1', '::1'],
  }),
);

const listener = app.listen(Number(process.env['PORT'] ?? 3001), '127.0.0.1', () => {
  const address = listener.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  process.stderr.write(`MCP server at http://127.0.0.1:${port}/mcp\n`);
});
