/**
 * Imports flow one way between the package's parts. Each part has a level; an import may only go
 * to a strictly lower level, so parts on one level never import each other.
 *
 *   0  errors, limits,     the error classes, the named bounds, the revisions, and quoting outside
 *      revisions, quote    text for a message: import nothing of ours
 *   1  wire, unavailable   bytes to JSON and back, the JSON-RPC envelope, the MCP headers: what a
 *                          client shares with the server (`palisade-mcp/wire`), below every other part;
 *                          and the error a shared store throws while its state is unreachable
 *   2  options, telemetry  option checking; the dispatch channel and the log adapters
 *   3  catalog             the host's declarations, checked
 *   4  protocol            the pure message core, over catalog and wire
 *   5  server, sessions    createServer: catalog and protocol put together; the session contracts,
 *                          their in-memory stores and the session id (HTTP sessions, opt-in)
 *   6  transports, http,   what carries a server (stdio, HTTP/1.1 and HTTP/2), and what reads one
 *      connectome
 *   7  index               the public surface, re-exporting what is below it
 *   8  cli                 may use anything
 *
 * Inside `http`, the same flow between its folders: `headers/` (reading header lines, the MCP
 * header match) under the rules both runtimes share (the files at the top of `http/`), under
 * `sessions/` (HTTP sessions, on either runtime), under `node/` and `fetch/`, which never import
 * each other. `headers/` is entered through its index.
 *
 * And no two files import each other, however far round: a circle inside one part is invisible to
 * the levels, so it is looked for file by file, type imports included.
 */
import { describe, expect, test } from 'vitest';
import {
  importCircles,
  innerLayeringCensus,
  layeringCensus,
  partEdges,
  subpartOf,
  throughIndexCensus,
} from './rules-code.js';
import { partOf, plant, runCensus, sourceFiles } from './source.js';

const LEVELS: Readonly<Record<string, number>> = {
  errors: 0,
  limits: 0,
  quote: 0,
  revisions: 0,
  wire: 1,
  unavailable: 1,
  options: 2,
  telemetry: 2,
  catalog: 3,
  protocol: 4,
  server: 5,
  sessions: 5,
  transports: 6,
  http: 6,
  connectome: 6,
  index: 7,
  cli: 8,
};

const HTTP_LEVELS: Readonly<Record<string, number>> = {
  headers: 0,
  shared: 1,
  sessions: 2,
  node: 3,
  fetch: 3,
};

/** A violation without its line, so a pinned back edge survives edits above it. */
function withoutLine(rendered: string): string {
  return rendered.replace(/^([^:]+):\d+ (.*) goes against the flow$/, '$1: $2');
}

describe('census: imports flow one way between the parts', () => {
  test('every part of the package has a level', () => {
    const parts = new Set(sourceFiles().map(({ file }) => partOf(file)));
    expect([...parts].filter((part) => LEVELS[part] === undefined)).toEqual([]);
  });

  test('no import goes against the flow', () => {
    expect(runCensus(layeringCensus(LEVELS)).map(withoutLine)).toEqual([]);
  });

  test('the census sees the part-to-part imports the order is drawn from', () => {
    const edges = new Set(
      sourceFiles().flatMap(({ file, source }) => partEdges(file, source).map((e) => `${e.from} → ${e.to}`)),
    );
    for (const edge of [
      'catalog → wire',
      'protocol → catalog',
      'server → protocol',
      'transports → wire',
      'http → protocol',
    ]) {
      expect(edges).toContain(edge);
    }
  });

  test('a planted import of protocol from wire is named', () => {
    const planted = "import { handleMessage } from '../protocol/core.js';\nexport { handleMessage };\n";
    expect(plant(layeringCensus(LEVELS), 'wire/planted.ts', planted)).toEqual([
      'wire/planted.ts:1 import wire → protocol goes against the flow',
    ]);
  });

  test('wire imports nothing of the package but the errors, the limits and the revisions', () => {
    const edges = sourceFiles().flatMap(({ file, source }) =>
      partEdges(file, source).filter((edge) => edge.from === 'wire'),
    );
    expect([...new Set(edges.map((edge) => edge.to))].sort()).toEqual(['errors', 'limits', 'revisions']);
  });

  test('a planted import of the option checks from wire is named', () => {
    const planted = "import { requireObject } from '../options.js';\nexport { requireObject };\n";
    expect(plant(layeringCensus(LEVELS), 'wire/planted.ts', planted)).toEqual([
      'wire/planted.ts:1 import wire → options goes against the flow',
    ]);
  });

  test('a planted import between two parts on one level is named', () => {
    const planted = "import type { Graph } from '../connectome/graph.js';\nexport type { Graph };\n";
    expect(plant(layeringCensus(LEVELS), 'http/planted.ts', planted)).toEqual([
      'http/planted.ts:1 type import http → connectome goes against the flow',
    ]);
  });

  test('an import into a lower part is not a violation', () => {
    const source = "import { encode } from '../wire/encode.js';\nexport { encode };\n";
    expect(plant(layeringCensus(LEVELS), 'protocol/planted.ts', source)).toEqual([]);
  });
});

describe('census: inside http, node/ and fetch/ stand on the shared rules and never on each other', () => {
  test('every folder of http has a level', () => {
    const folders = new Set(sourceFiles().flatMap(({ file }) => subpartOf('http', file) ?? []));
    expect([...folders].sort()).toEqual(Object.keys(HTTP_LEVELS).sort());
  });

  test('no import inside http goes against the flow', () => {
    expect(runCensus(innerLayeringCensus('http', HTTP_LEVELS))).toEqual([]);
  });

  test('every file outside http/headers reaches it through its index', () => {
    expect(runCensus(throughIndexCensus('http/headers'))).toEqual([]);
  });

  test('a planted import of the node handler from the fetch handler is named', () => {
    const planted =
      "import { createHttpHandler } from '../node/handler.js';\nexport { createHttpHandler };\n";
    expect(plant(innerLayeringCensus('http', HTTP_LEVELS), 'http/fetch/planted.ts', planted)).toEqual([
      'http/fetch/planted.ts:1 import http/fetch → http/node goes against the flow',
    ]);
  });

  test('a planted import of node/ from a shared rule is named', () => {
    const planted = "import type { BodyRead } from './node/read-body.js';\nexport type { BodyRead };\n";
    expect(plant(innerLayeringCensus('http', HTTP_LEVELS), 'http/planted.ts', planted)).toEqual([
      'http/planted.ts:1 type import http/shared → http/node goes against the flow',
    ]);
  });

  test('a planted import past the headers index is named', () => {
    const planted = "import { trimOws } from '../headers/text.js';\nexport { trimOws };\n";
    expect(plant(throughIndexCensus('http/headers'), 'http/node/planted.ts', planted)).toEqual([
      'http/node/planted.ts:1 imports http/headers/text.ts past http/headers/index.ts',
    ]);
  });
});

describe('census: no import circle between files', () => {
  test('no file of the package reaches itself through its imports, type imports included', () => {
    expect(importCircles(sourceFiles())).toEqual([]);
  });

  test('no file of palisade-mcp-auth or palisade-mcp-connectome does either', () => {
    expect(importCircles(sourceFiles('palisade-mcp-auth'))).toEqual([]);
    expect(importCircles(sourceFiles('palisade-mcp-connectome'))).toEqual([]);
  });

  test('a planted circle of two type imports is named', () => {
    const files = [
      { file: 'catalog/a.ts', source: "import type { B } from './b.js';\nexport type A = B[];\n" },
      { file: 'catalog/b.ts', source: "import type { A } from './a.js';\nexport type B = A | string;\n" },
      { file: 'catalog/c.ts', source: "import type { A } from './a.js';\nexport type C = A;\n" },
    ];
    expect(importCircles(files)).toEqual(['catalog/a.ts ↔ catalog/b.ts']);
  });

  test('a planted circle three files round, through a re-export, is named once', () => {
    const files = [
      { file: 'http/a.ts', source: "import { b } from './b.js';\nexport const a = () => b;\n" },
      { file: 'http/b.ts', source: "export { c as b } from './c.js';\n" },
      { file: 'http/c.ts', source: "import type { a } from './a.js';\nexport const c: typeof a | 1 = 1;\n" },
    ];
    expect(importCircles(files)).toEqual(['http/a.ts ↔ http/b.ts ↔ http/c.ts']);
  });

  test('a file that imports itself is a circle', () => {
    const files = [
      { file: 'wire/x.ts', source: "import type { X } from './x.js';\nexport type X = string;\n" },
    ];
    expect(importCircles(files)).toEqual(['wire/x.ts']);
  });
});
