/**
 * Will-not-implement: a session on the stateless path. Sessions are opt-in (the `sessions` option
 * of the HTTP transports): the census holds the source to naming a session id only in the session
 * module (`sessions/`, `http/sessions/`), and to reaching the HTTP sessions only from the two
 * handlers, which build them only when the option is given. The behavioural half is
 * `test/http/handler-answers.test.ts` ("initialize is answered 200 and no Mcp-Session-Id is
 * issued") and `test/sessions/session-lifecycle.test.ts` ("without the sessions option issues no
 * id and advertises no list changes", "without the sessions option DELETE and GET are 405,
 * allowing POST only").
 */
import { describe, expect, test } from 'vitest';
import { noSessionId, SESSION_ID_HOMES } from './rules-secrets.js';
import { importsOf, parse, plant, runCensus, sourceFiles } from './source.js';

describe('census: no session id', () => {
  test('no source file outside the session module writes a session id header or names a session id', () => {
    expect(runCensus(noSessionId)).toEqual([]);
  });

  test('the session module names session ids, so the census reads it as the one exception', () => {
    const files = sourceFiles().filter(({ file }) => SESSION_ID_HOMES.some((home) => file.startsWith(home)));
    const named = files.flatMap(({ file, source }) => noSessionId(`planted/${file}`, source));
    expect(named.length).toBeGreaterThan(0);
  });

  test('only the two handlers import the HTTP sessions, and they build them only from the sessions option', () => {
    const importers = sourceFiles().flatMap(({ file, source }) =>
      importsOf(parse(file, source)).some(
        (record) =>
          !file.startsWith('http/sessions/') && /\/sessions\/session-host\.js$/.test(record.specifier),
      )
        ? [file]
        : [],
    );
    expect(importers.sort()).toEqual(['http/fetch/handler.ts', 'http/node/handler.ts']);
    for (const file of importers) {
      const source = sourceFiles().find((entry) => entry.file === file)?.source ?? '';
      expect(source).toMatch(/checked\.sessions === undefined\s*\?\s*undefined\s*:\s*new SessionHost\(/);
    }
  });

  test('a planted session id header written in the HTTP node handler is named', () => {
    const planted = "export function issue(res) {\n  res.setHeader('mcp-session-id', 'x');\n}\n";
    expect(plant(noSessionId, 'http/node/handler.ts', planted)).toEqual([
      'http/node/handler.ts:2 writes the text "mcp-session-id"',
    ]);
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
