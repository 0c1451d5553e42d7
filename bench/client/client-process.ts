/**
 * Child-process entry for one client contender, so each client has its own event loop and heap.
 * argv: contender (`palisade-2026`, `palisade-2025`, `sdk`), then the MCP endpoint URL.
 * IPC: `run` (closed loop of `tools/call echo` at a concurrency for a time: calls, errors, this
 * process's CPU), `hold` (start n `hold` calls and leave them in flight), `measure` (heap after a
 * full collection), `settle` (wait for the held calls to end), `close`.
 * Palisade's client is imported from its build (as bench/http does for the server: tsx's
 * keepNames wrapping would tax it); the SDK from its package.
 */
import { performance } from 'node:perf_hooks';

export type ToClient =
  | { readonly type: 'run'; readonly concurrency: number; readonly ms: number }
  | { readonly type: 'hold'; readonly n: number }
  | { readonly type: 'measure' }
  | { readonly type: 'settle' }
  | { readonly type: 'close' };

export type FromClient =
  | { readonly type: 'ready'; readonly revision: string }
  | {
      readonly type: 'ran';
      readonly calls: number;
      readonly errors: number;
      readonly seconds: number;
      readonly cpuMicros: number;
    }
  | { readonly type: 'holding' }
  | { readonly type: 'measured'; readonly bytes: number }
  | { readonly type: 'settled'; readonly ok: number }
  | { readonly type: 'closed' };

interface Caller {
  readonly revision: string;
  call(name: string, args: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

const [contender = '', url = ''] = process.argv.slice(2);
const gc = (globalThis as { gc?: () => void }).gc;

async function palisade(revisions: string[]): Promise<Caller> {
  const { createClient, httpTransport } = await import('../../packages/palisade-mcp-client/dist/index.js');
  const client = createClient({ transport: httpTransport(url), revisions, requestTimeoutMs: 120_000 });
  const server = await client.connect();
  return {
    revision: server.revision,
    call: async (name, args) => {
      const result = await client.callTool(name, args);
      return String(result.content[0]?.['text']);
    },
    close: () => client.close(),
  };
}

async function sdk(): Promise<Caller> {
  const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
  const client = new Client({ name: 'bench', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return {
    revision: transport.protocolVersion ?? 'unknown',
    call: async (name, args) => {
      const result = (await client.callTool({ name, arguments: args }, { timeout: 120_000 })) as {
        content: { text?: string }[];
      };
      return String(result.content[0]?.text);
    },
    close: () => client.close(),
  };
}

const caller =
  contender === 'sdk'
    ? await sdk()
    : await palisade(contender === 'palisade-2025' ? ['2025-11-25'] : ['2026-07-28']);

function reply(message: FromClient): void {
  process.send?.(message);
}

function heap(): number {
  gc?.();
  gc?.();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers + usage.external;
}

let held: Promise<string>[] = [];
const PAD = 'x'.repeat(256);

process.on('message', (message: ToClient) => {
  if (message.type === 'run') {
    const cpu = process.cpuUsage();
    const start = performance.now();
    const stop = start + message.ms;
    let calls = 0;
    let errors = 0;
    void Promise.all(
      Array.from({ length: message.concurrency }, async () => {
        while (performance.now() < stop) {
          const text = await caller.call('echo', { text: 'hello' }).catch(() => '');
          if (text === 'hello') calls++;
          else errors++;
        }
      }),
    ).then(() => {
      const used = process.cpuUsage(cpu);
      reply({
        type: 'ran',
        calls,
        errors,
        seconds: (performance.now() - start) / 1000,
        cpuMicros: used.user + used.system,
      });
    });
  } else if (message.type === 'hold') {
    held = Array.from({ length: message.n }, () => caller.call('hold', { pad: PAD }));
    reply({ type: 'holding' });
  } else if (message.type === 'measure') {
    reply({ type: 'measured', bytes: heap() });
  } else if (message.type === 'settle') {
    void Promise.allSettled(held).then((results) => {
      held = [];
      reply({ type: 'settled', ok: results.filter((r) => r.status === 'fulfilled').length });
    });
  } else {
    void caller.close().then(() => {
      reply({ type: 'closed' });
      process.disconnect();
    });
  }
});
process.on('disconnect', () => process.exit(0));
reply({ type: 'ready', revision: caller.revision });
