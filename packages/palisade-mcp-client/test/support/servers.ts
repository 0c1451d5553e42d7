/**
 * Palisade servers for the client's tests, started in this process on port 0 (HTTP) or wired to
 * the client through a pair of streams (stdio framing, `inProcessTransport`). The tests import
 * the server as a host does, through its public entries.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, defineTool, type Server } from 'palisade-mcp';
import { serve } from 'palisade-mcp/http';

const key = randomBytes(32);
const tag = (payload: string): Buffer => createHmac('sha256', key).update(payload).digest();
/** The HMAC sealer docs/multi-round-trip.md shows. */
export const sealer = {
  seal: (bytes: Uint8Array): string => {
    const p = Buffer.from(bytes).toString('base64url');
    return `${p}.${tag(p).toString('base64url')}`;
  },
  open: (token: string): Uint8Array | undefined => {
    const [p = '', t = ''] = token.split('.');
    const given = Buffer.from(t, 'base64url');
    const want = tag(p);
    return given.length === want.length && timingSafeEqual(given, want)
      ? new Uint8Array(Buffer.from(p, 'base64url'))
      : undefined;
  },
};

/** What the `slow` tool saw: how many runs started, and how many were aborted. */
export const events: { started: number; aborted: number } = { started: 0, aborted: 0 };

/** A small catalog exercising what the client must handle. */
export function testServer(options: { supportedVersions?: string[]; pageSize?: number } = {}): Server {
  return createServer({
    name: 'client-test',
    version: '1.0.0',
    ...(options.supportedVersions === undefined
      ? {}
      : { supportedVersions: options.supportedVersions as never }),
    ...(options.pageSize === undefined ? {} : { pageSize: options.pageSize }),
    requestState: { sealer },
    tools: [
      defineTool({
        name: 'echo',
        inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
        handler: ({ text }) => ({ content: [{ type: 'text', text: String(text) }] }),
      }),
      defineTool({
        name: 'region_echo',
        inputSchema: {
          type: 'object',
          properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
          required: ['region'],
        },
        handler: ({ region }) => ({ content: [{ type: 'text', text: String(region) }] }),
      }),
      defineTool({
        name: 'steps',
        inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
        handler: async ({ n }, ctx) => {
          for (let i = 1; i <= Number(n); i += 1) {
            ctx.progress(i, Number(n));
            await new Promise((resolve) => setTimeout(resolve, 5));
          }
          return { content: [{ type: 'text', text: 'done' }] };
        },
      }),
      defineTool({
        name: 'slow',
        inputSchema: { type: 'object' },
        handler: (_args, ctx) =>
          new Promise((resolve) => {
            events.started += 1;
            const timer = setTimeout(() => resolve({ content: [{ type: 'text', text: 'late' }] }), 10_000);
            ctx.signal.addEventListener('abort', () => {
              events.aborted += 1;
              clearTimeout(timer);
              resolve({ content: [{ type: 'text', text: 'aborted' }] });
            });
          }),
      }),
      defineTool({
        name: 'ask_name',
        inputSchema: { type: 'object' },
        handler: (_args, ctx) => {
          const answer = ctx.inputResponses?.['name'] as
            | { action?: string; content?: { name?: string } }
            | undefined;
          if (answer?.action !== 'accept') {
            return ctx.inputRequired({
              requests: {
                name: {
                  method: 'elicitation/create',
                  params: {
                    message: 'Your name?',
                    requestedSchema: {
                      type: 'object',
                      properties: { name: { type: 'string' } },
                      required: ['name'],
                    },
                  },
                },
              },
              state: { round: 1 },
            });
          }
          return {
            content: [
              { type: 'text', text: `hello ${answer.content?.name} (${JSON.stringify(ctx.requestState)})` },
            ],
          };
        },
      }),
      defineTool({
        name: 'weather',
        inputSchema: { type: 'object' },
        outputSchema: { type: 'object', properties: { celsius: { type: 'number' } }, required: ['celsius'] },
        handler: () => ({
          content: [{ type: 'text', text: '{"celsius":12}' }],
          structuredContent: { celsius: 12 },
        }),
      }),
      ...Array.from({ length: 7 }, (_, i) =>
        defineTool({
          name: `extra_${i}`,
          inputSchema: { type: 'object' },
          handler: () => ({ content: [{ type: 'text', text: String(i) }] }),
        }),
      ),
    ],
  });
}

export interface Running {
  readonly url: string;
  close(): Promise<void>;
}

export async function serveHttp(server: Server = testServer()): Promise<Running> {
  const serving = await serve(server, {
    port: 0,
    host: '127.0.0.1',
    authorize: () => ({ ok: true }),
    allowedOrigins: [],
  });
  return { url: `${serving.url}/mcp`, close: () => serving.close() };
}
