/**
 * The connectome's public surface is the `palisade-mcp-connectome` package, read here through its
 * own `exports` map from the built `dist/` (`npm test` builds first), exactly as a host imports
 * it. The list is curated: a name joins it on purpose, by editing this test. The server package
 * carries none of it, so a server that never builds a graph never installs this code.
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
  'ConnectomeError',
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

const manifestPath = fileURLToPath(new URL('../package.json', import.meta.url));
const serverManifestPath = fileURLToPath(new URL('../../palisade-mcp/package.json', import.meta.url));

interface Manifest {
  readonly exports: Record<string, { types: string; default: string } | string>;
}

describe('the palisade-mcp-connectome package', () => {
  test('the exports map points the package at the built index, and ./cli at the command, with their types', () => {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
    expect(manifest.exports).toEqual({
      '.': { types: './dist/index.d.ts', default: './dist/index.js' },
      './cli': { types: './dist/cli/connectome.d.ts', default: './dist/cli/connectome.js' },
      './package.json': './package.json',
    });
    for (const entry of [manifest.exports['.'], manifest.exports['./cli']]) {
      if (typeof entry !== 'object') throw new Error('an entry without conditions');
      for (const file of [entry.types, entry.default]) {
        expect(existsSync(fileURLToPath(new URL(`../${file}`, import.meta.url)))).toBe(true);
      }
    }
  });

  test('exports exactly the curated values, resolved by package name', async () => {
    const connectome = await import('palisade-mcp-connectome');
    expect(Object.keys(connectome).sort()).toEqual([...PUBLIC_VALUES].sort());
  });

  test('the ./cli entry exports the command the palisade CLI runs', async () => {
    const cli = await import('palisade-mcp-connectome/cli');
    expect(typeof cli.connectome).toBe('function');
  });

  test('the server package exports none of them, and offers no connectome subpath', async () => {
    const main: Record<string, unknown> = await import('palisade-mcp');
    expect(PUBLIC_VALUES.filter((name) => name in main)).toEqual([]);
    const server = JSON.parse(readFileSync(serverManifestPath, 'utf8')) as Manifest;
    expect(Object.keys(server.exports).filter((subpath) => subpath.includes('connectome'))).toEqual([]);
  });
});
