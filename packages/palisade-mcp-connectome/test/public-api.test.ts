/**
 * The connectome's public surface is the `palisade-mcp/connectome` subpath, read here through the
 * package's own `exports` map from the built `dist/` (`npm test` builds first), exactly as a host
 * imports it. The list is curated: a name joins it on purpose, by editing this test. The main
 * entry carries none of it, so a server that never builds a graph never loads this code.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const PUBLIC_VALUES = [
  'allPaths',
  'ASSERTED_BY_LABEL',
  'canonicalDiff',
  'canonicalGraph',
  'CONNECTOME_DECLARED_URI',
  'CONNECTOME_DIFF_URI',
  'CONNECTOME_OBSERVED_URI',
  'connectomeResources',
  'createGraph',
  'declaredFromCatalog',
  'DEFAULT_HOT_PERCENTILE',
  'DEFAULT_MAX_OBSERVED_EDGES',
  'DEFAULT_MAX_REACH_EDGES',
  'DEFAULT_TRACER_MAX_DURATION_MS',
  'DEFAULT_TRACER_MAX_SAMPLES',
  'diffGraphs',
  'dominates',
  'dominators',
  'effectiveConnectivity',
  'encodeDiff',
  'encodeGraph',
  'encodeSidecar',
  'federateGraphs',
  'identifiedNode',
  'MAX_OBSERVED_EDGES',
  'MAX_PEER_GRAPH_BYTES',
  'MAX_TRACER_DURATION_MS',
  'MAX_TRACER_SAMPLES',
  'mergeStaticGraph',
  'nodeId',
  'observedGraph',
  'pathHeat',
  'reachable',
  'reachableWithout',
  'readPeerGraph',
  'scopedId',
  'SCHEMA_VERSION',
  'signGraph',
  'startCollector',
  'startTracer',
  'staticToDeclared',
];

const manifestPath = fileURLToPath(new URL('../../package.json', import.meta.url));

describe('the palisade-mcp/connectome subpath', () => {
  test('the exports map points the subpath at the built index and its types', () => {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
      exports: Record<string, { types: string; default: string }>;
    };
    const entry = manifest.exports['./connectome'];
    expect(entry).toEqual({
      types: './dist/connectome/index.d.ts',
      default: './dist/connectome/index.js',
    });
    for (const file of [entry!.types, entry!.default]) {
      expect(existsSync(fileURLToPath(new URL(`../../${file}`, import.meta.url)))).toBe(true);
    }
  });

  test('exports exactly the curated values, resolved by package name', async () => {
    const connectome = await import('palisade-mcp/connectome');
    expect(Object.keys(connectome).sort()).toEqual([...PUBLIC_VALUES].sort());
  });

  test('the main entry exports none of them', async () => {
    const main: Record<string, unknown> = await import('palisade-mcp');
    expect(PUBLIC_VALUES.filter((name) => name in main)).toEqual([]);
  });
});
