/**
 * The package's own source, read by the same parser-based census helpers as the server's: what it
 * may import, where it may reach the network, and what it must never do with what it holds.
 * Each rule is also shown to name a planted violation, so a census that could not fail is caught.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { noEval } from '../../palisade-mcp/test/census/rules-code.js';
import {
  builtinName,
  type Census,
  child,
  importsOf,
  memberNames,
  nameOf,
  parse,
  plant,
  runCensus,
  type SourceFile,
  sourceFiles,
  type Violation,
  walk,
} from '../../palisade-mcp/test/census/source.js';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};

const files: SourceFile[] = sourceFiles('palisade-mcp-auth');

/** The server's public entry points: what a host imports too, so its restructuring cannot break us. */
const SERVER_ENTRIES = new Set(['palisade-mcp', 'palisade-mcp/http', 'palisade-mcp/fetch']);

const onlyAllowedImports: Census = (file, source) => {
  const found: Violation[] = [];
  for (const record of importsOf(parse(file, source))) {
    const { specifier, line } = record;
    if (specifier.startsWith('.') || builtinName(specifier) !== null) continue;
    if (Object.hasOwn(manifest.dependencies, specifier)) continue;
    if (SERVER_ENTRIES.has(specifier) && record.typeOnly) continue;
    found.push({
      file,
      line,
      what: SERVER_ENTRIES.has(specifier) ? `imports a value from ${specifier}` : `imports ${specifier}`,
    });
  }
  return found;
};

/** Modules that open connections; fetch is the one way out (fetch/bounded-fetch.ts). */
const SOCKETS = new Set([
  'node:http',
  'node:https',
  'node:http2',
  'node:net',
  'node:tls',
  'node:dgram',
  'node:dns',
]);

const oneWayOut: Census = (file, source) => {
  const parsed = parse(file, source);
  const found: Violation[] = [];
  for (const record of importsOf(parsed)) {
    const builtin = builtinName(record.specifier);
    if (builtin !== null && SOCKETS.has(builtin) && !record.typeOnly) {
      found.push({ file, line: record.line, what: `imports ${builtin}` });
    }
  }
  if (file === 'fetch/bounded-fetch.ts') return found;
  walk(parsed.program, (node) => {
    if (node.type === 'CallExpression') {
      const callee = child(node, 'callee');
      const name =
        callee?.type === 'Identifier'
          ? nameOf(callee)
          : callee?.type === 'MemberExpression'
            ? memberNames(callee).property
            : null;
      if (name === 'fetch') found.push({ file, line: parsed.lineOf(node), what: 'calls fetch' });
    }
  });
  return found;
};

/** The package writes nothing anywhere: its refusals reach the host through the server's log, by rule. */
const writesNothing: Census = (file, source) => {
  const parsed = parse(file, source);
  const found: Violation[] = [];
  walk(parsed.program, (node) => {
    if (node.type !== 'MemberExpression') return;
    const { object, property } = memberNames(node);
    if (object === 'console') found.push({ file, line: parsed.lineOf(node), what: `console.${property}` });
    if ((property === 'stderr' || property === 'stdout') && object === 'process') {
      found.push({ file, line: parsed.lineOf(node), what: `process.${property}` });
    }
  });
  return found;
};

describe('census of palisade-mcp-auth', () => {
  test('reads its whole source', () => {
    expect(files.map((entry) => entry.file)).toContain('bearer.ts');
    expect(files.length).toBeGreaterThan(15);
  });

  test('imports only jose, Node built-ins, and types from the server’s public entry points', () => {
    expect(Object.keys(manifest.dependencies)).toEqual(['jose']);
    expect(Object.keys(manifest.peerDependencies)).toEqual(['palisade-mcp']);
    expect(runCensus(onlyAllowedImports, files)).toEqual([]);
  });

  test('a planted value import from the server, or an import of its source, is named', () => {
    expect(plant(onlyAllowedImports, 'x.ts', "import { createServer } from 'palisade-mcp';\n")).toEqual([
      'x.ts:1 imports a value from palisade-mcp',
    ]);
    expect(
      plant(
        onlyAllowedImports,
        'x.ts',
        "import type { Verdict } from 'palisade-mcp/src/http/authorize.js';\n",
      ),
    ).toEqual(['x.ts:1 imports palisade-mcp/src/http/authorize.js']);
  });

  test('reaches the network in one place only, fetch/bounded-fetch.ts, and opens no socket itself', {
    tags: ['threat-model'],
  }, () => {
    expect(runCensus(oneWayOut, files)).toEqual([]);
    expect(plant(oneWayOut, 'keys/x.ts', "export const f = () => fetch('https://a.example');\n")).toEqual([
      'keys/x.ts:1 calls fetch',
    ]);
    expect(
      plant(oneWayOut, 'keys/x.ts', "import { request } from 'node:https';\nexport { request };\n"),
    ).toEqual(['keys/x.ts:1 imports node:https']);
  });

  test('writes nothing to the console or the standard streams, so no token can be logged by it', {
    tags: ['threat-model'],
  }, () => {
    expect(runCensus(writesNothing, files)).toEqual([]);
    expect(plant(writesNothing, 'x.ts', 'export const f = (t: string) => console.log(t);\n')).toEqual([
      'x.ts:1 console.log',
    ]);
  });

  test('evaluates no code: no eval, no Function constructor, no node:vm, no import() of a computed name', () => {
    expect(runCensus(noEval, files)).toEqual([]);
    expect(plant(noEval, 'x.ts', "export const f = () => eval('1');\n")).toEqual(['x.ts:1 calls eval']);
  });
});
