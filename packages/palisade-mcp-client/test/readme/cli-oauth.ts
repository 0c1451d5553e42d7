import { createClient, httpTransport, loopbackRedirect, oauthClient } from 'palisade-mcp-client';

/**
 * A command-line host: the browser step runs on a one-shot listener on 127.0.0.1, `open` starts
 * the user's browser (here, whatever the caller passes), and the tokens stay in memory.
 */
export async function signedInCall(url: string, open: (url: URL) => Promise<void>): Promise<boolean> {
  const redirect = await loopbackRedirect({ open, timeoutMs: 120_000 });
  const auth = oauthClient({ redirectUri: redirect.redirectUri, authorize: redirect.authorize });
  const client = createClient({ transport: httpTransport(url, { auth }) });
  try {
    await client.connect(); // the first 401 starts discovery, registration and the browser step
    const result = await client.callTool('whoami');
    return result.isError !== true;
  } finally {
    await client.close();
    await redirect.close();
  }
}
