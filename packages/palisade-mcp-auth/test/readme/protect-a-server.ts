import { createServer as createNodeServer } from 'node:http';
import { createServer } from 'palisade-mcp';
import { createHttpHandler } from 'palisade-mcp/http';
import { bearer, protectedResourceMetadata } from 'palisade-mcp-auth';

const resource = 'https://mcp.example.com/mcp'; // this server's canonical URI (RFC 8707)
const issuer = 'https://auth.example.com'; // the authorization server

const server = createServer({
  name: 'files',
  version: '1.0.0',
  tools: [
    /* ... */
  ],
});
const handler = createHttpHandler(server, {
  ...bearer({ resource, issuer, scopes: { required: ['mcp:tools'] } }),
  allowedOrigins: [],
  allowedHosts: ['mcp.example.com'],
  path: '/mcp',
});
const metadata = protectedResourceMetadata({
  resource,
  authorizationServers: [issuer],
  scopesSupported: ['mcp:tools'],
});
createNodeServer((req, res) => metadata.node(req, res) || handler(req, res)).listen(3000);
