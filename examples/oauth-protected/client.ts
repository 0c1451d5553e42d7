/**
 * The official SDK's client reaching the example server with client credentials: it is answered
 * 401, reads the metadata, gets a token for this resource from the authorization server, and
 * calls `whoami`.
 *
 *   npx tsx examples/oauth-protected/client.ts MCP_URL CLIENT_ID CLIENT_SECRET ISSUER
 *
 * ISSUER is the authorization server the credentials belong to: the client sends them to no other.
 */
import {
  Client,
  ClientCredentialsProvider,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';

const [url, clientId, clientSecret, expectedIssuer] = process.argv.slice(2);
if (
  url === undefined ||
  clientId === undefined ||
  clientSecret === undefined ||
  expectedIssuer === undefined
) {
  process.stderr.write('usage: client.ts MCP_URL CLIENT_ID CLIENT_SECRET ISSUER\n');
  process.exit(2);
}
const provider = new ClientCredentialsProvider({
  clientId,
  clientSecret,
  expectedIssuer,
  scope: 'mcp:tools',
});
const client = new Client({ name: 'oauth-example-client', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }));
const result = await client.callTool({ name: 'whoami', arguments: {} });
console.log(JSON.stringify(result.content));
await client.close();
