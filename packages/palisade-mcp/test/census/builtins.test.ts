/**
 * Will-not-implement, by construction: Node built-ins beyond the ones listed here. A new built-in
 * is a new capability (a file system, a process, a socket kind) and must be argued for here, in
 * review, before the census lets it in. Type-only imports count: they tie the source to the module.
 */
import { describe, expect, test } from 'vitest';
import { builtinCensus, builtinsIn } from './rules-code.js';
import { plant, runCensus, sourceFiles } from './source.js';

const BUILTINS = [
  // Buffer for base64 and UTF-8 decoding of bytes from the wire (wire/utf8-text, wire/header-value).
  'node:buffer',
  // createHash only: the binding digest of sealed request state (protocol/request-state).
  'node:crypto',
  // The dispatch tracing channel and refusal events (telemetry, http/refusals, transports/stdio-refusal).
  'node:diagnostics_channel',
  // once() to await a listening server (http/node/serve).
  'node:events',
  // The CLI reads the package's own package.json for --version (cli/main).
  'node:fs',
  // The HTTP/1.1 transport: request and response types, the server serve() listens with.
  'node:http',
  // The HTTP/2 transport: its server, stream responses and constants.
  'node:http2',
  // The listening socket serve() sniffs for HTTP/1.1 or HTTP/2, and isIP for the host option.
  'node:net',
  // A monotonic clock for deadlines and durations (http, telemetry).
  'node:perf_hooks',
  // Stream types for the stdio transport and node/client-error answers.
  'node:stream',
  // serve({ tls }): TLS termination with the host's certificate and key (http/node/serve-tls).
  'node:tls',
  // parseArgs for the CLI (cli/main).
  'node:util',
] as const;

describe('census: exactly the listed Node built-ins', () => {
  test('every built-in a source file imports is on the list, with the node: prefix', () => {
    expect(runCensus(builtinCensus(BUILTINS))).toEqual([]);
  });

  test('every built-in on the list is still imported somewhere', () => {
    const imported = new Set(sourceFiles().flatMap(({ file, source }) => builtinsIn(file, source)));
    expect(BUILTINS.filter((builtin) => !imported.has(builtin))).toEqual([]);
  });

  test('a planted node:child_process import is named', () => {
    const planted = "import { spawn } from 'node:child_process';\nexport { spawn };\n";
    expect(plant(builtinCensus(BUILTINS), 'cli/planted.ts', planted)).toEqual([
      'cli/planted.ts:1 imports node:child_process',
    ]);
  });

  test('a planted built-in without the node: prefix is named even when listed', () => {
    const planted = "import { readFileSync } from 'fs';\nexport { readFileSync };\n";
    expect(plant(builtinCensus(BUILTINS), 'cli/planted.ts', planted)).toEqual([
      'cli/planted.ts:1 imports fs without the node: prefix',
    ]);
  });
});
