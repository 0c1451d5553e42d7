/**
 * A Palisade server that only answers callers holding an access token minted for it, beside a
 * local authorization server to get one from.
 *
 *   npx tsx examples/oauth-protected/server.ts        (PORT=3002 and AS_PORT=3003 by default)
 *
 * `bearer()` verifies each token (ES256 JWT, keys found by RFC 8414 discovery of the issuer, the
 * audience held to this server's URL) and requires the `mcp:tools` scope; the RFC 9728 metadata
 * document beside /mcp tells clients where to get a token. It prints the client credentials of
 * the demo client; examples/oauth-protected/README.md has the commands that reach the server.
 */
import { once } from 'node:events';
import { createServer as createNodeServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer, defineTool } from 'palisade-mcp';
import { createHttpHandler } from 'palisade-mcp/http';
import { bearer, type Principal, protectedResourceMetadata } from 'palisade-mcp-auth';
import { z } from 'zod';
import { startAuthorizationServer } from './authorization-server.ts';

const SCOPE = 'mcp:tools';

const server = createServer({
  name: 'oauth-protected',
  version: '1.0.0',
  tools: [
    defineTool({
      name: 'whoami',
      description: 'Says who the access token was issued to.',
      inputSchema: z.strictObject({}),
      handler: (_args, ctx) => {
        const { subject, clientId, scopes, expiresAt } = ctx.auth as Principal;
        return {
          content: [{ type: 'text', text: JSON.stringify({ subject, clientId, scopes, expiresAt }) }],
        };
      },
    }),
  ],
});

// The resource URI names this server's own port, so the port is bound before the handler exists.
let listener: RequestListener = (_req, res) => res.writeHead(503).end();
const http = createNodeServer((req, res) => listener(req, res));
http.listen(Number(process.env['PORT'] ?? 3002), '127.0.0.1');
await once(http, 'listening');
const resource = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;

const as = await startAuthorizationServer(Number(process.env['AS_PORT'] ?? 3003), resource, SCOPE);
const metadata = protectedResourceMetadata({
  resource,
  authorizationServers: [as.issuer],
  scopesSupported: [SCOPE],
  resourceName: 'Palisade OAuth example',
});
const handler = createHttpHandler(server, {
  ...bearer({ resource, issuer: as.issuer, profile: 'rfc9068', scopes: { required: [SCOPE] } }),
  allowedOrigins: [],
  allowedHosts: ['localhost', '127.0.0.1', '::1'],
  path: '/mcp',
});
listener = (req, res) => metadata.node(req, res) || handler(req, res);

process.stderr.write(`authorization server ${as.issuer}\n`);
process.stderr.write(`client credentials ${as.clientId} ${as.clientSecret}\n`);
process.stderr.write(`MCP at ${resource}\n`);
