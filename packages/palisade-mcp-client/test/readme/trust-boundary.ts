import { type ConsentHandler, createClient, httpTransport } from 'palisade-mcp-client';

/** Asks the user once per origin; a grant lasts an hour. Anything but a yes blocks the request. */
export function askTheUser(confirm: (question: string) => Promise<boolean>): ConsentHandler {
  return async ({ origin, purpose }) =>
    (await confirm(`Allow this MCP client to reach ${origin} (${purpose})?`)) ? { ttl: 3600 } : 'deny';
}

export function remoteClient(url: string, confirm: (question: string) => Promise<boolean>) {
  return createClient({
    transport: httpTransport(url, {
      headers: { authorization: `Bearer ${process.env['MCP_TOKEN'] ?? ''}` },
      // Exempt from stripping and consent: these hosts, and any subdomain of example.com.
      trustedOrigins: ['localhost', '127.0.0.1', '::1', '*.example.com'],
      // Stripped for every other origin, besides the five built in.
      credentialHeaders: ['x-tenant-key'],
      consent: askTheUser(confirm),
      // Where the loud part goes: each strip or block, once per origin, naming the option to set.
      onWarning: ({ code, message }) => console.warn(code, message),
    }),
  });
}
