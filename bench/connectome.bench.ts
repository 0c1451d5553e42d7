/**
 * Cost of the connectome, against the original's recorded ceilings (ScriptKittyOS/beam_mcp,
 * see /work/shared/reference/beam_mcp.md 1h): the collector's overhead per tools/call (1.5 µs),
 * a diff (245 ms) and its canonical encoding (260 ms) on a 10,000-edge graph; the graph's own
 * canonical bytes and hash, and the reach queries on the same graph, are recorded without a
 * target, as the original recorded them. Medians of interleaved samples after warmup: the
 * machine is shared and noisy.
 *
 *   npm run bench:connectome
 */
import { performance } from 'node:perf_hooks';
import { defineTool } from '../packages/palisade-mcp/dist/catalog/define-tool.js';
import { handleMessage } from '../packages/palisade-mcp/dist/protocol/core.js';
import { initialState } from '../packages/palisade-mcp/dist/protocol/state.js';
import { createServer } from '../packages/palisade-mcp/dist/server.js';
import { canonicalGraph, encodeGraph } from '../packages/palisade-mcp-connectome/dist/canonical.js';
import { diffGraphs, encodeDiff } from '../packages/palisade-mcp-connectome/dist/diff.js';
import {
  createGraph,
  type EdgeInput,
  type Graph,
  type NodeInput,
} from '../packages/palisade-mcp-connectome/dist/graph.js';
import { nodeId } from '../packages/palisade-mcp-connectome/dist/node-id.js';
import { startCollector } from '../packages/palisade-mcp-connectome/dist/observed.js';
import {
  dominates,
  dominators,
  reachable,
  reachableWithout,
} from '../packages/palisade-mcp-connectome/dist/reach.js';

interface Row {
  readonly name: string;
  readonly unit: 'µs' | 'ms';
  readonly median: number;
  /** The original's ceiling in the same unit, or undefined when only recorded. */
  readonly ceiling: number | undefined;
  readonly note: string;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1] ?? Number.NaN;
}

function pad(value: string, width: number, left = false): string {
  return left ? value.padStart(width) : value.padEnd(width);
}

let sink = 0;

// ---- collector overhead per tools/call, in process -------------------------------------------

const server = createServer({
  name: 'bench',
  version: '1',
  tools: [defineTool({ name: 'noop', inputSchema: { type: 'object' }, handler: () => ({ content: [] }) })],
});
const CALL = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: {
    name: 'noop',
    arguments: {},
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  },
};
const io = {
  signal: new AbortController().signal,
  auth: undefined,
  emit: () => {},
  reportFault: () => {},
};
const state = initialState('http');

/** Mean µs per call over `batch` sequential calls through the stateless core, as a transport makes them. */
async function callBatch(batch: number): Promise<number> {
  const start = performance.now();
  for (let k = 0; k < batch; k++) {
    const response = await handleMessage(server, state, { ...CALL, id: k }, io).response;
    if (response !== undefined && 'result' in response) sink++;
  }
  return ((performance.now() - start) * 1000) / batch;
}

async function collectorOverhead(): Promise<Row[]> {
  const BATCH = 2_000;
  const SAMPLES = 40;
  const WARMUP = 8;
  const without: number[] = [];
  const withCollector: number[] = [];
  for (let s = 0; s < WARMUP + SAMPLES; s++) {
    // Alternating which runs first spreads drift evenly over the two.
    for (const watched of s % 2 === 0 ? [false, true] : [true, false]) {
      const collector = watched ? startCollector() : undefined;
      const took = await callBatch(BATCH);
      if (collector !== undefined) {
        if (collector.stats().calls !== BATCH) throw new Error('the collector missed calls');
        collector.stop();
      }
      if (s >= WARMUP) (watched ? withCollector : without).push(took);
    }
  }
  // The overhead is the median of paired differences, steadier than a difference of medians.
  const deltas = without.map((base, i) => withCollector[i]! - base);
  return [
    { name: 'tools/call, no collector', unit: 'µs', median: median(without), ceiling: undefined, note: '' },
    {
      name: 'tools/call, collector running',
      unit: 'µs',
      median: median(withCollector),
      ceiling: undefined,
      note: '',
    },
    {
      name: 'collector overhead per call',
      unit: 'µs',
      median: median(deltas),
      ceiling: 1.5,
      note: 'median of paired differences',
    },
  ];
}

// ---- a 10,000-edge graph ------------------------------------------------------------------------

/** A deterministic PRNG (mulberry32), so every run measures the same graph. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const EDGES = 10_000;
const TOOLS = 200;
const MODULES = 2_000;
const SERVER = nodeId('big', { kind: 'server' });
const toolId = (i: number): string => nodeId('big', { kind: 'tool', name: `tool-${i}` });
const moduleId = (i: number): string => nodeId('big', { kind: 'module', module: `src/m${i}.ts` });

/**
 * A server, 200 tools, 2,000 modules; server → every tool, tool i → module i, then module edges
 * that only go from a lower index to a higher one (a layered call graph, as code has) until the
 * graph holds 10,000 edges. The last module is the effect the reach queries ask about, module 0
 * the gate: the queries answer whatever the graph says, the figure is what the asking costs.
 */
function bigGraph(provenance: 'declared' | 'observed', keep: (i: number) => boolean, extra: number): Graph {
  const next = random(7);
  const nodes: NodeInput[] = [{ id: SERVER, kind: 'server', level: 'server' }];
  for (let i = 0; i < TOOLS; i++) nodes.push({ id: toolId(i), kind: 'tool', level: 'server' });
  for (let i = 0; i < MODULES; i++) nodes.push({ id: moduleId(i), kind: 'module', level: 'module' });
  const edges: EdgeInput[] = [];
  const seen = new Set<string>();
  const add = (from: string, to: string): void => {
    const key = `${from}\n${to}`;
    if (seen.has(key)) return;
    seen.add(key);
    edges.push({ from, to, kind: 'invoke', provenance });
  };
  for (let i = 0; i < TOOLS; i++) add(SERVER, toolId(i));
  for (let i = 0; i < TOOLS; i++) add(toolId(i), moduleId(i));
  while (edges.length < EDGES) {
    const a = Math.floor(next() * (MODULES - 1));
    const b = a + 1 + Math.floor(next() * Math.min(50, MODULES - 1 - a));
    add(moduleId(a), moduleId(b));
  }
  const kept = edges.filter((_, i) => keep(i));
  // Drift: edges only the observed side has (module back-calls the declared graph never has).
  for (let i = 0; i < extra; i++) {
    const a = 1 + Math.floor(next() * (MODULES - 1));
    const edge = {
      from: moduleId(a),
      to: moduleId(Math.floor(next() * a)),
      kind: 'invoke' as const,
      provenance,
    };
    const key = `${edge.from}\n${edge.to}`;
    if (!seen.has(key)) {
      seen.add(key);
      kept.push(edge);
    }
  }
  return createGraph({ nodes, edges: kept });
}

async function timed(name: string, ceiling: number | undefined, note: string, run: () => void): Promise<Row> {
  const SAMPLES = 15;
  const WARMUP = 3;
  const times: number[] = [];
  for (let s = 0; s < WARMUP + SAMPLES; s++) {
    const start = performance.now();
    run();
    const took = performance.now() - start;
    if (s >= WARMUP) times.push(took);
    // Yield so a collection can run between samples rather than inside the next one.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { name, unit: 'ms', median: median(times), ceiling, note };
}

async function graphRows(): Promise<Row[]> {
  const declared = bigGraph('declared', () => true, 0);
  // The observed side: 70% of the declared edges seen, plus 1,000 undeclared ones.
  const observed = bigGraph('observed', (i) => i % 10 < 7, 1_000);
  const window = { started_at: '2026-11-30T00:00:00Z', ended_at: '2026-11-30T01:00:00Z' };
  const diff = diffGraphs(declared, observed, { window });
  const effect = moduleId(MODULES - 1);
  const gate = moduleId(0);
  const rows: Row[] = [];
  rows.push(
    await timed('createGraph, 10,000 edges', undefined, 'validate + sort', () => {
      sink += bigGraph('declared', () => true, 0).edges.length;
    }),
  );
  rows.push(
    await timed('diffGraphs, 10,000 vs 8,000 edges', 245, 'original: diff run', () => {
      sink += diffGraphs(declared, observed, { window }).coverage.declared_edges;
    }),
  );
  rows.push(
    await timed('encodeDiff (diff record bytes)', 260, 'original: diff encode', () => {
      sink += encodeDiff(diff).length;
    }),
  );
  rows.push(
    await timed('encodeGraph, 10,000 edges', undefined, 'canonical bytes', () => {
      sink += encodeGraph(declared).length;
    }),
  );
  rows.push(
    await timed('canonicalGraph (bytes + sha256)', undefined, '', () => {
      sink += canonicalGraph(declared).hash.length;
    }),
  );
  rows.push(
    await timed('reachable server → effect', undefined, '', () => {
      sink += reachable(declared, SERVER, effect) ? 1 : 0;
    }),
  );
  rows.push(
    await timed('reachableWithout, gate module 0', undefined, 'witness path', () => {
      sink += reachableWithout(declared, SERVER, effect, [gate])?.nodes.length ?? 0;
    }),
  );
  rows.push(
    await timed('dominates(module 0, effect)', undefined, '', () => {
      sink += dominates(declared, gate, effect) ? 1 : 0;
    }),
  );
  rows.push(
    await timed('dominators(effect)', undefined, 'Lengauer-Tarjan', () => {
      sink += dominators(declared, effect).length;
    }),
  );
  return rows;
}

console.log(
  `connectome benchmark, ${new Date().toISOString()}, Node ${process.version}, ${process.platform}/${process.arch}`,
);
console.log(
  'collector: tools/call through the stateless core in process, 2,000 calls per sample, 40 samples',
);
console.log(
  'graph: 1 server, 200 tools, 2,000 modules, 10,000 edges; observed side 7,000 of them + 1,000 drift',
);
console.log('medians after warmup; a ceiling is the original beam_mcp figure\n');
const header = [
  pad('measure', 36),
  pad('median', 10, true),
  pad('unit', 4),
  pad('ceiling', 9, true),
  pad('result', 7, true),
  '  note',
];
console.log(header.join(' '));
let failures = 0;
for (const row of [...(await collectorOverhead()), ...(await graphRows())]) {
  const result = row.ceiling === undefined ? '' : row.median <= row.ceiling ? 'pass' : 'FAIL';
  if (result === 'FAIL') failures++;
  console.log(
    [
      pad(row.name, 36),
      pad(row.median.toFixed(row.unit === 'µs' ? 2 : 1), 10, true),
      pad(row.unit, 4),
      pad(row.ceiling === undefined ? '-' : `≤ ${row.ceiling}`, 9, true),
      pad(result, 7, true),
      `  ${row.note}`,
    ].join(' '),
  );
}
console.log(`\n${failures === 0 ? 'all ceilings met' : `${failures} ceiling(s) missed`} (sink ${sink})`);
process.exitCode = failures === 0 ? 0 : 1;
