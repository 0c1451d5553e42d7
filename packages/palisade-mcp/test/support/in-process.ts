/**
 * Runs the stdio transport in this process over in-memory streams, for tests that must observe
 * something inside the process (a diagnostics channel) while still going through the transport.
 */
import { PassThrough } from 'node:stream';
import type { Server } from '../../src/index.js';
import { serveStdio } from '../../src/transports/stdio.js';

export interface InProcessPeer {
  request(message: Record<string, unknown>): Promise<Record<string, unknown>>;
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
        waiting.push((line) => resolve(JSON.parse(line) as Record<string, unknown>));
        input.write(`${JSON.stringify(message)}\n`);
      });
    },
    async close() {
      input.end();
      await handle.closed;
    },
  };
}
