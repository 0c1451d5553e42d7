/**
 * A ToolError thrown by a tool handler reaches the client as a tool result with `isError: true`
 * and the error's message, over both transports and both revisions; any other thrown error stays
 * an opaque -32603 with nothing of it sent. Each transport is the real one: a stdio server in a
 * child process over its pipes, and the node handler behind `node:http` over a socket.
 */
import diagnosticsChannel from 'node:diagnostics_channel';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHttpHandler } from '../../src/http/node/handler.js';
import { createServer, DISPATCH_CHANNEL_NAME, MAX_TOOL_ERROR_CHARS, ToolError } from '../../src/index.js';
import { LONG, READABLE, SECRET, toolErrorsDefinition } from '../fixtures/tool-errors.js';
import { ADMIT_ALL, exchange, type Mounted, mount, post } from '../support/http-peer.js';
import { serveInProcess } from '../support/in-process.js';
import { INITIALIZE, MODERN_META, modern, type StdioPeer, startStdioServer } from '../support/stdio-peer.js';

type Json = Record<string, unknown>;
type Revision = '2026-07-28' | '2025-11-25';

/** One tools/call over one transport and revision, answered with the whole JSON-RPC response. */
type Call = (id: string, name: string) => Promise<Json>;

interface Transport {
  call: Call;
  /** Host faults the transport reported, as their descriptions. */
  faults: string[];
  close(): Promise<void>;
}

function request(revision: Revision, id: string, name: string): Json {
  return revision === '2026-07-28'
    ? modern(id, 'tools/call', { name, arguments: {} })
    : { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } };
}

async function overStdio(revision: Revision): Promise<Transport> {
  const peer: StdioPeer = startStdioServer('tool-errors');
  if (revision === '2025-11-25') await peer.request(INITIALIZE);
  return {
    call: (id, name) => peer.request(request(revision, id, name)),
    // The stdio fixture reports host faults on stderr, one line each.
    get faults() {
      return peer.stderr.split('\n').filter((line) => line.includes('host fault'));
    },
    close: async () => {
      await peer.close();
    },
  };
}

async function overHttp(revision: Revision): Promise<Transport> {
  const faults: string[] = [];
  const handler = createHttpHandler(createServer(toolErrorsDefinition()), {
    ...ADMIT_ALL,
    onFault: (description) => faults.push(description),
  });
  const mounted: Mounted = await mount(handler);
  return {
    call: async (id, name) => {
      const body = JSON.stringify(request(revision, id, name));
      const headers: Json =
        revision === '2026-07-28'
          ? { 'MCP-Protocol-Version': revision, 'Mcp-Method': 'tools/call', 'Mcp-Name': name }
          : { 'MCP-Protocol-Version': revision };
      const reply = await exchange(mounted.port, post(body, headers));
      reply.client.end();
      expect(reply.status).toBe(200);
      return JSON.parse(reply.body) as Json;
    },
    faults,
    close: () => mounted.close(),
  };
}

const CASES = [
  ['stdio', '2026-07-28', overStdio],
  ['stdio', '2025-11-25', overStdio],
  ['HTTP', '2026-07-28', overHttp],
  ['HTTP', '2025-11-25', overHttp],
] as const;

describe.each(CASES)('a tool handler that fails, over %s on %s', (_transport, revision, open) => {
  let transport: Transport;
  beforeAll(async () => {
    transport = await open(revision);
  });
  afterAll(async () => {
    await transport.close();
  });

  /** The result's content and isError, without the 2026-07-28 envelope (resultType, _meta). */
  function toolResult(reply: Json): Json {
    const result = reply['result'] as Json | undefined;
    expect(result, JSON.stringify(reply)).toBeDefined();
    return { content: result?.['content'], isError: result?.['isError'] };
  }

  test('a thrown ToolError is answered as a tool error carrying its message', async () => {
    const reply = await transport.call('readable', 'explains');
    expect(reply['id']).toBe('readable');
    expect(toolResult(reply)).toEqual({ content: [{ type: 'text', text: READABLE }], isError: true });
  });

  test('a rejected ToolError is answered the same way', async () => {
    const reply = await transport.call('later', 'explains_later');
    expect(toolResult(reply)).toEqual({ content: [{ type: 'text', text: READABLE }], isError: true });
  });

  test('nothing of a ToolError but its message is sent: not its cause, stack or properties', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await transport.call('only-message', 'explains');
    expect(JSON.stringify(reply)).not.toContain(SECRET);
    expect(JSON.stringify(reply)).not.toContain('ToolError');
    expect(JSON.stringify(reply)).not.toContain('.ts:');
  });

  test('a ToolError from another copy of the package is recognised by its brand', async () => {
    const reply = await transport.call('foreign', 'explains_from_another_copy');
    expect(toolResult(reply)).toEqual({ content: [{ type: 'text', text: READABLE }], isError: true });
  });

  test('a ToolError from a tool with an outputSchema needs no structuredContent', async () => {
    const reply = await transport.call('output', 'explains_with_output_schema');
    expect(toolResult(reply)).toEqual({ content: [{ type: 'text', text: READABLE }], isError: true });
  });

  test('a message past MAX_TOOL_ERROR_CHARS is cut before a split surrogate pair and ends with an ellipsis', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await transport.call('long', 'explains_at_length');
    const text = (toolResult(reply)['content'] as Array<{ text: string }>)[0]?.text;
    expect(LONG.length).toBeGreaterThan(MAX_TOOL_ERROR_CHARS);
    expect(text).toBe(`${'x'.repeat(4_094)}…`);
    expect(text?.length).toBeLessThanOrEqual(MAX_TOOL_ERROR_CHARS);
  });

  test('any other thrown error is an opaque -32603 that sends nothing of it', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await transport.call('fault', 'faults');
    expect(reply).toEqual({
      jsonrpc: '2.0',
      id: 'fault',
      error: { code: -32603, message: 'Internal error' },
    });
    expect(JSON.stringify(reply)).not.toContain(SECRET);
  });

  test('a ToolError whose message is not a string is an opaque -32603', async () => {
    const reply = await transport.call('bad-message', 'explains_badly');
    expect(reply).toEqual({
      jsonrpc: '2.0',
      id: 'bad-message',
      error: { code: -32603, message: 'Internal error' },
    });
    expect(JSON.stringify(reply)).not.toContain(SECRET);
  });

  test('a ToolError is not reported as a host fault; an ordinary error is', async () => {
    // Counted by tool name: a fault of an earlier test's call may still be on its way over stderr.
    const faultsOf = (tool: string): number =>
      transport.faults.filter((fault) => fault.includes(`tool "${tool}" handler threw`)).length;
    const before = faultsOf('faults');
    await transport.call('quiet', 'explains');
    await transport.call('loud', 'faults');
    await expect.poll(() => faultsOf('faults')).toBe(before + 1);
    expect(faultsOf('explains')).toBe(0);
  });
});

describe('ToolError', () => {
  test('is an Error named ToolError whose message and cause are as given', () => {
    const cause = new Error('upstream');
    const error = new ToolError('try again later', { cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ToolError');
    expect(error.message).toBe('try again later');
    expect(error.cause).toBe(cause);
  });

  test('instanceof holds for another copy’s ToolError and not for a plain Error', () => {
    const foreign = Object.defineProperty(new Error('x'), Symbol.for('palisade-mcp.tool-error'), {
      get: () => true,
    });
    expect(foreign).toBeInstanceOf(ToolError);
    expect(new Error('x')).not.toBeInstanceOf(ToolError);
    expect(null).not.toBeInstanceOf(ToolError);
  });

  test('a thrown ToolError is published on the dispatch channel as a tool error, without its message', async () => {
    const outcomes: unknown[] = [];
    const channel = diagnosticsChannel.tracingChannel(DISPATCH_CHANNEL_NAME);
    const handlers = {
      start: () => {},
      end: () => {},
      asyncStart: () => {},
      asyncEnd: (context: unknown) => outcomes.push(JSON.stringify(context)),
      error: () => {},
    };
    channel.subscribe(handlers as never);
    try {
      const peer = serveInProcess(createServer(toolErrorsDefinition()));
      const reply = await peer.request({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'explains', arguments: {}, _meta: MODERN_META },
      });
      await peer.close();
      expect((reply['result'] as Json)['isError']).toBe(true);
    } finally {
      channel.unsubscribe(handlers as never);
    }
    expect(outcomes).toHaveLength(1);
    expect(JSON.parse(outcomes[0] as string)).toMatchObject({ tool: 'explains', outcome: 'tool-error' });
    expect(outcomes[0]).not.toContain('Atlantis');
  });
});
