/**
 * The sidecar: the weights of a graph's edges (counts, latency summaries), kept out of the
 * hashed bytes because a measurement changes with every run while the graph does not. Same
 * `schema_version`, no `algorithm`; items in canonical edge order, each `from`, `kind`,
 * `provenance`, `to`, `weight`. Only edges that carry a weight appear.
 *
 * Weights follow the label grammar, plus finite floats (a latency mean, a rate): a weight never
 * enters hashed bytes. A float is written in the original's text, Erlang's shortest round-trip
 * float text (`erlang-float.ts`), so float sidecars match the original's byte for byte.
 */
import { writeValue } from './canonical-json.js';
import { admitGraph, type Graph } from './graph.js';
import type { LabelValue } from './label-value.js';
import { SCHEMA_VERSION } from './vocabulary.js';

export function encodeSidecar(graph: Graph): Uint8Array {
  const weights: LabelValue[] = [];
  for (const edge of admitGraph(graph).edges) {
    if (edge.weight === undefined) continue;
    const { from, kind, provenance, to, weight } = edge;
    weights.push({ from, kind, provenance, to, weight });
  }
  return new Uint8Array(Buffer.from(writeValue({ schema_version: SCHEMA_VERSION, weights }), 'utf8'));
}
