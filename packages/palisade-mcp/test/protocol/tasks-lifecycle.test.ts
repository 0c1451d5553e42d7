/**
 * The tasks extension (SEP-2663, 2026-07-28) over a real HTTP socket: a task-supporting tool
 * called by a request that declared the extension answers a CreateTaskResult, the handler runs on,
 * and `tasks/get` reads what the host's store holds; `tasks/cancel` and `tasks/update` act on it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Gate, TestTaskStore, tasksDefinition } from '../fixtures/tasks.js';
import { mountTasks, type TasksPeer } from '../support/tasks-http.js';

type Json = Record<string, unknown>;

const SERVER_INFO = { 'io.modelcontextprotocol/serverInfo': { name: 'tasks-fixture', version: '1.0.0' } };
const NO_EXTENSION: Json = { elicitation: {} };

function resultOf(reply: { body: Json }): Json {
  expect(reply.body).toHaveProperty('result');
  return reply.body['result'] as Json;
}

describe('tasks extension lifecycle over HTTP', () => {
  let peer: TasksPeer;
  let store: TestTaskStore;
  let gate: Gate;

  beforeAll(async () => {
    store = new TestTaskStore();
    gate = new Gate();
    peer = await mountTasks(tasksDefinition(store, gate));
  });
  afterAll(async () => {
    gate.releaseAll();
    await peer.close();
  });

  async function start(name: string): Promise<string> {
    const created = resultOf(await peer.call('tools/call', { name, arguments: {} }));
    expect(created['resultType']).toBe('task');
    return created['taskId'] as string;
  }

  /** Polls tasks/get until the task leaves `working`. */
  async function settled(taskId: string): Promise<Json> {
    for (let round = 0; round < 100; round += 1) {
      const task = resultOf(await peer.call('tasks/get', { taskId }));
      if (task['status'] !== 'working') return task;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`task ${taskId} never settled`);
  }

  test('a task-supporting tool answers a flat CreateTaskResult whose id the store minted', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await peer.call('tools/call', { name: 'hold', arguments: {} });
    const created = resultOf(reply);
    expect(created).toEqual({
      resultType: 'task',
      taskId: store.minted.at(-1),
      status: 'working',
      createdAt: expect.any(String),
      lastUpdatedAt: expect.any(String),
      ttlMs: 60_000,
      pollIntervalMs: 50,
      _meta: SERVER_INFO,
    });
  });

  test('tasks/get on a running task answers working, with no result, error or inputRequests', async () => {
    const taskId = await start('hold');
    const task = resultOf(await peer.call('tasks/get', { taskId }));
    expect(task).toEqual({
      resultType: 'complete',
      taskId,
      status: 'working',
      createdAt: expect.any(String),
      lastUpdatedAt: expect.any(String),
      ttlMs: 60_000,
      pollIntervalMs: 50,
      _meta: SERVER_INFO,
    });
  });

  test('a completed task inlines the tool result on tasks/get', async () => {
    const taskId = await start('hold');
    gate.releaseAll();
    const task = await settled(taskId);
    expect(task['status']).toBe('completed');
    expect(task['result']).toEqual({ content: [{ type: 'text', text: 'released' }] });
    expect(task).not.toHaveProperty('error');
  });

  test('a tool result with isError is a completed task whose result carries isError', async () => {
    const task = await settled(await start('tool_error'));
    expect(task['status']).toBe('completed');
    expect(task['result']).toEqual({ content: [{ type: 'text', text: 'it went wrong' }], isError: true });
  });

  test('a handler that throws is a failed task carrying -32603 and no result', async () => {
    const task = await settled(await start('throws'));
    expect(task['status']).toBe('failed');
    expect(task['error']).toEqual({ code: -32603, message: 'Internal error' });
    expect(task).not.toHaveProperty('result');
    expect(peer.faults).toContain('tool "throws" handler threw');
  });

  test('tasks/cancel acks with an empty result, aborts the handler, and the task reads cancelled', {
    tags: ['threat-model'],
  }, async () => {
    const taskId = await start('hold');
    const abortedBefore = gate.aborted;
    const ack = resultOf(await peer.call('tasks/cancel', { taskId }));
    expect(ack).toEqual({ resultType: 'complete', _meta: SERVER_INFO });
    const task = await settled(taskId);
    expect(task['status']).toBe('cancelled');
    expect(gate.aborted).toBe(abortedBefore + 1);
  });

  test('tasks/cancel on a terminal task acks the same and leaves it as it was', async () => {
    const taskId = await start('tool_error');
    const done = await settled(taskId);
    const ack = resultOf(await peer.call('tasks/cancel', { taskId }));
    expect(ack).toEqual({ resultType: 'complete', _meta: SERVER_INFO });
    expect(resultOf(await peer.call('tasks/get', { taskId }))).toEqual(done);
  });

  test('a task asking for input reads input_required, a partial update keeps the rest, the last resumes it', async () => {
    const taskId = await start('two_questions');
    const asking = await settled(taskId);
    expect(asking['status']).toBe('input_required');
    expect(Object.keys(asking['inputRequests'] as Json)).toEqual(['first', 'second']);

    const partial = { first: { action: 'accept', content: { name: 'one' } }, unknown: { x: 1 } };
    expect(resultOf(await peer.call('tasks/update', { taskId, inputResponses: partial }))).toEqual({
      resultType: 'complete',
      _meta: SERVER_INFO,
    });
    const waiting = resultOf(await peer.call('tasks/get', { taskId }));
    expect(waiting['status']).toBe('input_required');
    expect(Object.keys(waiting['inputRequests'] as Json)).toEqual(['second']);

    const last = { second: { action: 'accept', content: { name: 'two' } } };
    resultOf(await peer.call('tasks/update', { taskId, inputResponses: last }));
    const done = await settled(taskId);
    expect(done['status']).toBe('completed');
    expect(done['result']).toEqual({
      content: [{ type: 'text', text: 'answers: {"name":"one"} {"name":"two"}' }],
    });
  });

  test('without the extension on the request, a task-supporting tool runs synchronously', async () => {
    const created = store.minted.length;
    const reply = await peer.call(
      'tools/call',
      { name: 'tool_error', arguments: {} },
      { capabilities: NO_EXTENSION },
    );
    expect(resultOf(reply)).toEqual({
      resultType: 'complete',
      content: [{ type: 'text', text: 'it went wrong' }],
      isError: true,
      _meta: SERVER_INFO,
    });
    expect(store.minted.length).toBe(created);
  });

  test('with the extension declared, a tool that does not support tasks still answers synchronously', async () => {
    const reply = await peer.call('tools/call', { name: 'plain', arguments: {}, task: { ttl: 1000 } });
    expect(resultOf(reply)['resultType']).toBe('complete');
  });

  test('without the extension, a tool that requires a task is refused -32021 naming the extension', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await peer.call(
      'tools/call',
      { name: 'needs_task', arguments: {} },
      { capabilities: NO_EXTENSION },
    );
    expect(reply.body['error']).toEqual({
      code: -32021,
      message: 'Missing required client capability',
      data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
    });
  });

  test.each(['tasks/get', 'tasks/cancel', 'tasks/update'])(
    '%s from a request that did not declare the extension is refused -32021',
    { tags: ['threat-model'] },
    async (method) => {
      const taskId = await start('tool_error');
      const reply = await peer.call(method, { taskId, inputResponses: {} }, { capabilities: NO_EXTENSION });
      expect((reply.body['error'] as Json)['code']).toBe(-32021);
    },
  );

  test('an Mcp-Name header that is not the taskId is refused -32020 with HTTP 400', {
    tags: ['threat-model'],
  }, async () => {
    const taskId = await start('tool_error');
    const reply = await peer.call('tasks/get', { taskId }, { headers: { 'Mcp-Name': 'another-task' } });
    expect(reply.status).toBe(400);
    expect((reply.body['error'] as Json)['code']).toBe(-32020);
  });
});
