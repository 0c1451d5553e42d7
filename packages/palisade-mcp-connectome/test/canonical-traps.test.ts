import { describe, expect, test } from 'vitest';
import { encodeValue } from '../src/canonical.js';
import { createGraph, encodeGraph, type Graph } from '../src/index.js';
import { compareCodePoints, compareCodeUnits } from '../src/text-order.js';
import { refusedWith } from './refusal.js';

const ASTRAL = '\u{1F600}'; // above U+FFFF: a surrogate pair, 0xD83D 0xDE00
const PRIVATE_USE = '\uFF01'; // in U+E000–U+FFFF

function text(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('utf8');
}

function single(labels: Record<string, unknown>): Graph {
  return createGraph({
    nodes: [{ id: 's/server', kind: 'server', level: 'server', labels: labels as never }],
    edges: [],
  });
}

describe('the JavaScript traps the goldens do not catch', () => {
  test('code-point order and UTF-16 order disagree on an astral character against U+FF01', () => {
    expect(compareCodePoints(ASTRAL, PRIVATE_USE)).toBeGreaterThan(0);
    expect(compareCodeUnits(ASTRAL, PRIVATE_USE)).toBeLessThan(0);
  });

  test('node ids sort by UTF-8 bytes, so the astral id comes after the U+FF01 id', () => {
    const graph = createGraph({
      nodes: [
        { id: `s/tool/${ASTRAL}`, kind: 'tool', level: 'server' },
        { id: `s/tool/${PRIVATE_USE}`, kind: 'tool', level: 'server' },
      ],
      edges: [],
    });
    const out = text(encodeGraph(graph));
    expect(out.indexOf(PRIVATE_USE)).toBeLessThan(out.indexOf(ASTRAL));
  });

  test('edges sort by UTF-8 bytes of their endpoints, whatever order they were given in', () => {
    const graph = createGraph({
      nodes: [
        { id: 's/server', kind: 'server', level: 'server' },
        { id: `s/tool/${ASTRAL}`, kind: 'tool', level: 'server' },
        { id: `s/tool/${PRIVATE_USE}`, kind: 'tool', level: 'server' },
      ],
      edges: [
        { from: 's/server', to: `s/tool/${ASTRAL}`, kind: 'invoke', provenance: 'declared' },
        { from: 's/server', to: `s/tool/${PRIVATE_USE}`, kind: 'invoke', provenance: 'declared' },
      ],
    });
    const edges = text(encodeGraph(graph)).split('"edges":')[1]!;
    expect(edges.indexOf(PRIVATE_USE)).toBeLessThan(edges.indexOf(ASTRAL));
  });

  test('label keys sort by UTF-16 code units, so the astral key comes before the U+FF01 key', () => {
    const out = text(encodeGraph(single({ [PRIVATE_USE]: 1, [ASTRAL]: 2 })));
    expect(out).toContain(`"labels":{"${ASTRAL}":2,"${PRIVATE_USE}":1}`);
  });

  test('a node id holding a lone surrogate is refused rather than written as U+FFFD', () => {
    const error = refusedWith(
      () => createGraph({ nodes: [{ id: 's/tool/\uD800', kind: 'tool', level: 'server' }], edges: [] }),
      'PALISADE_ERR_CONNECTOME_LONE_SURROGATE',
    );
    expect(error.message).toContain('U+FFFD');
  });

  test('a label value holding a lone surrogate is refused', () => {
    refusedWith(() => single({ title: 'a\uDC00b' }), 'PALISADE_ERR_CONNECTOME_LONE_SURROGATE');
  });

  test('a label key holding a lone surrogate is refused', () => {
    refusedWith(() => single({ '\uD83D': true }), 'PALISADE_ERR_CONNECTOME_LONE_SURROGATE');
  });

  test('a well-paired surrogate is written as its four UTF-8 bytes', () => {
    expect(Buffer.from(encodeValue(ASTRAL)).equals(Buffer.from([0x22, 0xf0, 0x9f, 0x98, 0x80, 0x22]))).toBe(
      true,
    );
  });

  test('a bigint beyond 2^53 is written exactly, in full', () => {
    expect(text(encodeValue({ n: 2n ** 64n + 1n, m: -(2n ** 70n) }))).toBe(
      '{"m":-1180591620717411303424,"n":18446744073709551617}',
    );
  });

  test('a number beyond 2^53 - 1 is refused by name, since it may already be rounded', () => {
    refusedWith(() => single({ n: 2 ** 53 }), 'PALISADE_ERR_CONNECTOME_UNSAFE_INTEGER');
  });

  test('the largest safe integer is written in plain decimal', () => {
    expect(text(encodeValue([Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 0]))).toBe(
      '[9007199254740991,-9007199254740991,0]',
    );
  });

  test('a float label value is refused, naming the node and the value', () => {
    const error = refusedWith(() => single({ ratio: 0.5 }), 'PALISADE_ERR_CONNECTOME_FLOAT');
    expect(error.message).toContain('s/server');
    expect(error.message).toContain('0.5');
  });

  test('NaN, infinities and negative zero are refused as floats', () => {
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, -0]) {
      refusedWith(() => encodeValue({ value }), 'PALISADE_ERR_CONNECTOME_FLOAT');
    }
  });

  test('a NaN or infinite weight is refused as a float even though weights are not hashed', () => {
    for (const weight of [Number.NaN, Number.NEGATIVE_INFINITY, { mean_us: Number.POSITIVE_INFINITY }]) {
      refusedWith(
        () =>
          createGraph({
            nodes: [{ id: 's/server', kind: 'server', level: 'server' }],
            edges: [{ from: 's/server', to: 's/server', kind: 'invoke', provenance: 'observed', weight }],
          }),
        'PALISADE_ERR_CONNECTOME_FLOAT',
      );
    }
  });

  test('two label keys that are one key after NFC are refused', () => {
    refusedWith(() => single({ 'caf\u00e9': 1, 'cafe\u0301': 2 }), 'PALISADE_ERR_CONNECTOME_NFC_COLLISION');
  });

  test('a value with no canonical bytes (undefined, a Date, a function) is refused by name', () => {
    for (const value of [undefined, new Date(0), () => 1, Symbol('x'), new Map()]) {
      refusedWith(() => encodeValue({ value }), 'PALISADE_ERR_CONNECTOME_LABEL_VALUE');
    }
  });

  test('a cyclic label value is refused at the depth bound instead of looping', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    refusedWith(() => single(cyclic), 'PALISADE_ERR_CONNECTOME_LABEL_VALUE');
  });

  test('strings are escaped as RFC 8785 escapes them', () => {
    const input = '"\\/\b\t\n\f\r\u0000\u001f\u007f\u2028\u2029';
    expect(text(encodeValue(input))).toBe('"\\"\\\\/\\b\\t\\n\\f\\r\\u0000\\u001f\u007f\u2028\u2029"');
  });

  test('a "__proto__" label key stays a key and is written', () => {
    const labels = JSON.parse('{"__proto__":1,"a":2}') as Record<string, unknown>;
    expect(text(encodeGraph(single(labels)))).toContain('"labels":{"__proto__":1,"a":2}');
  });

  test('an unknown hash algorithm is refused as an invalid option', () => {
    refusedWith(() => encodeGraph(single({}), { algorithm: 'md5' as never }), 'PALISADE_ERR_INVALID_OPTION');
  });

  test('an unknown canonical option is refused by name', () => {
    const error = refusedWith(
      () => encodeGraph(single({}), { algoritm: 'sha256' } as never),
      'PALISADE_ERR_UNKNOWN_OPTION',
    );
    expect(error.message).toContain('"algoritm"');
  });
});
