/**
 * A peer's sidecar in the federation seam: its weights merged beside its graph with attribution,
 * read under the peer graph's bound and rules, and refused by name when malformed.
 */
import { describe, expect, test } from 'vitest';
import type { ConnectomeErrorCode } from '../src/errors.js';
import {
  createGraph,
  encodeGraph,
  encodeSidecar,
  federateGraphs,
  identifiedNode,
  MAX_PEER_GRAPH_BYTES,
  nodeId,
  scopedId,
} from '../src/index.js';

const server = identifiedNode('demo', { kind: 'server' });
const tool = identifiedNode('demo', { kind: 'tool', name: 'echo' });
const EDGE = { from: server.id, to: tool.id, kind: 'invoke', provenance: 'observed' } as const;
const WEIGHT = { count: 3, latency_us: { mean: 12.5, max: 40 } };

const bare = createGraph({ nodes: [server, tool], edges: [EDGE] });
const weighted = createGraph({ nodes: [server, tool], edges: [{ ...EDGE, weight: WEIGHT }] });
const bytes = encodeGraph(bare);
const text = (s: string) => new TextEncoder().encode(s);

async function refusal(sidecar: Uint8Array): Promise<{ code: string; message: string }> {
  return federateGraphs([{ process: 'peer', bytes, sidecar }]).then(
    () => {
      throw new Error('the merge was accepted');
    },
    (e: unknown) => e as { code: string; message: string },
  );
}

describe("a peer's sidecar in the federation seam", () => {
  test("the peer's weights land on its scoped edge, float latency included, and weight_by names the peer", async () => {
    const merged = await federateGraphs([
      { process: 'peer', bytes, sidecar: encodeSidecar(weighted) },
      { process: 'local', graph: bare },
    ]);
    const scoped = (process: string) =>
      merged.graph.edges.find((e) => e.from === scopedId(process, server.id));
    expect(scoped('peer')?.weight).toEqual(WEIGHT);
    expect(scoped('local')?.weight).toBeUndefined();
    const by = Object.fromEntries(merged.attribution.map((a) => [a.asserted_by, a.weight_by]));
    expect(by).toEqual({ local: null, peer: 'peer' });
  });

  test("a sidecar's weights stay out of the merged graph's hashed bytes", async () => {
    const withSidecar = await federateGraphs([{ process: 'peer', bytes, sidecar: encodeSidecar(weighted) }]);
    const without = await federateGraphs([{ process: 'peer', bytes }]);
    expect(encodeGraph(withSidecar.graph)).toEqual(encodeGraph(without.graph));
    expect(Buffer.from(encodeSidecar(withSidecar.graph)).toString('utf8')).toContain('"mean":12.5');
  });

  test('a malformed sidecar is refused by name, naming the peer and its sidecar', async () => {
    const item = (extra: string) =>
      `{"schema_version":3,"weights":[{"from":${JSON.stringify(EDGE.from)},"kind":"invoke","provenance":"observed","to":${JSON.stringify(EDGE.to)},"weight":1${extra}}]}`;
    const cases: [string, ConnectomeErrorCode][] = [
      ['{"weights":', 'PALISADE_ERR_CONNECTOME_PEER_MALFORMED'],
      ['{"schema_version":3,"schema_version":3,"weights":[]}', 'PALISADE_ERR_CONNECTOME_PEER_MALFORMED'],
      ['[]', 'PALISADE_ERR_CONNECTOME_SIDECAR'],
      ['{"schema_version":3,"weights":[],"algorithm":"sha256"}', 'PALISADE_ERR_CONNECTOME_SIDECAR'],
      ['{"schema_version":2,"weights":[]}', 'PALISADE_ERR_CONNECTOME_SCHEMA_UNSUPPORTED'],
      ['{"schema_version":3,"weights":{}}', 'PALISADE_ERR_CONNECTOME_SIDECAR'],
      [item(',"note":1'), 'PALISADE_ERR_CONNECTOME_SIDECAR'],
      [item('').replace('"kind":"invoke"', '"kind":"call"'), 'PALISADE_ERR_CONNECTOME_SIDECAR'],
      [
        item('').replace('"provenance":"observed"', '"provenance":"declared"'),
        'PALISADE_ERR_CONNECTOME_SIDECAR',
      ],
      [item('').replace(']}', `,${item('').slice(31, -2)}]}`), 'PALISADE_ERR_CONNECTOME_SIDECAR'],
    ];
    for (const [sidecar, code] of cases) {
      const error = await refusal(text(sidecar));
      expect([sidecar, error.code]).toEqual([sidecar, code]);
      expect(error.message).toContain('peer "peer" sidecar');
    }
  });

  test('a weight on an edge the peer never asserted is refused, never drawn on another edge', async () => {
    const other = nodeId('demo', { kind: 'tool', name: 'other' });
    const sidecar = `{"schema_version":3,"weights":[{"from":${JSON.stringify(server.id)},"kind":"invoke","provenance":"observed","to":${JSON.stringify(other)},"weight":1}]}`;
    const error = await refusal(text(sidecar));
    expect(error.code).toBe('PALISADE_ERR_CONNECTOME_SIDECAR');
    expect(error.message).toContain("which the peer's graph does not hold");
  });

  test("a sidecar past the peer graph's byte bound is refused before it is parsed", async () => {
    const error = await refusal(new Uint8Array(MAX_PEER_GRAPH_BYTES + 1));
    expect(error.code).toBe('PALISADE_ERR_CONNECTOME_PEER_TOO_LARGE');
    expect(error.message).toContain('peer "peer" sidecar');
  });

  test('a sidecar that is not bytes is refused by name as an option', async () => {
    const error = await federateGraphs([{ process: 'peer', bytes, sidecar: '{}' as never }]).then(
      () => ({ code: 'accepted' }),
      (e: unknown) => e as { code: string },
    );
    expect(error.code).toBe('PALISADE_ERR_INVALID_OPTION');
  });
});
