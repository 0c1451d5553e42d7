/**
 * The Palisade contender: `serve()` with the bench's `echo` and `hold` tools, imported only by the
 * child that serves it (servers.ts says why). `root` is the checkout whose build is served: this
 * one, or with `--base=DIR` another (`palisade-base`), so a change is measured against the code
 * before it in one run. Loaded through the package's exports map, as a host loads it, so the two
 * builds need not share a file layout.
 */
// The build, not the source: tsx compiles with esbuild's keepNames, which wraps every named
// closure made per request in a `__name()` call; served from src/ Palisade measured ~19% slower.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type {
  createServer as CreateServer,
  defineTool as DefineTool,
} from '../../packages/palisade-mcp/dist/index.js';
import { refusals, type ServerSettings, type Started } from './servers.js';
import { ECHO_DESCRIPTION, ECHO_SCHEMA, type Gate, HOLD_DESCRIPTION, HOLD_SCHEMA } from './tools.js';

interface PalisadeEntries {
  readonly createServer: typeof CreateServer;
  readonly defineTool: typeof DefineTool;
  readonly serve: (
    server: ReturnType<typeof CreateServer>,
    options: Record<string, unknown>,
  ) => Promise<{ port: number; close(): Promise<void> }>;
}

/** `palisade-mcp` and `palisade-mcp/http` of the checkout at `root`, through its exports map. */
async function load(root: string): Promise<PalisadeEntries> {
  const dir = join(root, 'packages/palisade-mcp');
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    exports: Record<string, { default: string }>;
  };
  const entry = (name: string): Promise<Record<string, unknown>> =>
    import(pathToFileURL(join(dir, manifest.exports[name]!.default)).href);
  const [core, http] = await Promise.all([entry('.'), entry('./http')]);
  return { ...core, ...http } as unknown as PalisadeEntries;
}

export async function startPalisade(gate: Gate, settings: ServerSettings, root: string): Promise<Started> {
  const { createServer, defineTool, serve } = await load(root);
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
  const serving = await serve(server, {
    authorize: () => ({ ok: true }),
    allowedOrigins: 'any',
    maxConnections: settings.maxConnections,
    readTimeoutMs: settings.readTimeoutMs,
    requestTimeoutMs: settings.readTimeoutMs + 1_000,
    ...(settings.sessions === true ? { sessions: { maxRequestsInFlight: 1_024 } } : {}),
    onLog: () => {
      refusals.count++;
    },
  });
  return { port: serving.port, close: serving.close };
}
