/**
 * The Palisade contender: `serve()` with the bench's `echo` and `hold` tools, imported only by the
 * child that serves it (servers.ts says why).
 */
// The build, not the source: tsx compiles with esbuild's keepNames, which wraps every named
// closure made per request in a `__name()` call; served from src/ Palisade measured ~19% slower.
import { serve } from '../../packages/palisade-mcp/dist/http/node/serve.js';
import { createServer, defineTool } from '../../packages/palisade-mcp/dist/index.js';
import { refusals, type ServerSettings, type Started } from './servers.js';
import { ECHO_DESCRIPTION, ECHO_SCHEMA, type Gate, HOLD_DESCRIPTION, HOLD_SCHEMA } from './tools.js';

export function startPalisade(gate: Gate, settings: ServerSettings): Promise<Started> {
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
