/**
 * The client package's own source, read by the server's parser-based census helpers: what it may
 * import (the shared wire and the bounded schema compiler, never the server's transports or its
 * root), where it may reach the network (one file sends, one file builds the connections), and
 * that it evaluates no code. Each rule is also shown to name a planted violation.
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
  peerDependencies?: Record<string, string>;
};

const files: SourceFile[] = sourceFiles('palisade-mcp-client');

/** What the client may take from the server package: the shared wire and the schema compiler. */
const SERVER_ENTRIES = new Set(['palisade-mcp/wire', 'palisade-mcp/schema']);

const onlyAllowedImports: Census = (file, source) => {
  const found: Violation[] = [];
  for (const record of importsOf(parse(file, source))) {
    const { specifier, line } = record;
    if (specifier.startsWith('.') || builtinName(specifier) !== null) continue;
    if (SERVER_ENTRIES.has(specifier) || specifier === 'undici') continue;
    found.push({ file, line, what: `imports ${specifier}` });
  }
  return found;
};

/** Modules that open connections or processes, and the one file each may be used in. */
const REACH: Readonly<Record<string, readonly string[]>> = {
  'node:http': ['oauth/loopback-redirect.ts'],
  'node:https': [],
  'node:http2': [],
  'node:net': ['net/addresses.ts'],
  'node:tls': [],
  'node:dgram': [],
  'node:dns': [],
  'node:dns/promises': ['net/target-policy.ts'],
  'node:child_process': ['transport/stdio/spawn.ts'],
};
/** undici's exports that send or connect, and the file each may be used in. */
const UNDICI: Readonly<Record<string, string>> = {
  request: 'net/outbound.ts',
  Agent: 'net/pinned-agent.ts',
  buildConnector: 'net/pinned-agent.ts',
};

const oneWayOut: Census = (file, source) => {
  const parsed = parse(file, source);
  const found: Violation[] = [];
  for (const record of importsOf(parsed)) {
    if (record.typeOnly) continue;
    const builtin = builtinName(record.specifier);
    if (builtin !== null && Object.hasOwn(REACH, builtin)) {
      if (!(REACH[builtin] ?? []).includes(file))
        found.push({ file, line: record.line, what: `imports ${builtin}` });
    }
    if (record.specifier === 'undici') {
      for (const binding of record.bindings) {
        const allowed = UNDICI[binding.imported];
        if (binding.typeOnly !== true && allowed !== file && binding.imported !== 'Dispatcher') {
          found.push({ file, line: record.line, what: `imports undici ${binding.imported}` });
        }
      }
    }
  }
  walk(parsed.program, (node) => {
    if (node.type !== 'CallExpression') return;
    const callee = child(node, 'callee');
    const name =
      callee?.type === 'Identifier'
        ? nameOf(callee)
        : callee?.type === 'MemberExpression'
          ? memberNames(callee).property
          : null;
    if (name === 'fetch') found.push({ file, line: parsed.lineOf(node), what: 'calls fetch' });
  });
  return found;
};

describe('census of palisade-mcp-client', () => {
  test('reads its whole source', () => {
    expect(files.map((entry) => entry.file)).toContain('protocol/client.ts');
    expect(files.length).toBeGreaterThan(15);
  });

  test('depends on palisade-mcp and undici only', () => {
    expect(Object.keys(manifest.dependencies).sort()).toEqual(['palisade-mcp', 'undici']);
    expect(manifest.peerDependencies).toBeUndefined();
  });

  test('imports the shared wire and the schema compiler from palisade-mcp, never its transports or its root', () => {
    expect(runCensus(onlyAllowedImports, files)).toEqual([]);
  });

  test('a planted import of the server’s transports or root is named', () => {
    expect(plant(onlyAllowedImports, 'x.ts', "import { serveStdio } from 'palisade-mcp/stdio';\n")).toEqual([
      'x.ts:1 imports palisade-mcp/stdio',
    ]);
    expect(plant(onlyAllowedImports, 'x.ts', "import { createServer } from 'palisade-mcp';\n")).toEqual([
      'x.ts:1 imports palisade-mcp',
    ]);
  });

  test('sends through net/outbound.ts alone and builds connections in net/pinned-agent.ts alone', {
    tags: ['threat-model'],
  }, () => {
    expect(runCensus(oneWayOut, files)).toEqual([]);
  });

  test('a planted fetch, undici request or node:https import elsewhere is named', () => {
    expect(plant(oneWayOut, 'oauth/x.ts', "export const f = () => fetch('https://a.example');\n")).toEqual([
      'oauth/x.ts:1 calls fetch',
    ]);
    expect(
      plant(oneWayOut, 'oauth/x.ts', "import { request } from 'undici';\nexport { request };\n"),
    ).toEqual(['oauth/x.ts:1 imports undici request']);
    expect(plant(oneWayOut, 'oauth/x.ts', "import { get } from 'node:https';\nexport { get };\n")).toEqual([
      'oauth/x.ts:1 imports node:https',
    ]);
  });

  test('evaluates no code: no eval, no Function constructor, no node:vm, no import() of a computed name', () => {
    expect(runCensus(noEval, files)).toEqual([]);
    expect(plant(noEval, 'x.ts', "export const f = () => eval('1');\n")).toEqual(['x.ts:1 calls eval']);
  });
});
