/**
 * Will-not-implement: a session on the stateless path. The behavioural half is
 * `test/http/handler-answers.test.ts` ("initialize is answered 200 and no Mcp-Session-Id is
 * issued"); this census holds the source: nothing in it can write the header.
 */
import { describe, expect, test } from 'vitest';
import { noSessionId } from './rules-secrets.js';
import { plant, runCensus } from './source.js';

describe('census: no session id', () => {
  test('no source file writes a session id header or names a session id', () => {
    expect(runCensus(noSessionId)).toEqual([]);
  });

  test('a planted Mcp-Session-Id header write is named', () => {
    const planted = "export function issue(res) {\n  res.setHeader('Mcp-Session-Id', next());\n}\n";
    expect(plant(noSessionId, 'http/planted.ts', planted)).toEqual([
      'http/planted.ts:2 writes the text "Mcp-Session-Id"',
    ]);
  });

  test('a planted sessionIdGenerator option is named', () => {
    const planted = 'export const options = { sessionIdGenerator: () => String(Date.now()) };\n';
    expect(plant(noSessionId, 'options.ts', planted)).toEqual(['options.ts:1 names sessionIdGenerator']);
  });

  test('a session id mentioned only in a comment is not a violation', () => {
    expect(plant(noSessionId, 'http/planted.ts', '// Mcp-Session-Id is never written\nexport {};\n')).toEqual(
      [],
    );
  });
});
