/**
 * The contenders, each started on 127.0.0.1 port 0 with the same `echo` tool (and `hold` for the
 * memory run): a bare `node:http` JSON echo (the ceiling), Palisade `serve()`, and the official
 * SDK v2 served statelessly, for 2026-07-28 through `createMcpHandler` and for 2025-11-25 through
 * the Streamable HTTP transport with `sessionIdGenerator: undefined`, a fresh server per request;
 * with `--floor`, also the bare echo plus the wire rules alone (rules-floor.ts).
 * Palisade is imported from its build: `npm run bench:http` runs `npm run build` first.
 */
import { once } from 'node:events';
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import {
  localhostHostValidation,
  localhostOriginValidation,
  type NodeIncomingMessageLike,
  NodeStreamableHTTPServerTransport,
  toNodeHandler,
} from '@modelcontextprotocol/node';
import { createMcpHandler, fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
// The build, not the source: tsx compiles with esbuild's keepNames, which wraps every named
// closure made per request in a `__name()` call; served from src/ Palisade measured ~19% slower.
import { serve } from '../../packages/palisade-mcp/dist/http/serve.js';
import { createServer, defineTool } from '../../packages/palisade-mcp/dist/index.js';
import { rulesFloorServer } from './rules-floor.js';
import { ECHO_DESCRIPTION, ECHO_SCHEMA, type Gate, HOLD_DESCRIPTION, HOLD_SCHEMA } from './tools.js';

export const CONTENDERS = ['bare', 'rules', 'palisade', 'sdk-modern', 'sdk-legacy'] as const;
export type Contender = (typeof CONTENDERS)[number];

export interface Started {
  readonly port: number;
  close(): Promise<void>;
}

/** Palisade's transport refusals (408 for a cut drip, ...), counted rather than logged line by line. */
export const refusals = { count: 0 };

export interface ServerSettings {
  readonly maxConnections: number;
  /** Palisade's whole-body deadline and Node's request deadline, both set to this. */
  readonly readTimeoutMs: number;
}

async function listen(server: Server): Promise<Started> {
  server.keepAliveTimeout = 5_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const BARE_TOOLS = [
  { name: 'echo', description: ECHO_DESCRIPTION, inputSchema: ECHO_SCHEMA },
  { name: 'hold', description: HOLD_DESCRIPTION, inputSchema: HOLD_SCHEMA },
];

/** The ceiling: read the body, JSON.parse it, write a reply of the shape the others send. */
function startBare(): Promise<Started> {
  const server = createHttpServer((req, res) => {
    readAll(req).then(
      (bytes) => {
        const message = JSON.parse(bytes.toString('utf8')) as {
          id: number;
          method: string;
          params?: { arguments?: { text?: string } };
        };
        const result =
          message.method === 'tools/list'
            ? { tools: BARE_TOOLS }
            : { content: [{ type: 'text', text: message.params?.arguments?.text ?? '' }] };
        const body = JSON.stringify({ jsonrpc: '2.0', id: message.id, result });
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      },
      () => res.destroy(),
    );
  });
  return listen(server);
}

function startPalisade(gate: Gate, settings: ServerSettings): Promise<Started> {
  const server = createServer({
    name: 'bench',
    version: '1.0.0',
    tools: [
      defineTool<{ text: string }>({
        name: 'echo',
        description: ECHO_DESCRIPTION,
        inputSchema: ECHO_SCHEMA,
        handler: ({ text }) => ({ content: [{ type: 'text', text }] }),
      }),
      defineTool<{ pad: string }>({
        name: 'hold',
        description: HOLD_DESCRIPTION,
        inputSchema: HOLD_SCHEMA,
        handler: async ({ pad }) => {
          await gate.wait();
          return { content: [{ type: 'text', text: String(pad.length) }] };
        },
      }),
    ],
  });
  return serve(server, {
    authorize: () => ({ ok: true }),
    allowedOrigins: 'any',
    maxConnections: settings.maxConnections,
    readTimeoutMs: settings.readTimeoutMs,
    requestTimeoutMs: settings.readTimeoutMs + 1_000,
    onLog: () => {
      refusals.count++;
    },
  }).then((serving) => ({ port: serving.port, close: serving.close }));
}

function sdkServer(gate: Gate): McpServer {
  const server = new McpServer({ name: 'bench', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: ECHO_DESCRIPTION, inputSchema: fromJsonSchema<{ text: string }>(ECHO_SCHEMA) },
    ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  server.registerTool(
    'hold',
    { description: HOLD_DESCRIPTION, inputSchema: fromJsonSchema<{ pad: string }>(HOLD_SCHEMA) },
    async ({ pad }) => {
      await gate.wait();
      return { content: [{ type: 'text', text: String(pad.length) }] };
    },
  );
  return server;
}

// The SDK README's plain node:http wiring: Host and Origin guards in front, as Palisade checks both.
const validateHost = localhostHostValidation();
const validateOrigin = localhostOriginValidation();

/** 2026-07-28: the SDK's stateless entry, a fresh server from the factory per request. */
function startSdkModern(gate: Gate, settings: ServerSettings): Promise<Started> {
  const handler = toNodeHandler(createMcpHandler(() => sdkServer(gate), { legacy: 'reject' }));
  const server = createHttpServer({ requestTimeout: settings.readTimeoutMs }, (req, res) => {
    if (!validateHost(req, res) || !validateOrigin(req, res)) return;
    // The adapter's structural type predates exactOptionalPropertyTypes; node:http's objects fit it.
    void handler(req as NodeIncomingMessageLike, res);
  });
  return listen(server);
}

/** 2025-11-25: the transport with `sessionIdGenerator: undefined`, JSON answers, a server per request. */
function startSdkLegacy(gate: Gate, settings: ServerSettings): Promise<Started> {
  const server = createHttpServer({ requestTimeout: settings.readTimeoutMs }, (req, res) => {
    if (!validateHost(req, res) || !validateOrigin(req, res)) return;
    const mcp = sdkServer(gate);
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    mcp
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch(() => res.destroy());
  });
  return listen(server);
}

export function start(contender: Contender, gate: Gate, settings: ServerSettings): Promise<Started> {
  switch (contender) {
    case 'bare':
      return startBare();
    case 'rules':
      return listen(rulesFloorServer());
    case 'palisade':
      return startPalisade(gate, settings);
    case 'sdk-modern':
      return startSdkModern(gate, settings);
    case 'sdk-legacy':
      return startSdkLegacy(gate, settings);
  }
}
