/**
 * Records of the original's schema 1 and 2 are refused by their own name with the remedy, not
 * converted (see `src/connectome/schema-version.ts` for why): as a peer's graph, as a sidecar or
 * diff handed to the renderer, and as a CLI input file.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { encodeGraph, readPeerGraph } from '../src/index.js';
import { renderModel } from '../src/render-model.js';
import { workedExample } from './fixtures/graphs.js';
import { refusedWith } from './refusal.js';

const NODES = [
  { id: 's/server', kind: 'server', labels: {}, level: 'server' },
  { id: 's/tool/t', kind: 'tool', labels: { mode: 'read_only' }, level: 'server' },
];
const edge = (sign: string) => [
  { from: 's/server', kind: 'invoke', provenance: 'declared', sign, to: 's/tool/t' },
];
/** Schema 1 (0.4.0): no algorithm member, the sign `unknown`. */
const SCHEMA_1 = JSON.stringify({ schema_version: 1, nodes: NODES, edges: edge('unknown') });
/** Schema 2 (0.5.0): no algorithm member, always SHA-256, the sign `unset`. */
const SCHEMA_2 = JSON.stringify({ schema_version: 2, nodes: NODES, edges: edge('unset') });

const bytes = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'utf8'));

describe('older schema numbers of the canonical format', () => {
  test('a peer graph of schema 1 is refused by name, saying its sign has no faithful reading', () => {
    const error = refusedWith(
      () => readPeerGraph('p', bytes(SCHEMA_1)),
      'PALISADE_ERR_CONNECTOME_SCHEMA_UNSUPPORTED',
    );
    expect(error.message).toContain('schema 1 is not supported');
    expect(error.message).toContain('re-export it as schema 3');
  });

  test('a peer graph of schema 2 is refused by name, not converted under a hash that would not cover it', () => {
    const error = refusedWith(
      () => readPeerGraph('p', bytes(SCHEMA_2)),
      'PALISADE_ERR_CONNECTOME_SCHEMA_UNSUPPORTED',
    );
    expect(error.message).toContain('schema 2 is not supported');
  });

  test('a schema number never written is still a malformed envelope, not an old schema', () => {
    const text = Buffer.from(encodeGraph(workedExample())).toString('utf8').replace(':3,', ':4,');
    refusedWith(() => readPeerGraph('p', bytes(text)), 'PALISADE_ERR_CONNECTOME_PEER_MALFORMED');
  });

  test('a sidecar or a diff of schema 2 handed to the renderer is refused by name', () => {
    const graph = workedExample();
    refusedWith(
      () => renderModel({ graph, sidecar: { schema_version: 2, weights: [] } }),
      'PALISADE_ERR_CONNECTOME_SCHEMA_UNSUPPORTED',
    );
    refusedWith(
      () => renderModel({ graph, diff: { schema_version: 1 } as never }),
      'PALISADE_ERR_CONNECTOME_SCHEMA_UNSUPPORTED',
    );
  });
});

describe('older schema numbers through the CLI', () => {
  const CLI = fileURLToPath(new URL('../../palisade-mcp/dist/cli/main.js', import.meta.url));
  const dir = mkdtempSync(join(tmpdir(), 'palisade-old-schema-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('palisade connectome declared on a schema-1 file exits 1 naming the file, the code and the remedy', () => {
    writeFileSync(join(dir, 'old.json'), SCHEMA_1);
    const out = spawnSync(process.execPath, [CLI, 'connectome', 'declared', 'old.json'], {
      encoding: 'utf8',
      cwd: dir,
    });
    expect(out.status).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toMatch(
      /^palisade connectome declared: PALISADE_ERR_CONNECTOME_SCHEMA_UNSUPPORTED: old\.json: the graph: schema 1 is not supported .*re-export it as schema 3/,
    );
  });
});
