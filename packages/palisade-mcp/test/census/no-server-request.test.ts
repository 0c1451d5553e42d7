/**
 * Will-not-implement: a server-to-client request, but the ones a session carries for a handler's
 * `ctx.inputRequired`. The package's source builds a message with both `method` and `id` in one
 * file (`sessions/client-request.ts`) and only with the input request's own method; the
 * behavioural halves are the conformance run (every server-stateless check that a 2026-07-28
 * response stream holds no request passes) and test/sessions/session-input.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { CLIENT_REQUEST_FILE, noServerRequest } from './rules-protocol.js';
import { plant, runCensus, sourceFiles } from './source.js';

describe('census: no server-to-client request', () => {
  test('no source file builds a message with both method and id, but the input requests of a session', () => {
    expect(runCensus(noServerRequest)).toEqual([]);
  });

  test('the one file that builds them is read, and builds one', () => {
    const file = sourceFiles().find((entry) => entry.file === CLIENT_REQUEST_FILE);
    expect(file).toBeDefined();
    expect(plant(noServerRequest, 'protocol/moved.ts', file?.source ?? '')).toHaveLength(1);
  });

  test('a planted request with a literal method in the one file is named', () => {
    const planted =
      "export function ping(id) {\n  return { jsonrpc: '2.0', id, method: 'ping', params: {} };\n}\n";
    expect(plant(noServerRequest, CLIENT_REQUEST_FILE, planted)).toEqual([
      `${CLIENT_REQUEST_FILE}:2 builds a request (an object with method and id)`,
    ]);
  });

  test('a planted sampling request is named', () => {
    const planted =
      "export function ask(id) {\n  return { jsonrpc: '2.0', id, method: 'sampling/createMessage', params: {} };\n}\n";
    expect(plant(noServerRequest, 'protocol/planted.ts', planted)).toEqual([
      'protocol/planted.ts:2 builds a request (an object with method and id)',
    ]);
  });

  test('a notification, which has a method and no id, is not a violation', () => {
    const planted = "export const note = { jsonrpc: '2.0', method: 'notifications/progress', params: {} };\n";
    expect(plant(noServerRequest, 'protocol/planted.ts', planted)).toEqual([]);
  });
});
