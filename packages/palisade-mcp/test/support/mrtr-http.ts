/**
 * A 2026-07-28 HTTP peer for the MRTR tests: the real handler on a real socket (127.0.0.1, port
 * 0), `authorize` admitting every request with `{ user: <X-User header> }` as its auth, and each
 * request written as raw bytes with the headers a 2026 client sends.
 */
import { createHttpHandler } from '../../src/http/handler.js';
import { createServer, type ServerDefinition } from '../../src/index.js';
import { exchange, type Json, type Mounted, mount, post } from './http-peer.js';

export interface MrtrPeer {
  readonly faults: string[];
  call(method: string, params: Json, options?: CallOptions): Promise<{ status: number; body: Json }>;
  close(): Promise<void>;
}

export interface CallOptions {
  /** This request's `clientCapabilities`; default none (`{}`). */
  readonly capabilities?: Json;
  readonly user?: string;
  readonly id?: number;
}

export async function mountMrtr(definition: ServerDefinition): Promise<MrtrPeer> {
  const faults: string[] = [];
  const handler = createHttpHandler(createServer(definition), {
    authorize: (request) => ({ ok: true, auth: { user: request.headers['x-user'] ?? 'anonymous' } }),
    allowedOrigins: ['http://app.example'],
    allowedHosts: ['127.0.0.1'],
    onLog: () => {},
    onFault: (description) => faults.push(description),
  });
  const mounted: Mounted = await mount(handler);
  let next = 1;
  return {
    faults,
    async call(method, params, options = {}) {
      const id = options.id ?? next++;
      const meta = {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': options.capabilities ?? {},
      };
      const body = JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } });
      const name = params['name'] ?? params['uri'];
      const headers: Json = { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': method };
      if (typeof name === 'string') headers['Mcp-Name'] = name;
      if (options.user !== undefined) headers['X-User'] = options.user;
      const response = await exchange(mounted.port, post(body, headers));
      response.client.end();
      return { status: response.status, body: JSON.parse(response.body) as Json };
    },
    close: () => mounted.close(),
  };
}

/** Everything a client may ask for in one request. */
export const ALL_CAPABILITIES: Json = { elicitation: {}, sampling: {}, roots: {} };
