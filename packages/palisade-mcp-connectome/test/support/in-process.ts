/**
 * A server of the public `palisade-mcp` package run over its stdio transport in this process, on
 * in-memory streams, so a test can watch what the connectome observes (the dispatch channel is
 * process-wide) while requests still go through a real transport. The server package's own tests
 * have the same helper over its sources; this one goes through the package as a host installs it.
 */
import { PassThrough } from 'node:stream';
import type { Server } from 'palisade-mcp';
import { serveStdio } from 'palisade-mcp/stdio';
import { META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION, MODERN_REVISION } from 'palisade-mcp/wire';

export type Json = Record<string, unknown>;

export interface InProcessPeer {
  request(message: Json): Promise<Json>;
  close(): Promise<void>;
}

/** `onFault` receives the host faults the transport reports (dropped by default). */
export function serveInProcess(
  server: Server,
  onFault: (description: string, cause: unknown) => void = () => {},
): InProcessPeer {
  const input = new PassThrough();
  const output = new PassThrough();
  let buffered = '';
  const waiting: Array<(line: string) => void> = [];
  output.setEncoding('utf8');
  output.on('data', (text: string) => {
    buffered += text;
    for (let newline = buffered.indexOf('\n'); newline !== -1; newline = buffered.indexOf('\n')) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      waiting.shift()?.(line);
    }
  });
  const handle = serveStdio(server, { input, output, exitOnClose: false, onFault });
  return {
    request(message) {
      return new Promise((resolve) => {
        waiting.push((line) => resolve(JSON.parse(line) as Json));
        input.write(`${JSON.stringify(message)}\n`);
      });
    },
    async close() {
      input.end();
      await handle.closed;
    },
  };
}

/** A 2026-07-28 request with the `_meta` that revision requires. */
export function modern(id: number | string, method: string, params: Json = {}): Json {
  const meta = {
    [META_PROTOCOL_VERSION]: MODERN_REVISION,
    [META_CLIENT_CAPABILITIES]: {},
    ...((params['_meta'] as Json | undefined) ?? {}),
  };
  return { jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } };
}
