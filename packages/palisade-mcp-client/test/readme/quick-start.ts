import { createClient, httpTransport } from 'palisade-mcp-client';

/** Connects to an MCP server over HTTP, calls its `echo` tool and returns the text it answers. */
export async function echo(url: string, text: string): Promise<string> {
  const client = createClient({ transport: httpTransport(url) });
  try {
    const server = await client.connect(); // server/discover on 2026-07-28, else initialize
    console.log(`connected to ${server.serverInfo?.name} over ${server.revision}`);
    const result = await client.callTool('echo', { text });
    return result.content.map((part) => (part.type === 'text' ? String(part['text']) : '')).join('');
  } finally {
    await client.close();
  }
}
