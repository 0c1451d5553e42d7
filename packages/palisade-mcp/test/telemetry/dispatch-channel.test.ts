import diagnosticsChannel from 'node:diagnostics_channel';
import { afterEach, describe, expect, test } from 'vitest';
import { createServer, DISPATCH_CHANNEL_NAME, defineTool } from '../../src/index.js';
import { serveInProcess } from '../support/in-process.js';
import { modern } from '../support/stdio-peer.js';

const MARKER = 'TELEMETRY-MARKER-51d2';

const server = createServer({
  name: 'telemetry',
  version: '1',
  tools: [
    defineTool<{ secret: string }>({
      name: 'leaky',
      inputSchema: { type: 'object', properties: { secret: { type: 'string' } }, required: ['secret'] },
      handler: ({ secret }) => ({
        content: [{ type: 'text', text: `result ${secret}` }],
        structuredContent: { secret },
      }),
    }),
    defineTool({
      name: 'thrower',
      inputSchema: { type: 'object' },
      handler: () => {
        throw new Error(`thrown ${MARKER}`);
      },
    }),
    defineTool({
      name: 'getter_fault',
      inputSchema: { type: 'object' },
      handler: () =>
        ({
          content: [],
          get isError(): boolean {
            throw new Error(`getter ${MARKER}`);
          },
        }) as never,
    }),
    defineTool({
      name: 'tool_error',
      inputSchema: { type: 'object' },
      handler: () => ({ content: [{ type: 'text', text: MARKER }], isError: true }),
    }),
  ],
});

type Event = { readonly phase: string; readonly context: Record<string, unknown> };

function record(): { events: Event[]; stop(): void } {
  const events: Event[] = [];
  const channel = diagnosticsChannel.tracingChannel(DISPATCH_CHANNEL_NAME);
  const handlers = Object.fromEntries(
    (['start', 'end', 'asyncStart', 'asyncEnd', 'error'] as const).map((phase) => [
      phase,
      (context: unknown) => events.push({ phase, context: { ...(context as Record<string, unknown>) } }),
    ]),
  ) as unknown as Parameters<typeof channel.subscribe>[0];
  channel.subscribe(handlers);
  return { events, stop: () => channel.unsubscribe(handlers) };
}

let stop: (() => void) | undefined;
afterEach(() => {
  stop?.();
  stop = undefined;
});

describe('the dispatch tracing channel', () => {
  test('a call publishes the tool, the outcome and the duration, and nothing of the arguments or result', {
    tags: ['threat-model'],
  }, async () => {
    const recorder = record();
    stop = recorder.stop;
    const peer = serveInProcess(server);
    await peer.request(modern(1, 'tools/call', { name: 'leaky', arguments: { secret: MARKER } }));
    await peer.close();
    const end = recorder.events.find((event) => event.phase === 'asyncEnd');
    expect(end?.context).toMatchObject({
      server: 'telemetry',
      tool: 'leaky',
      revision: '2026-07-28',
      outcome: 'ok',
    });
    expect(typeof end?.context['durationMs']).toBe('number');
    expect(JSON.stringify(recorder.events)).not.toContain(MARKER);
    for (const event of recorder.events) {
      expect(Object.keys(event.context).sort()).toEqual(
        expect.arrayContaining(['server', 'tool', 'revision'].sort()),
      );
      // tracePromise copies our wrapper's settled value onto the context: it must be nothing.
      expect(event.context['result']).toBeUndefined();
      expect(event.context).not.toHaveProperty('error');
    }
  });

  test('a handler that throws is published as a fault without the error', {
    tags: ['threat-model'],
  }, async () => {
    const recorder = record();
    stop = recorder.stop;
    const peer = serveInProcess(server);
    await peer.request(modern(1, 'tools/call', { name: 'thrower', arguments: { x: MARKER } }));
    await peer.close();
    expect(recorder.events.some((event) => event.context['outcome'] === 'fault')).toBe(true);
    expect(recorder.events.some((event) => event.phase === 'error')).toBe(false);
    expect(JSON.stringify(recorder.events)).not.toContain(MARKER);
  });

  test('a tool result with isError is published as a tool error', async () => {
    const recorder = record();
    stop = recorder.stop;
    const peer = serveInProcess(server);
    await peer.request(modern(1, 'tools/call', { name: 'tool_error' }));
    await peer.close();
    expect(recorder.events.find((event) => event.phase === 'asyncEnd')?.context['outcome']).toBe(
      'tool-error',
    );
    expect(JSON.stringify(recorder.events)).not.toContain(MARKER);
  });

  test('arguments refused by the schema are not a dispatch and publish nothing', {
    tags: ['threat-model'],
  }, async () => {
    const recorder = record();
    stop = recorder.stop;
    const peer = serveInProcess(server);
    const reply = await peer.request(modern(1, 'tools/call', { name: 'leaky', arguments: { secret: 5 } }));
    await peer.close();
    expect((reply['result'] as { isError: boolean }).isError).toBe(true);
    expect(recorder.events).toEqual([]);
  });
});

// Untraced, the handler is awaited at the dispatch site itself (no event or wrapper is built for
// nobody); the result is still read as the traced path reads it, so a host's getter that throws is
// the handler's fault either way, not a fault somewhere later in the core.
describe.each([
  ['traced', true],
  ['not traced', false],
])('a result whose isError getter throws, %s', (_name, traced) => {
  test('is answered -32603 and reported as the handler throwing', async () => {
    if (traced) stop = record().stop;
    const faults: string[] = [];
    const peer = serveInProcess(server, (description) => faults.push(description));
    const answer = await peer.request(modern(7, 'tools/call', { name: 'getter_fault' }));
    await peer.close();
    expect(answer).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32603, message: 'Internal error' } });
    expect(faults).toEqual(['tool "getter_fault" handler threw']);
  });
});
