/**
 * Speed of the bounded JSON reader against the unbounded baseline every transport would
 * otherwise use: `JSON.parse(decoder.decode(bytes))`, with one `new TextDecoder()` hoisted out
 * of the loop (a stricter baseline than constructing one per call). Speed lives here, not in
 * tests: the machine is shared and noisy, so this prints medians of many interleaved runs.
 *
 *   npm run bench:decode
 */
import { readJsonMessage } from '../packages/palisade-mcp/src/wire/json-reader.js';

interface Shape {
  readonly name: string;
  readonly bytes: Uint8Array;
  /** Largest reader/baseline ratio accepted, or an absolute bound in µs for a refusal. */
  readonly target: { readonly ratio: number } | { readonly microseconds: number } | undefined;
  /** Calls per timed sample, so that small inputs are measured above the timer's resolution. */
  readonly batch: number;
  readonly samples: number;
  readonly warmup: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const MIB = 1_048_576;

function encode(value: string): Uint8Array {
  return encoder.encode(value);
}

/** A tools/call request whose `arguments` is the given JSON text. */
function toolsCall(argumentsJson: string): string {
  return `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"ingest","arguments":${argumentsJson}}}`;
}

/** A tools/call request padded with one string argument to exactly `size` bytes. */
function oneString(size: number, unit: string): string {
  const empty = toolsCall('{"text":""}');
  const unitBytes = encode(unit).length;
  const fill = Math.floor((size - empty.length) / unitBytes);
  const text = toolsCall(`{"text":"${unit.repeat(fill)}"}`);
  return text + ' '.repeat(size - encode(text).length);
}

function digitsArray(targetBytes: number): string {
  const digits: number[] = [];
  for (let i = 0; digits.length * 2 < targetBytes; i++) digits.push(i % 10);
  return toolsCall(`{"values":${JSON.stringify(digits)}}`);
}

function manyKeys(count: number): string {
  const entries: Record<string, number> = {};
  for (let i = 0; i < count; i++) entries[`k${i}`] = i;
  return JSON.stringify(entries);
}

/** Four levels of objects: 20 regions of 20 zones of 20 racks, each rack a small record. */
function nestedFourDeep(): string {
  const FAN_OUT = 20;
  const regions: Record<string, unknown> = {};
  for (let r = 0; r < FAN_OUT; r++) {
    const zones: Record<string, unknown> = {};
    for (let z = 0; z < FAN_OUT; z++) {
      const racks: Record<string, unknown> = {};
      for (let k = 0; k < FAN_OUT; k++) {
        const id = (r * FAN_OUT + z) * FAN_OUT + k;
        racks[`rack-${k}`] = { id, label: `region-${r}/zone-${z}/rack-${k}`, ok: true, load: 0.125 };
      }
      zones[`zone-${z}`] = racks;
    }
    regions[`region-${r}`] = zones;
  }
  return JSON.stringify(regions);
}

const DEEP_LEVELS = 524_288;

const shapes: Shape[] = [
  {
    name: 'tools/call request',
    bytes: encode(
      '{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"search_issues","arguments":' +
        '{"repository":"palisade/palisade-mcp","query":"label:bug state:open sort:updated","limit":20},' +
        '"_meta":{"progressToken":"tok-7f3a"}}}',
    ),
    target: { ratio: 1.5 },
    batch: 2_000,
    samples: 200,
    warmup: 30,
  },
  {
    name: '1 MiB body, one string',
    bytes: encode(oneString(MIB, 'lorem ipsum ')),
    target: { ratio: 2 },
    batch: 1,
    samples: 150,
    warmup: 30,
  },
  {
    name: '600 KB array of digits',
    bytes: encode(digitsArray(600_000)),
    target: { ratio: 2 },
    batch: 1,
    samples: 150,
    warmup: 30,
  },
  {
    name: '878 KB object, 60,000 keys',
    bytes: encode(manyKeys(60_000)),
    target: { ratio: 2 },
    batch: 1,
    samples: 150,
    warmup: 30,
  },
  {
    name: '638 KB object, four deep',
    bytes: encode(nestedFourDeep()),
    target: { ratio: 2 },
    batch: 1,
    samples: 150,
    warmup: 30,
  },
  {
    name: '524,288-deep nest (refused)',
    bytes: encode('['.repeat(DEEP_LEVELS) + ']'.repeat(DEEP_LEVELS)),
    target: { microseconds: 1_000 },
    batch: 1,
    // JSON.parse takes a quarter of a second to fail on this body: fewer samples.
    samples: 21,
    warmup: 5,
  },
  // Informative rows, no target: where the reader does the most work of its own.
  {
    name: '1 MiB string of escapes',
    bytes: encode(oneString(MIB, '\\n\\"')),
    target: undefined,
    batch: 1,
    samples: 60,
    warmup: 10,
  },
  {
    name: '1 MiB non-ASCII string',
    bytes: encode(oneString(MIB, 'é€😀')),
    target: undefined,
    batch: 1,
    samples: 60,
    warmup: 10,
  },
  {
    name: '60,000 keys, last repeated (refused)',
    bytes: encode(`${manyKeys(60_000).slice(0, -1)},"k0":0}`),
    target: undefined,
    batch: 1,
    samples: 60,
    warmup: 10,
  },
];

let sink = 0;

function baseline(bytes: Uint8Array): void {
  // The deep nest throws a RangeError in JSON.parse; the baseline pays for getting there.
  try {
    const value: unknown = JSON.parse(decoder.decode(bytes));
    sink += typeof value === 'object' ? 1 : 0;
  } catch {
    sink += 2;
  }
}

function reader(bytes: Uint8Array): void {
  sink += readJsonMessage(bytes).ok ? 1 : 0;
}

function sampleMicroseconds(run: (bytes: Uint8Array) => void, shape: Shape): number {
  const start = process.hrtime.bigint();
  for (let k = 0; k < shape.batch; k++) run(shape.bytes);
  return Number(process.hrtime.bigint() - start) / 1_000 / shape.batch;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1] ?? Number.NaN;
}

function pad(value: string, width: number, left = false): string {
  return left ? value.padStart(width) : value.padEnd(width);
}

console.log(
  `decode benchmark, ${new Date().toISOString()}, Node ${process.version}, ${process.platform}/${process.arch}`,
);
console.log('baseline: JSON.parse(decoder.decode(bytes)), one TextDecoder hoisted out of the loop');
console.log('reader:   readJsonMessage(bytes); medians of interleaved samples after warmup\n');
const header = [
  pad('shape', 38),
  pad('bytes', 9, true),
  pad('JSON.parse µs', 14, true),
  pad('reader µs', 11, true),
  pad('ratio', 7, true),
  pad('target', 10, true),
  '  result',
];
console.log(header.join(' '));

let failures = 0;
for (const shape of shapes) {
  const base: number[] = [];
  const ours: number[] = [];
  for (let s = 0; s < shape.warmup + shape.samples; s++) {
    // Interleaved, alternating which runs first, so drift and noise fall on both alike.
    const first = s % 2 === 0;
    const a = first ? sampleMicroseconds(baseline, shape) : 0;
    const b = sampleMicroseconds(reader, shape);
    const c = first ? 0 : sampleMicroseconds(baseline, shape);
    if (s < shape.warmup) continue;
    base.push(first ? a : c);
    ours.push(b);
  }
  const baseMedian = median(base);
  const ourMedian = median(ours);
  const ratio = ourMedian / baseMedian;
  let target = '-';
  let result = '';
  if (shape.target !== undefined && 'ratio' in shape.target) {
    target = `≤ ${shape.target.ratio}x`;
    result = ratio <= shape.target.ratio ? 'pass' : 'FAIL';
  } else if (shape.target !== undefined) {
    target = `< ${shape.target.microseconds} µs`;
    result = ourMedian < shape.target.microseconds ? 'pass' : 'FAIL';
  }
  if (result === 'FAIL') failures++;
  console.log(
    [
      pad(shape.name, 38),
      pad(String(shape.bytes.length), 9, true),
      pad(baseMedian.toFixed(2), 14, true),
      pad(ourMedian.toFixed(2), 11, true),
      pad(`${ratio.toFixed(2)}x`, 7, true),
      pad(target, 10, true),
      `  ${result}`,
    ].join(' '),
  );
}
console.log(`\n${failures === 0 ? 'all targets met' : `${failures} target(s) missed`} (sink ${sink})`);
process.exitCode = failures === 0 ? 0 : 1;
