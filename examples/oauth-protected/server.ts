/**
 * A Palisade server that only answers callers holding an access token minted for it, beside a
 * local authorization server to get one from.
 *
 *   npx tsx examples/oauth-protected/server.ts        (PORT=3002 and AS_PORT=3003 by default)
 *
 * `bearer()` verifies each token (ES256 JWT, keys found by RFC 8414 discovery of the issuer, the
 * audience held to this server's URL) and requires the `mcp:tools` scope; the RFC 9728 metadata
 * document, served by serve() beside /mcp on the same port, tells clients where to get a token.
 * It prints the client credentials of the demo client; examples/oauth-protected/README.md has the
 * commands that reach the server.
 */
import { once } from 'node:events';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { createServer, defineTool } from 'palisade-mcp';
import { serve } from 'palisade-mcp/http';
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

/**
 * The port to serve on. The resource URI names it, so it is known before serve() binds it: PORT,
 * or with PORT=0 (as this example's test runs it) one the system has just handed out.
 */
async function portFrom(value: string | undefined): Promise<number> {
  const port = Number(value ?? 3002);
  if (port !== 0) return port;
  const probe = createNetServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const picked = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  return picked;
}

const port = await portFrom(process.env['PORT']);
const resource = `http://127.0.0.1:${port}/mcp`;
const as = await startAuthorizationServer(Number(process.env['AS_PORT'] ?? 3003), resource, SCOPE);
const metadata = protectedResourceMetadata({
  resource,
  authorizationServers: [as.issuer],
  scopesSupported: [SCOPE],
  resourceName: 'Palisade OAuth example',
});
const serving = await serve(server, {
  ...bearer({ resource, issuer: as.issuer, profile: 'rfc9068', scopes: { required: [SCOPE] } }),
  allowedOrigins: [],
  port,
  // The RFC 9728 document at its well-known paths, on this port beside /mcp.
  routes: metadata.routes,
});

process.stderr.write(`authorization server ${as.issuer}\n`);
process.stderr.write(`client credentials ${as.clientId} ${as.clientSecret}\n`);
process.stderr.write(`MCP at ${serving.url}/mcp\n`);
