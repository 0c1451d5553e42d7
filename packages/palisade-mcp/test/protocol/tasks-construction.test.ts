/**
 * The `tasks` option and `execution.taskSupport` are checked once, at construction: an unknown
 * key or a store missing a method is refused by name, and a tool cannot ask for tasks on a server
 * with no store to hold them. The extension is advertised only where it is served.
 */
import { describe, expect, test } from 'vitest';
import { createServer, type ServerDefinition } from '../../src/index.js';
import { handleMessage } from '../../src/protocol/core.js';
import { Gate, TestTaskStore, tasksDefinition } from '../fixtures/tasks.js';
import { refusalOf } from '../support/refusal.js';

const TOOL = { name: 'slow', inputSchema: { type: 'object' }, handler: () => ({ content: [] }) };

function refusal(definition: unknown): { code: string; message: string } {
  const { code, message } = refusalOf(() => createServer(definition as ServerDefinition), 'the definition');
  return { code, message };
}

describe('tasks options at construction', () => {
  test('an unknown key under tasks is refused by name', { tags: ['threat-model'] }, () => {
    expect(refusal({ name: 's', version: '1', tasks: { store: new TestTaskStore(), ttl: 5 } })).toEqual({
      code: 'PALISADE_ERR_UNKNOWN_OPTION',
      message: expect.stringContaining('tasks.ttl'),
    });
  });

  test('a store without an update function is refused naming tasks.store.update', () => {
    const store = { create: () => undefined, get: () => undefined };
    expect(refusal({ name: 's', version: '1', tasks: { store } }).message).toContain('tasks.store.update');
  });

  test('a tool declaring taskSupport on a server without tasks.store is refused', {
    tags: ['threat-model'],
  }, () => {
    const tools = [{ ...TOOL, execution: { taskSupport: 'optional' } }];
    expect(refusal({ name: 's', version: '1', tools }).message).toContain('needs tasks.store');
  });

  test('an execution.taskSupport that is not forbidden, optional or required is refused', () => {
    const tools = [{ ...TOOL, execution: { taskSupport: 'sometimes' } }];
    expect(
      refusal({ name: 's', version: '1', tools, tasks: { store: new TestTaskStore() } }).message,
    ).toContain('tools[0].execution.taskSupport must be one of forbidden, optional, required');
  });
});

describe('the extension is advertised only where it is served', () => {
  const discover = {
    jsonrpc: '2.0',
    id: 1,
    method: 'server/discover',
    params: {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  };
  const io = { signal: new AbortController().signal, auth: undefined, emit: () => {}, reportFault: () => {} };
  const state = Object.freeze({ transport: 'http' as const });

  async function capabilitiesOf(definition: ServerDefinition): Promise<Record<string, unknown>> {
    const exchange = handleMessage(createServer(definition), state as never, discover, io);
    const response = (await exchange.response) as unknown as {
      result: { capabilities: Record<string, unknown> };
    };
    return response.result.capabilities;
  }

  test('server/discover lists io.modelcontextprotocol/tasks under extensions when a store is given', async () => {
    const capabilities = await capabilitiesOf(tasksDefinition(new TestTaskStore(), new Gate()));
    expect(capabilities['extensions']).toEqual({ 'io.modelcontextprotocol/tasks': {} });
    expect(capabilities).not.toHaveProperty('tasks');
  });

  test('server/discover lists no extensions without a store', async () => {
    const capabilities = await capabilitiesOf({ name: 's', version: '1', tools: [TOOL] });
    expect(capabilities).not.toHaveProperty('extensions');
  });
});

describe('2025-11-25 has its own tasks design, which Palisade does not implement', () => {
  const io = { signal: new AbortController().signal, auth: undefined, emit: () => {}, reportFault: () => {} };
  const legacy = Object.freeze({
    transport: 'stdio' as const,
    legacy: Object.freeze({ revision: '2025-11-25', clientCapabilities: { tasks: {} }, initialized: true }),
  });

  async function answer(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const server = createServer(tasksDefinition(new TestTaskStore(), new Gate()));
    const exchange = handleMessage(server, legacy as never, { jsonrpc: '2.0', id: 1, method, params }, io);
    return (await exchange.response) as unknown as Record<string, unknown>;
  }

  test('initialize advertises neither a tasks capability nor extensions, even with a store', async () => {
    const server = createServer(tasksDefinition(new TestTaskStore(), new Gate()));
    const fresh = Object.freeze({ transport: 'stdio' as const });
    const params = {
      protocolVersion: '2025-11-25',
      capabilities: { tasks: {} },
      clientInfo: { name: 'c', version: '1' },
    };
    const exchange = handleMessage(
      server,
      fresh as never,
      { jsonrpc: '2.0', id: 1, method: 'initialize', params },
      io,
    );
    const response = (await exchange.response) as unknown as {
      result: { capabilities: Record<string, unknown> };
    };
    expect(Object.keys(response.result.capabilities).sort()).toEqual(['logging', 'tools']);
  });

  test('tasks/get is an unknown method there', async () => {
    expect((await answer('tasks/get', { taskId: 'x' }))['error']).toEqual({
      code: -32601,
      message: 'Method not found',
    });
  });

  test('a tool that requires a task is -32601 there, and an optional one runs synchronously', async () => {
    expect((await answer('tools/call', { name: 'needs_task', arguments: {} }))['error']).toEqual({
      code: -32601,
      message: 'Method not found',
    });
    expect(
      (await answer('tools/call', { name: 'tool_error', arguments: {}, task: { ttl: 1000 } }))['result'],
    ).toEqual({
      content: [{ type: 'text', text: 'it went wrong' }],
      isError: true,
    });
  });
});
