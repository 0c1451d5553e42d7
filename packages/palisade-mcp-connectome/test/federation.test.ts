import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { ConnectomeErrorCode } from '../src/errors.js';
import {
  createGraph,
  encodeGraph,
  federateGraphs,
  type Graph,
  identifiedNode,
  MAX_PEER_GRAPH_BYTES,
  nodeId,
  readPeerGraph,
  scopedId,
} from '../src/index.js';
import { refusedWith } from './refusal.js';

/** A one-server graph: `demo` invokes each tool; `signs[i]` is the sign of the i-th edge. */
function demoGraph(tools: string[], signs: ('unset' | 'allow' | 'deny')[] = []): Graph {
  const server = identifiedNode('demo', { kind: 'server' });
  const nodes = [server, ...tools.map((name) => identifiedNode('demo', { kind: 'tool', name }))];
  return createGraph({
    nodes,
    edges: tools.map((name, i) => ({
      from: server.id,
      to: nodeId('demo', { kind: 'tool', name }),
      kind: 'invoke',
      provenance: 'declared',
      sign: signs[i] ?? 'unset',
    })),
  });
}

const text = (s: string) => new TextEncoder().encode(s);

async function rejectsWith(
  promise: Promise<unknown>,
  code: ConnectomeErrorCode,
  named?: string,
): Promise<void> {
  const error = await promise.then(
    () => {
      throw new Error('the merge was accepted');
    },
    (e: unknown) => e as { code: string; message: string },
  );
  expect(error.code).toBe(code);
  if (named !== undefined) expect(error.message).toContain(named);
}

describe('the federation seam', () => {
  test('two processes naming the same server do not collide: ids are scoped by process', async () => {
    const merged = await federateGraphs([
      { process: 'worker-1', bytes: encodeGraph(demoGraph(['echo'])) },
      { process: 'main', graph: demoGraph(['echo']) },
    ]);
    expect(merged.graph.nodes.map((n) => n.id)).toEqual([
      'main/demo/server',
      'main/demo/tool/echo',
      'worker-1/demo/server',
      'worker-1/demo/tool/echo',
    ]);
    expect(merged.graph.edges).toHaveLength(2);
  });

  test('a process name is escaped by the id function, so a slash in it cannot forge another scope', async () => {
    expect(scopedId('a/b', 'c')).toBe('a%2Fb/c');
    expect(scopedId('a%2Fb', 'c')).toBe('a%252Fb/c');
    const merged = await federateGraphs([
      { process: 'a/demo', graph: demoGraph(['x']) },
      {
        process: 'a',
        graph: createGraph({
          nodes: [{ id: 'demo/demo/server', kind: 'server', level: 'server' }],
          edges: [],
        }),
      },
    ]);
    expect(new Set(merged.graph.nodes.map((n) => n.id)).size).toBe(3);
  });

  test('every node is labelled with its asserting process and every edge is attributed', async () => {
    const merged = await federateGraphs([
      { process: 'p1', bytes: encodeGraph(demoGraph(['a'])) },
      { process: 'p2', graph: demoGraph(['b']) },
    ]);
    expect(merged.graph.nodes.map((n) => n.labels['asserted_by'])).toEqual(['p1', 'p1', 'p2', 'p2']);
    expect(merged.attribution.map((a) => [a.from, a.asserted_by, a.sign_by])).toEqual([
      ['p1/demo/server', 'p1', null],
      ['p2/demo/server', 'p2', null],
    ]);
    expect(new TextDecoder().decode(encodeGraph(merged.graph))).toContain('"asserted_by":"p1"');
    expect(merged.members.map((m) => [m.process, m.source, m.verified])).toEqual([
      ['p1', 'peer', null],
      ['p2', 'local', null],
    ]);
  });

  test("a peer's own sign is kept and attributed to the peer; unset has no authority", async () => {
    const merged = await federateGraphs([
      { process: 'gate', bytes: encodeGraph(demoGraph(['open', 'shut'], ['allow', 'unset'])) },
    ]);
    expect(merged.attribution.map((a) => [a.to, a.sign, a.sign_by])).toEqual([
      ['gate/demo/tool/open', 'allow', 'gate'],
      ['gate/demo/tool/shut', 'unset', null],
    ]);
  });

  test('the host verify callback gets exactly the peer bytes and signature; only true admits the peer', async () => {
    const bytes = encodeGraph(demoGraph(['a']));
    const signature = new Uint8Array([1, 2, 3]);
    const seen: unknown[] = [];
    const merged = await federateGraphs(
      [
        { process: 'p', bytes, signature, scheme: 'ed25519', keyId: 'k1' },
        { process: 'self', graph: demoGraph(['b']) },
      ],
      {
        verify: async (got, context) => {
          seen.push([Buffer.from(got).equals(Buffer.from(bytes)), context]);
          return true;
        },
      },
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject([
      true,
      { process: 'p', algorithm: 'sha256', signature, scheme: 'ed25519', keyId: 'k1' },
    ]);
    expect(merged.members.map((m) => m.verified)).toEqual([true, null]);
    await rejectsWith(
      federateGraphs([{ process: 'p', bytes }], { verify: () => false }),
      'PALISADE_ERR_CONNECTOME_PEER_UNVERIFIED',
      '"p"',
    );
    await rejectsWith(
      federateGraphs([{ process: 'p', bytes }], { verify: (() => 'yes') as never }),
      'PALISADE_ERR_CONNECTOME_PEER_UNVERIFIED',
    );
  });

  test('a malformed peer is refused by name, naming the peer', { tags: ['threat-model'] }, async () => {
    const cases: [string, ConnectomeErrorCode][] = [
      ['{"nodes":', 'PALISADE_ERR_CONNECTOME_PEER_MALFORMED'],
      ['', 'PALISADE_ERR_CONNECTOME_PEER_MALFORMED'],
      [
        '{"schema_version":3,"schema_version":3,"algorithm":"sha256","nodes":[],"edges":[]}',
        'PALISADE_ERR_CONNECTOME_PEER_MALFORMED',
      ],
      [`${'['.repeat(65)}${']'.repeat(65)}`, 'PALISADE_ERR_CONNECTOME_PEER_MALFORMED'],
      ['[]', 'PALISADE_ERR_CONNECTOME_PEER_MALFORMED'],
      [
        '{"schema_version":2,"algorithm":"sha256","nodes":[],"edges":[]}',
        'PALISADE_ERR_CONNECTOME_SCHEMA_UNSUPPORTED',
      ],
      [
        '{"schema_version":4,"algorithm":"sha256","nodes":[],"edges":[]}',
        'PALISADE_ERR_CONNECTOME_PEER_MALFORMED',
      ],
      [
        '{"schema_version":3,"algorithm":"md5","nodes":[],"edges":[]}',
        'PALISADE_ERR_CONNECTOME_PEER_MALFORMED',
      ],
      [
        '{"schema_version":3,"algorithm":"sha256","nodes":[],"edges":[],"extra":1}',
        'PALISADE_ERR_CONNECTOME_PEER_MALFORMED',
      ],
      [
        '{"schema_version":3,"algorithm":"sha256","nodes":[],"edges":[{"from":"x","kind":"invoke","provenance":"declared","sign":"unset","to":"y"}]}',
        'PALISADE_ERR_CONNECTOME_DANGLING_EDGE',
      ],
      [
        '{"schema_version":3,"algorithm":"sha256","nodes":[{"id":"x","kind":"tool","labels":{"f":1.5},"level":"server"}],"edges":[]}',
        'PALISADE_ERR_CONNECTOME_FLOAT',
      ],
      [
        '{"schema_version": 3,"algorithm":"sha256","nodes":[],"edges":[]}',
        'PALISADE_ERR_CONNECTOME_PEER_NOT_CANONICAL',
      ],
    ];
    for (const [body, code] of cases) {
      const error = refusedWith(() => readPeerGraph('bad-peer', text(body)), code);
      expect(error.message).toContain('peer "bad-peer"');
      await rejectsWith(federateGraphs([{ process: 'bad-peer', bytes: text(body) }]), code, 'bad-peer');
    }
    refusedWith(() => readPeerGraph('p', new Uint8Array([0xff])), 'PALISADE_ERR_CONNECTOME_PEER_MALFORMED');
  });

  test('a peer over the peer graph bound is refused before it is read', {
    tags: ['threat-model'],
  }, async () => {
    const big = new Uint8Array(MAX_PEER_GRAPH_BYTES + 1).fill(0x20);
    await rejectsWith(
      federateGraphs([{ process: 'huge', bytes: big }]),
      'PALISADE_ERR_CONNECTOME_PEER_TOO_LARGE',
      '"huge"',
    );
    // At the bound it is read (and refused for what it is: empty).
    refusedWith(() => readPeerGraph('p', big.subarray(1)), 'PALISADE_ERR_CONNECTOME_PEER_MALFORMED');
  });

  test('a peer holding a lone surrogate escape is refused, not written as U+FFFD', {
    tags: ['threat-model'],
  }, async () => {
    const body =
      '{"schema_version":3,"algorithm":"sha256","nodes":[{"id":"\\ud800","kind":"tool","labels":{},"level":"server"}],"edges":[]}';
    await rejectsWith(
      federateGraphs([{ process: 'p', bytes: text(body) }]),
      'PALISADE_ERR_CONNECTOME_LONE_SURROGATE',
      '"p"',
    );
  });

  test('a peer in SHA-384 canonical bytes is read, and its record names the algorithm', async () => {
    const bytes = encodeGraph(demoGraph(['a']), { algorithm: 'sha384' });
    const merged = await federateGraphs([{ process: 'p', bytes }]);
    expect(merged.members[0]).toMatchObject({ algorithm: 'sha384' });
    expect(merged.members[0]!.hash).toHaveLength(96);
  });

  test('two members with one process name, even after NFC, are refused', async () => {
    const g = demoGraph(['a']);
    await rejectsWith(
      federateGraphs([
        { process: 'p', graph: g },
        { process: 'p', graph: g },
      ]),
      'PALISADE_ERR_CONNECTOME_DUPLICATE_PROCESS',
    );
    await rejectsWith(
      federateGraphs([
        { process: '\u00e9', graph: g },
        { process: 'e\u0301', graph: g },
      ]),
      'PALISADE_ERR_CONNECTOME_DUPLICATE_PROCESS',
    );
  });

  test('a node already labelled asserted_by is refused rather than overwritten', async () => {
    const g = createGraph({
      nodes: [{ id: 'x', kind: 'server', level: 'server', labels: { asserted_by: 'someone' } }],
      edges: [],
    });
    await rejectsWith(federateGraphs([{ process: 'p', graph: g }]), 'PALISADE_ERR_CONNECTOME_RESERVED_LABEL');
  });

  test('bad members and options are refused by name', async () => {
    await rejectsWith(federateGraphs([{ process: 'p' } as never]), 'PALISADE_ERR_INVALID_OPTION');
    await rejectsWith(
      federateGraphs([{ process: '', graph: demoGraph([]) }]),
      'PALISADE_ERR_CONNECTOME_INVALID',
    );
    await rejectsWith(
      federateGraphs([{ process: 'p', graph: demoGraph([]), bytes: new Uint8Array() } as never]),
      'PALISADE_ERR_UNKNOWN_OPTION',
    );
    await rejectsWith(
      federateGraphs([], { verfy: () => true } as never),
      'PALISADE_ERR_UNKNOWN_OPTION',
      '"verfy"',
    );
  });
});

describe('federation is order-independent', () => {
  const tools = fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'é', '\u{1F600}', 'x/y'), { maxLength: 4 });
  const member = fc.record({
    tools,
    signs: fc.array(fc.constantFrom('unset' as const, 'allow' as const, 'deny' as const), { maxLength: 4 }),
    asPeer: fc.boolean(),
  });
  const members = fc.uniqueArray(fc.tuple(fc.constantFrom('p1', 'p2', 'p/3', 'π', '%'), member), {
    minLength: 1,
    maxLength: 4,
    selector: ([name]) => name,
  });

  test('any permutation of the members gives the same canonical bytes and attribution', async () => {
    await fc.assert(
      fc.asyncProperty(
        members.chain((list) =>
          fc.tuple(fc.constant(list), fc.shuffledSubarray(list, { minLength: list.length })),
        ),
        async ([list, shuffled]) => {
          const toMember = ([process, m]: (typeof list)[number]) => {
            const graph = demoGraph(m.tools, m.signs);
            return m.asPeer ? { process, bytes: encodeGraph(graph) } : { process, graph };
          };
          const one = await federateGraphs(list.map(toMember));
          const two = await federateGraphs(shuffled.map(toMember));
          expect(Buffer.from(encodeGraph(two.graph))).toEqual(Buffer.from(encodeGraph(one.graph)));
          expect(two.attribution).toEqual(one.attribution);
          expect(two.members).toEqual(one.members);
        },
      ),
      { numRuns: 100 },
    );
  });
});
