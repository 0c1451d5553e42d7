/**
 * The floor of the wire rules: the bare `node:http` echo plus every per-request check Palisade
 * makes on a tools/call or tools/list, run synchronously with no core, no hooks' promise, no
 * stream writer and no diagnostics: header index, Host, Origin, method, the `authorize` request
 * copy and a synchronous hook, Accept, Content-Type, the bounded JSON reader, the header–body
 * match, the tool's compiled input schema, and the checked encoder for a reply of Palisade's
 * shape. What it costs over bare is what the rules themselves cost; what Palisade costs over it
 * is plumbing. Only started when the bench is asked for it (`--floor`).
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import type { Catalog } from '../../packages/palisade-mcp/dist/catalog/catalog.js';
import { checkModernHeaders, indexHeaders } from '../../packages/palisade-mcp/dist/http/headers/index.js';
import { checkHost, originAllowed } from '../../packages/palisade-mcp/dist/http/host-origin.js';
import { isJsonContentType, readAccept } from '../../packages/palisade-mcp/dist/http/media.js';
import { authorizeRequest } from '../../packages/palisade-mcp/dist/http/node/request.js';
import { createServer, defineTool } from '../../packages/palisade-mcp/dist/index.js';
import { encodeMessage } from '../../packages/palisade-mcp/dist/wire/encode.js';
import { readJsonMessage } from '../../packages/palisade-mcp/dist/wire/json-reader.js';
import { ECHO_DESCRIPTION, ECHO_SCHEMA, HOLD_DESCRIPTION, HOLD_SCHEMA } from './tools.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);
const SERVER_INFO = { 'io.modelcontextprotocol/serverInfo': { name: 'bench', version: '1.0.0' } };
const TOOLS = [
  { name: 'echo', description: ECHO_DESCRIPTION, inputSchema: ECHO_SCHEMA },
  { name: 'hold', description: HOLD_DESCRIPTION, inputSchema: HOLD_SCHEMA },
];

type Params = { name?: string; arguments?: { text?: string } } & Record<string, unknown>;

export function rulesFloorServer(): Server {
  // White-box, as every import above: the checked catalog is an internal member of a server,
  // left out of the shipped declarations (stripInternal), so it is read through its own type.
  const { catalog } = createServer({
    name: 'bench',
    version: '1.0.0',
    tools: [
      defineTool<{ text: string }>({
        name: 'echo',
        description: ECHO_DESCRIPTION,
        inputSchema: ECHO_SCHEMA,
        handler: ({ text }) => ({ content: [{ type: 'text', text }] }),
      }),
    ],
  }) as unknown as { readonly catalog: Catalog };
  const authorize = (request: unknown): { ok: boolean } => ({ ok: request !== undefined });

  return createHttpServer((req, res) => {
    const fail = (): void => {
      res.writeHead(400, { 'content-length': '0' });
      res.end();
    };
    const headers = indexHeaders(req.rawHeaders);
    if (checkHost(headers, LOOPBACK) !== 'ok' || !originAllowed(headers, undefined) || req.method !== 'POST')
      return fail();
    if (!authorize(authorizeRequest(req)).ok || !readAccept(headers).json || !isJsonContentType(headers))
      return fail();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const read = readJsonMessage(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
      if (!read.ok) return fail();
      const message = read.value as { id: number; method: string; params: Params };
      const { method, params } = message;
      const match = checkModernHeaders({ headers, message: { method, params, isNotification: false } });
      if (!match.ok) return fail();
      let result: Record<string, unknown>;
      if (method === 'tools/list') {
        result = {
          tools: TOOLS,
          resultType: 'complete',
          ttlMs: 0,
          cacheScope: 'private',
          _meta: SERVER_INFO,
        };
      } else {
        const tool = catalog.tools?.get(params.name ?? '');
        if (tool === undefined || !tool.input.validate(params.arguments).ok) return fail();
        const text = params.arguments?.text ?? '';
        result = { content: [{ type: 'text', text }], resultType: 'complete', _meta: SERVER_INFO };
      }
      const encoded = encodeMessage({ jsonrpc: '2.0', id: message.id, result });
      if (!encoded.ok) return fail();
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(encoded.text)),
      });
      res.end(encoded.text);
    });
  });
}
