/**
 * Speed of the bounded JSON reader against the unbounded baseline every transport would
 * otherwise use, `JSON.parse(new TextDecoder().decode(bytes))`; a column also shows the ratio
 * against the stricter variant with one decoder for all calls. Speed lives here, not in tests:
 * the machine is shared and noisy, so this prints medians of many interleaved samples.
 *
 *   npm run bench:decode            all shapes
 *   npm run bench:decode -- tools   only shapes whose name contains "tools"
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
    batch: 1_000,
    samples: 400,
    warmup: 50,
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

// What the targets are stated against: a decoder made per call, as a transport without this
// reader would write it. V8 builds the 524,288-deep nest in a quarter of a second; it can throw
// on other inputs, so the baseline catches like the reader answers.
function baseline(bytes: Uint8Array): void {
  try {
    sink += typeof JSON.parse(new TextDecoder().decode(bytes)) === 'object' ? 1 : 0;
  } catch {
    sink += 2;
  }
}

// A stricter baseline, shown for information: the same with one decoder for all calls.
function hoisted(bytes: Uint8Array): void {
  try {
    sink += typeof JSON.parse(decoder.decode(bytes)) === 'object' ? 1 : 0;
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
console.log(
  'JSON.parse: JSON.parse(new TextDecoder().decode(bytes)), the baseline the targets are stated against',
);
console.log(
  'hoisted:    JSON.parse(decoder.decode(bytes)) with one decoder for all calls (information only)',
);
console.log('reader:     readJsonMessage(bytes)');
console.log('medians of samples taken in rotating order after warmup; ratio = reader / JSON.parse\n');
const header = [
  pad('shape', 38),
  pad('bytes', 9, true),
  pad('JSON.parse µs', 14, true),
  pad('reader µs', 11, true),
  pad('ratio', 7, true),
  pad('target', 10, true),
  pad('result', 7, true),
  pad('vs hoisted', 11, true),
];
console.log(header.join(' '));

// `npm run bench:decode -- <text>` runs only the shapes whose name contains <text>.
const only = process.argv[2];
let failures = 0;
for (const shape of shapes) {
  if (only !== undefined && !shape.name.includes(only)) continue;
  // The second baseline is skipped where one JSON.parse call takes a quarter of a second.
  const runners = shape.batch === 1 && shape.samples < 30 ? [baseline, reader] : [baseline, hoisted, reader];
  const times = new Map<(bytes: Uint8Array) => void, number[]>(runners.map((run) => [run, []]));
  for (let s = 0; s < shape.warmup + shape.samples; s++) {
    // Rotating the order spreads drift and noise evenly over the runners.
    for (let r = 0; r < runners.length; r++) {
      const run = runners[(s + r) % runners.length]!;
      const took = sampleMicroseconds(run, shape);
      if (s >= shape.warmup) times.get(run)!.push(took);
    }
  }
  const baseMedian = median(times.get(baseline)!);
  const ourMedian = median(times.get(reader)!);
  const hoistedTimes = times.get(hoisted);
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
      pad(result, 7, true),
      pad(hoistedTimes === undefined ? '-' : `${(ourMedian / median(hoistedTimes)).toFixed(2)}x`, 11, true),
    ].join(' '),
  );
}
console.log(`\n${failures === 0 ? 'all targets met' : `${failures} target(s) missed`} (sink ${sink})`);
process.exitCode = failures === 0 ? 0 : 1;
