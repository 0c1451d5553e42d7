/**
 * The server package's will-not-implement censuses, held over this package's source too: it came
 * out of palisade-mcp and keeps every promise it made there. Same rules, same parser
 * (palisade-mcp's test/census), run over `packages/palisade-mcp-connectome/src`, with this
 * package's own lists where the rule takes one (its built-ins, its one resource offer, the
 * packages it may import).
 */
import { describe, expect, test } from 'vitest';
import {
  builtinCensus,
  builtinsIn,
  noEval,
  noOwnCatalogExcept,
} from '../../../palisade-mcp/test/census/rules-code.js';
import { noServerRequest } from '../../../palisade-mcp/test/census/rules-protocol.js';
import { noOAuth, noOutbound } from '../../../palisade-mcp/test/census/rules-reach.js';
import {
  noKeyMaterial,
  noSessionId,
  noSigningPrimitive,
} from '../../../palisade-mcp/test/census/rules-secrets.js';
import {
  type Census,
  importsOf,
  parse,
  plant,
  runCensus,
  sourceFiles,
  type Violation,
} from '../../../palisade-mcp/test/census/source.js';

const FILES = sourceFiles('palisade-mcp-connectome');

const BUILTINS = [
  // createHash only: the canonical digest (canonical.ts) and the view's script hash (render-html.ts).
  'node:crypto',
  // The dispatch tracing channel the collector listens to (observed.ts).
  'node:diagnostics_channel',
  // The command reads its input files and writes --bound (cli/read-input.ts, cli/connectome.ts).
  'node:fs',
  // Types of the sampling tracer's CPU profile (tracer.ts).
  'node:inspector',
  // The sampling tracer's inspector session (tracer.ts).
  'node:inspector/promises',
  // Module paths in the tracer's samples, relative to a root (tracer.ts).
  'node:path',
  // file: URLs of modules in the tracer's samples (tracer.ts).
  'node:url',
  // parseArgs for the command (cli/connectome.ts).
  'node:util',
] as const;

/** The server package's entries this one may import: its main entry and the shared wire, never a transport. */
const SERVER_ENTRIES = new Set(['palisade-mcp', 'palisade-mcp/wire']);

/** Loaded by `import()` in the command only, refused by name when missing (cli/declared-static.ts). */
const CLI_ON_DEMAND = new Set(['palisade-mcp-static']);

const onlyTheServer: Census = (file, source) => {
  const found: Violation[] = [];
  for (const record of importsOf(parse(file, source))) {
    const { specifier } = record;
    if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
    if (SERVER_ENTRIES.has(specifier)) continue;
    if (record.kind === 'dynamic' && file.startsWith('cli/') && CLI_ON_DEMAND.has(specifier)) continue;
    found.push({ file, line: record.line, what: `imports ${specifier}` });
  }
  return found;
};

describe('census of palisade-mcp-connectome: what it imports', () => {
  test('it imports nothing but the server package entries and node built-ins, and palisade-mcp-static on demand', () => {
    expect(FILES.length).toBeGreaterThan(20);
    expect(runCensus(onlyTheServer, FILES)).toEqual([]);
  });

  test('a planted import of a server transport or a server source file is named', () => {
    const planted =
      "import { serve } from 'palisade-mcp/http';\nimport type { Catalog } from 'palisade-mcp/dist/catalog/catalog.js';\n";
    expect(plant(onlyTheServer, 'planted.ts', planted)).toEqual([
      'planted.ts:1 imports palisade-mcp/http',
      'planted.ts:2 imports palisade-mcp/dist/catalog/catalog.js',
    ]);
  });

  test('exactly the listed built-ins, each still imported somewhere', () => {
    expect(runCensus(builtinCensus(BUILTINS), FILES)).toEqual([]);
    const imported = new Set(FILES.flatMap(({ file, source }) => builtinsIn(file, source)));
    expect(BUILTINS.filter((builtin) => !imported.has(builtin))).toEqual([]);
  });
});

describe('census of palisade-mcp-connectome: what it will not do', () => {
  test('no code from text', () => {
    expect(runCensus(noEval, FILES)).toEqual([]);
  });

  test('no key material and no crypto but hashing', () => {
    expect(runCensus(noKeyMaterial, FILES)).toEqual([]);
  });

  test('no signing or MAC primitive: signing is the host function signGraph is given', () => {
    expect(runCensus(noSigningPrimitive, FILES)).toEqual([]);
  });

  test('no outbound connection, client or OAuth', () => {
    expect(runCensus(noOutbound, FILES)).toEqual([]);
    expect(runCensus(noOAuth, FILES)).toEqual([]);
  });

  test('no session id and no server-to-client request', () => {
    expect(runCensus(noSessionId, FILES)).toEqual([]);
    expect(runCensus(noServerRequest, FILES)).toEqual([]);
  });

  test('no catalog of its own: resources.ts alone builds the three connectome:// resources it offers', () => {
    expect(runCensus(noOwnCatalogExcept('resources.ts'), FILES)).toEqual([]);
    const resources = FILES.find(({ file }) => file === 'resources.ts')!;
    expect(plant(noOwnCatalogExcept(undefined), resources.file, resources.source).length).toBeGreaterThan(0);
  });
});
