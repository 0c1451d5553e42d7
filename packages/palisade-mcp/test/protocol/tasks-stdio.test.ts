/**
 * The tasks extension over stdio, a spawned process on real pipes: one connection is one client,
 * so its requests share one principal (`ctx.auth` is undefined there), and a task created on the
 * connection is read back and cancelled on it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { modern, type StdioPeer, startStdioServer } from '../support/stdio-peer.js';

type Json = Record<string, unknown>;

const WITH_TASKS = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
};

function resultOf(message: Json): Json {
  expect(message).toHaveProperty('result');
  return message['result'] as Json;
}

describe('tasks extension over stdio', () => {
  let peer: StdioPeer;
  beforeAll(() => {
    peer = startStdioServer('tasks');
  });
  afterAll(async () => {
    await peer.close();
  });

  test('a task created on the connection is read back on it until it completes', async () => {
    const created = resultOf(
      await peer.request(modern(1, 'tools/call', { name: 'tool_error', arguments: {}, _meta: WITH_TASKS })),
    );
    expect(created['resultType']).toBe('task');
    let task: Json = {};
    for (let round = 0; round < 50; round += 1) {
      task = resultOf(
        await peer.request(modern(2 + round, 'tasks/get', { taskId: created['taskId'], _meta: WITH_TASKS })),
      );
      if (task['status'] !== 'working') break;
    }
    expect(task['status']).toBe('completed');
    expect(task['result']).toEqual({ content: [{ type: 'text', text: 'it went wrong' }], isError: true });
  });

  test('a running task is cancelled on the connection that created it', async () => {
    const created = resultOf(
      await peer.request(modern(100, 'tools/call', { name: 'hold', arguments: {}, _meta: WITH_TASKS })),
    );
    const ack = resultOf(
      await peer.request(modern(101, 'tasks/cancel', { taskId: created['taskId'], _meta: WITH_TASKS })),
    );
    expect(ack['resultType']).toBe('complete');
    const task = resultOf(
      await peer.request(modern(102, 'tasks/get', { taskId: created['taskId'], _meta: WITH_TASKS })),
    );
    expect(task['status']).toBe('cancelled');
  });
});
