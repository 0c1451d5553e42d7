/**
 * A bench child serving Palisade `serve()` with the bench's `echo` tool, sessions on or off
 * (`server-process.ts on|off|pair [maxSessions]`; `pair` serves both, sessions on at `port` and off
 * at `offPort`, so the two are measured in one process on the same core and heap), and answering
 * the parent over IPC: its CPU time, its heap after a full collection, a list change to announce,
 * and close. Palisade is imported from its build, as bench/http/palisade-server.ts says why.
 */
import { serve } from '../../packages/palisade-mcp/dist/http/node/serve.js';
import { createServer, defineTool } from '../../packages/palisade-mcp/dist/index.js';
import { ECHO_DESCRIPTION, ECHO_SCHEMA } from '../http/tools.js';

export type ToSessionServer = { type: 'cpu' } | { type: 'heap' } | { type: 'announce' } | { type: 'close' };
export type FromSessionServer =
  | { type: 'ready'; port: number; offPort?: number }
  | { type: 'cpu'; micros: number }
  | { type: 'heap'; bytes: number }
  | { type: 'announced' };

const [mode = 'off', maxSessions = '10000'] = process.argv.slice(2);
const server = createServer({
  name: 'bench',
  version: '1.0.0',
  notifications: { toolsListChanged: true },
  tools: [
    defineTool<{ text: string }>({
      name: 'echo',
      description: ECHO_DESCRIPTION,
      inputSchema: ECHO_SCHEMA,
      handler: ({ text }) => ({ content: [{ type: 'text', text }] }),
    }),
  ],
});
const options = {
  authorize: () => ({ ok: true }),
  allowedOrigins: 'any',
  maxConnections: 4_096,
  onLog: () => {},
} as const;
const sessions = { maxSessions: Number(maxSessions), maxRequestsInFlight: 256 };
// The cost part opens its connections first and keeps them across windows, idle while the other
// side is measured: on a loaded machine that can pass the default sniff and keep-alive times (5 s).
const kept = mode === 'pair' ? { keepAliveTimeoutMs: 120_000, sniffTimeoutMs: 120_000 } : {};
const serving = await serve(server, mode === 'off' ? options : { ...options, ...kept, sessions });
const stateless = mode === 'pair' ? await serve(server, { ...options, ...kept }) : undefined;

const send = (message: FromSessionServer): void => {
  process.send?.(message);
};
process.on('message', (message: ToSessionServer) => {
  if (message.type === 'cpu') {
    const used = process.cpuUsage();
    send({ type: 'cpu', micros: used.user + used.system });
  } else if (message.type === 'heap') {
    globalThis.gc?.();
    globalThis.gc?.();
    send({ type: 'heap', bytes: process.memoryUsage().heapUsed });
  } else if (message.type === 'announce') {
    server.notifyListChanged('tools');
    send({ type: 'announced' });
  } else {
    void Promise.all([serving.close(), stateless?.close()]).then(() => process.exit(0));
  }
});
// A parent that died mid-run leaves no server behind.
process.once('disconnect', () => process.exit(0));
send(
  stateless === undefined
    ? { type: 'ready', port: serving.port }
    : { type: 'ready', port: serving.port, offPort: stateless.port },
);
