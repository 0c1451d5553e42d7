import { fileURLToPath } from 'node:url';
import { createServer, defineTool } from 'palisade-mcp';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { ConnectomeError, type ConnectomeErrorCode } from '../src/errors.js';
import {
  type Collector,
  encodeGraph,
  encodeSidecar,
  MAX_TRACER_DURATION_MS,
  nodeId,
  startCollector,
  startTracer,
  type Tracer,
} from '../src/index.js';
import { spin } from './fixtures/traced-callee.js';
import { callAcross } from './fixtures/traced-caller.js';
import { modern, serveInProcess } from './support/in-process.js';

const ROOT = fileURLToPath(new URL('./fixtures/', import.meta.url));
const MARKER = 'TRACER-MARKER-90ab';

const server = createServer({
  name: 'traced',
  version: '1',
  tools: [
    defineTool<{ secret: string }>({
      name: 'work',
      inputSchema: { type: 'object' },
      handler: ({ secret }) => ({ content: [{ type: 'text', text: `${secret} ${callAcross(80)}` }] }),
    }),
  ],
});

async function refused(act: () => Promise<unknown>, code: ConnectomeErrorCode): Promise<ConnectomeError> {
  const error = await act().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConnectomeError);
  expect((error as ConnectomeError).code).toBe(code);
  return error as ConnectomeError;
}

async function callWork(): Promise<void> {
  const peer = serveInProcess(server);
  await peer.request(modern(1, 'tools/call', { name: 'work', arguments: { secret: MARKER } }));
  await peer.close();
}

let collector: Collector | undefined;
let tracer: Tracer | undefined;
afterEach(async () => {
  await tracer?.stop();
  tracer = undefined;
  collector?.stop();
  collector = undefined;
});

describe('the optional tracer', () => {
  test('a tracer does not start without a collector running', async () => {
    await refused(() => startTracer({ server: 'traced' }), 'PALISADE_ERR_CONNECTOME_NOT_COLLECTING');
  });

  test('a second tracer is refused while one runs', async () => {
    collector = startCollector();
    tracer = await startTracer({ server: 'traced', root: ROOT });
    await refused(
      () => startTracer({ server: 'traced', root: ROOT }),
      'PALISADE_ERR_CONNECTOME_TRACER_RUNNING',
    );
  });

  test('limits that are not positive finite integers are refused', async () => {
    collector = startCollector();
    for (const limit of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '5' as never]) {
      await refused(
        () => startTracer({ server: 'traced', maxSamples: limit }),
        'PALISADE_ERR_INVALID_OPTION',
      );
      await refused(
        () => startTracer({ server: 'traced', maxDurationMs: limit }),
        'PALISADE_ERR_INVALID_OPTION',
      );
    }
  });

  test('a duration beyond 2^31 - 1 ms is refused rather than firing at once', async () => {
    collector = startCollector();
    const error = await refused(
      () => startTracer({ server: 'traced', maxDurationMs: 2 ** 31 }),
      'PALISADE_ERR_INVALID_OPTION',
    );
    expect(error.message).toContain('maxDurationMs');
  });

  test('a duration of exactly 2^31 - 1 ms is accepted', async () => {
    collector = startCollector();
    tracer = await startTracer({ server: 'traced', root: ROOT, maxDurationMs: MAX_TRACER_DURATION_MS });
    expect((await tracer.stop()).reason).toBe('stopped');
  });

  test('an unknown option, a missing server and a relative root are refused by name', async () => {
    collector = startCollector();
    const error = await refused(
      () => startTracer({ server: 'traced', maxSample: 5 } as never),
      'PALISADE_ERR_UNKNOWN_OPTION',
    );
    expect(error.message).toContain('"maxSample"');
    await refused(() => startTracer({} as never), 'PALISADE_ERR_INVALID_OPTION');
    await refused(() => startTracer({ server: 'traced', root: 'fixtures' }), 'PALISADE_ERR_INVALID_OPTION');
  });

  test('a tool call crossing two modules is observed as a sampled module edge', async () => {
    collector = startCollector();
    tracer = await startTracer({ server: 'traced', root: ROOT });
    await callWork();
    expect((await tracer.stop()).edges).toBeGreaterThan(0);
    const caller = nodeId('traced', { kind: 'module', module: 'traced-caller.ts' });
    const edge = collector.graph().edges.find((e) => e.from === caller);
    expect(edge).toMatchObject({
      to: nodeId('traced', { kind: 'module', module: 'traced-callee.ts' }),
      kind: 'invoke',
      provenance: 'observed',
    });
    // Samples, not calls: the weight's fields say which it is.
    expect(Object.keys(edge!.weight as object).sort()).toEqual(['sampled_us', 'samples']);
  });

  test('the tracer’s edges carry no byte of a call’s arguments or results', async () => {
    collector = startCollector();
    tracer = await startTracer({ server: 'traced', root: ROOT });
    await callWork();
    await tracer.stop();
    expect(Buffer.from(encodeGraph(collector.graph())).includes(MARKER)).toBe(false);
    expect(Buffer.from(encodeSidecar(collector.graph())).includes(MARKER)).toBe(false);
  });

  test('the duration limit stops the tracer, and samples past maxSamples are dropped and counted', async () => {
    collector = startCollector();
    tracer = await startTracer({ server: 'traced', root: ROOT, maxSamples: 1, maxDurationMs: 1 });
    spin(60);
    const report = await tracer.done;
    expect(report.reason).toBe('duration');
    expect(report.samples).toBeLessThanOrEqual(1);
    expect(report.samplesDropped).toBeGreaterThan(0);
  });

  test('stopping the collector stops the tracer and records nothing', async () => {
    collector = startCollector();
    tracer = await startTracer({ server: 'traced', root: ROOT });
    callAcross(30);
    collector.stop();
    expect(await tracer.done).toMatchObject({ reason: 'collector-stopped', edges: 0 });
  });

  test('a stopped tracer leaves no timer behind and a new one may start', async () => {
    collector = startCollector();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const first = await startTracer({ server: 'traced', root: ROOT });
      expect(vi.getTimerCount()).toBe(1);
      await first.stop();
      expect(vi.getTimerCount()).toBe(0);
      expect(await first.stop()).toBe(await first.done);
    } finally {
      vi.useRealTimers();
    }
    tracer = await startTracer({ server: 'traced', root: ROOT });
    expect((await tracer.stop()).reason).toBe('stopped');
  });
});
