/**
 * A 2026-07-28 HTTP peer whose requests carry a user: the real handler on a real socket
 * (127.0.0.1, port 0), `authorize` admitting every request with `{ user: <X-User header> }` as its
 * auth, and each request written as raw bytes with the headers a 2026 client sends (`Mcp-Name`
 * mirrors `params.name`, `params.uri` or `params.taskId`, whichever the method carries).
 * The MRTR and tasks tests (mrtr-http.ts, tasks-http.ts) each set its default capabilities.
 */
import { createHttpHandler } from '../../src/http/node/handler.js';
import { createServer, type ServerDefinition } from '../../src/index.js';
import { exchange, type Json, type Mounted, mount, post } from './http-peer.js';

export interface UserCallOptions {
  /** This request's `clientCapabilities`; default the peer's own. */
  readonly capabilities?: Json;
  readonly user?: string;
  readonly id?: number;
  /** Extra or overriding header lines. */
  readonly headers?: Json;
}

export interface UserPeer {
  readonly faults: string[];
  /** The response body exactly as sent, and parsed. */
  call(
    method: string,
    params: Json,
    options?: UserCallOptions,
  ): Promise<{ status: number; raw: string; body: Json }>;
  close(): Promise<void>;
}

export async function mountUserPeer(
  definition: ServerDefinition,
  defaultCapabilities: Json,
): Promise<UserPeer> {
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
        'io.modelcontextprotocol/clientCapabilities': options.capabilities ?? defaultCapabilities,
      };
      const body = JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } });
      const name = params['name'] ?? params['uri'] ?? params['taskId'];
      const headers: Json = { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': method };
      if (typeof name === 'string') headers['Mcp-Name'] = name;
      if (options.user !== undefined) headers['X-User'] = options.user;
      const response = await exchange(mounted.port, post(body, { ...headers, ...options.headers }));
      response.client.end();
      return { status: response.status, raw: response.body, body: JSON.parse(response.body) as Json };
    },
    close: () => mounted.close(),
  };
}
