import { createServer } from 'palisade-mcp';
import { serve } from 'palisade-mcp/http';
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
const metadata = protectedResourceMetadata({
  resource,
  authorizationServers: [issuer],
  scopesSupported: ['mcp:tools'],
});
await serve(server, {
  ...bearer({ resource, issuer, scopes: { required: ['mcp:tools'] } }),
  allowedOrigins: [],
  allowedHosts: ['mcp.example.com'],
  host: '0.0.0.0', // behind the TLS proxy that answers https://mcp.example.com (or pass `tls`)
  port: 3000,
  routes: metadata.routes, // RFC 9728 metadata at its well-known paths, on the same port as /mcp
});
