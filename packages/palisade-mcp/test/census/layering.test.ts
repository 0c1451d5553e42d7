/**
 * Imports flow one way between the package's parts. Each part has a level; an import may only go
 * to a strictly lower level, so parts on one level never import each other.
 *
 *   0  errors, limits,     the error classes, the named bounds, and quoting outside text for a
 *      quote               message: import nothing of ours
 *   1  options             option checking, on errors
 *   2  wire, telemetry     bytes to JSON and back; the dispatch channel
 *   3  catalog             the host's declarations, checked
 *   4  protocol            the pure message core, over catalog and wire
 *   5  server              createServer: catalog and protocol put together
 *   6  transports, http,   what carries a server (stdio, HTTP/1.1 and HTTP/2), and what reads one
 *      connectome
 *   7  index               the public surface, re-exporting what is below it
 *   8  cli                 may use anything
 */
import { describe, expect, test } from 'vitest';
import { layeringCensus, partEdges } from './rules-code.js';
import { partOf, plant, runCensus, sourceFiles } from './source.js';

const LEVELS: Readonly<Record<string, number>> = {
  errors: 0,
  limits: 0,
  quote: 0,
  revisions: 0,
  options: 1,
  wire: 2,
  telemetry: 2,
  catalog: 3,
  protocol: 4,
  server: 5,
  transports: 6,
  http: 6,
  connectome: 6,
  index: 7,
  cli: 8,
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
    const planted = "import { classify } from '../protocol/jsonrpc.js';\nexport { classify };\n";
    expect(plant(layeringCensus(LEVELS), 'wire/planted.ts', planted)).toEqual([
      'wire/planted.ts:1 import wire → protocol goes against the flow',
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
