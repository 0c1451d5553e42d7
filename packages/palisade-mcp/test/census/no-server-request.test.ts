/**
 * Will-not-implement: a server-to-client request. The package's source never builds a message
 * with both `method` and `id`; the behavioural half is the conformance run, where every
 * server-stateless check that a response stream holds no request passes.
 */
import { describe, expect, test } from 'vitest';
import { noServerRequest } from './rules-protocol.js';
import { plant, runCensus } from './source.js';

describe('census: no server-to-client request', () => {
  test('no source file builds a message with both method and id', () => {
    expect(runCensus(noServerRequest)).toEqual([]);
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
