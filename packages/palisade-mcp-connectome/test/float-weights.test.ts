/**
 * Float weights (a latency mean, a rate): kept in the unhashed sidecar in the original's float
 * text, refused everywhere bytes are hashed.
 */
import { describe, expect, test } from 'vitest';
import { encodeValue } from '../src/canonical.js';
import { erlangFloatText } from '../src/erlang-float.js';
import { createGraph, encodeGraph, encodeSidecar } from '../src/index.js';
import { renderModel } from '../src/render-model.js';
import { refusedWith } from './refusal.js';

const NODES = [
  { id: 's/server', kind: 'server', level: 'server' },
  { id: 's/tool/t', kind: 'tool', level: 'server' },
] as const;

function weighted(weight?: unknown) {
  const edge = { from: 's/server', to: 's/tool/t', kind: 'invoke', provenance: 'observed' } as const;
  return createGraph({
    nodes: NODES,
    edges: [weight === undefined ? edge : { ...edge, weight: weight as never }],
  });
}

describe('float weights in the sidecar', () => {
  test("a float is written as the original's shortest round-trip text, for every example its page gives", () => {
    // From the original's canonical page, value then text.
    const examples: [number, string][] = [
      [0.1, '0.1'],
      [0.0001, '0.0001'],
      [999999999999999.0, '999999999999999.0'],
      [1e15, '1.0e15'],
      [1e-5, '1.0e-5'],
      [1e20, '1.0e20'],
      [9.99e14, '9.99e14'],
      [3e6, '3.0e6'],
      [1.23456e-4, '1.23456e-4'],
      [0.001234, '0.001234'],
      [12340.0, '12340.0'],
      [0, '0.0'],
      [-0, '-0.0'],
      [-2.5, '-2.5'],
    ];
    expect(examples.map(([value]) => erlangFloatText(value))).toEqual(examples.map(([, text]) => text));
  });

  test('past the large-mantissa limits the original takes an exponent where plain notation would fit', () => {
    // Digits 2^53 with exponent 0; digits past 2^52 div 5 (900719925474099) with exponent 1.
    expect(erlangFloatText(2 ** 53)).toBe('9.007199254740992e15');
    expect(erlangFloatText(9007199254741010)).toBe('9.00719925474101e15');
    // At the limit itself, plain notation.
    expect(erlangFloatText(9007199254740990)).toBe('9007199254740990.0');
  });

  test('a float weight is kept and written in the sidecar in that text', () => {
    const graph = weighted({ count: 4, mean_us: 12.5, rate: 0.0001 });
    expect(Buffer.from(encodeSidecar(graph)).toString('utf8')).toBe(
      '{"schema_version":3,"weights":[{"from":"s/server","kind":"invoke","provenance":"observed","to":"s/tool/t","weight":{"count":4,"mean_us":12.5,"rate":0.0001}}]}',
    );
  });

  test("a float weight leaves the graph's hashed bytes exactly those of the unweighted graph", () => {
    expect(encodeGraph(weighted({ mean_us: 12.5 }))).toEqual(encodeGraph(weighted()));
  });

  test('a float is refused in hashed bytes: a label, and a value encoded on its own', () => {
    refusedWith(
      () => createGraph({ nodes: [{ ...NODES[0], labels: { mean_us: 12.5 } }], edges: [] }),
      'PALISADE_ERR_CONNECTOME_FLOAT',
    );
    refusedWith(() => encodeValue({ mean_us: 12.5 }), 'PALISADE_ERR_CONNECTOME_FLOAT');
  });

  test('a sidecar holding a float weight is read back by the renderer in the same text', () => {
    const sidecar = JSON.parse(Buffer.from(encodeSidecar(weighted({ mean_us: 1e-5 }))).toString('utf8'));
    const model = renderModel({ graph: weighted(), sidecar });
    expect(model.views[0]?.edges.map((edge) => edge.weight)).toEqual(['{"mean_us":1.0e-5}']);
  });
});
