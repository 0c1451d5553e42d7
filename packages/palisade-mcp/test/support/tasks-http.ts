/**
 * A 2026-07-28 HTTP peer for the tasks tests: the real handler on a real socket (127.0.0.1, port
 * 0), `authorize` admitting every request with `{ user: <X-User header> }` as its auth, and each
 * request written as raw bytes with the headers a 2026 client sends (`Mcp-Name` mirrors
 * `params.taskId` on the tasks methods, as SEP-2663 asks).
 */
import { createHttpHandler } from '../../src/http/handler.js';
import { createServer, type ServerDefinition } from '../../src/index.js';
import { exchange, type Json, type Mounted, mount, post } from './http-peer.js';

export const TASKS_CAPABILITIES: Json = {
  elicitation: {},
  extensions: { 'io.modelcontextprotocol/tasks': {} },
};

export interface TasksPeer {
  readonly faults: string[];
  /** The response body exactly as sent, and parsed. */
  call(
    method: string,
    params: Json,
    options?: { capabilities?: Json; user?: string; id?: number; headers?: Json },
  ): Promise<{ status: number; raw: string; body: Json }>;
  close(): Promise<void>;
}

export async function mountTasks(definition: ServerDefinition): Promise<TasksPeer> {
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
        'io.modelcontextprotocol/clientCapabilities': options.capabilities ?? TASKS_CAPABILITIES,
      };
      const body = JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } });
      const name = params['name'] ?? params['taskId'];
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
