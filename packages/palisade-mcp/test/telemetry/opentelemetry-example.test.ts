/**
 * The OpenTelemetry example (examples/opentelemetry/instrument.ts) against real servers: HTTP over
 * a real socket (`serve()`) and the stdio transport over a real Unix socket, with in-memory
 * exporters. The spans and metrics it makes are read back: names, attributes, the parent taken
 * from `traceparent`, the duration histogram and the refusal counter.
 */

import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer as createNetServer, type Server as NetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  type MetricData,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { instrumentPalisade } from '../../../../examples/opentelemetry/instrument.ts';
import { type Serving, serve } from '../../src/http/node/serve.js';
import { createServer, defineTool } from '../../src/index.js';
import { serveStdio } from '../../src/transports/stdio.js';
import { MODERN_META } from '../support/stdio-peer.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';

const server = createServer({
  name: 'otel',
  version: '1',
  tools: [
    defineTool({ name: 'ok', inputSchema: { type: 'object' }, handler: () => ({ content: [] }) }),
    defineTool({
      name: 'soft_fail',
      inputSchema: { type: 'object' },
      handler: () => ({ content: [{ type: 'text', text: 'no' }], isError: true }),
    }),
    defineTool({
      name: 'throws',
      inputSchema: { type: 'object' },
      handler: () => {
        throw new Error('host bug');
      },
    }),
  ],
  prompts: [
    {
      name: 'greet',
      get: () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] }),
    },
  ],
});

const spans = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
const metrics = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({ exporter: metrics, exportIntervalMillis: 3_600_000 });
const meterProvider = new MeterProvider({ readers: [reader] });
let uninstrument: () => void = () => {};
let serving: Serving;

beforeAll(async () => {
  uninstrument = instrumentPalisade({
    tracer: tracerProvider.getTracer('test'),
    meter: meterProvider.getMeter('test'),
  });
  serving = await serve(server, {
    authorize: () => ({ ok: true }),
    allowedOrigins: [],
    onLog: () => {},
    onFault: () => {},
  });
});
afterAll(async () => {
  uninstrument();
  await serving.close();
  await tracerProvider.shutdown();
  await meterProvider.shutdown();
});
beforeEach(() => spans.reset());

async function call(
  method: string,
  params: Record<string, unknown>,
  meta: Record<string, unknown> = {},
): Promise<number> {
  const response = await fetch(`${serving.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      'mcp-name': String(params['name']),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: { ...params, _meta: { ...MODERN_META, ...meta } },
    }),
  });
  await response.text();
  return response.status;
}

async function metric(name: string): Promise<MetricData | undefined> {
  await reader.forceFlush();
  const latest = metrics.getMetrics().at(-1);
  return latest?.scopeMetrics.flatMap((scope) => scope.metrics).find((data) => data.descriptor.name === name);
}

describe('the OpenTelemetry example', () => {
  test('a tool call carrying a traceparent becomes a server span in that trace, parented on the caller', async () => {
    await call(
      'tools/call',
      { name: 'ok', arguments: {} },
      {
        traceparent: `00-${TRACE_ID}-${PARENT_ID}-01`,
        tracestate: 'rojo=00f067aa0ba902b7',
      },
    );
    const [span, ...others] = spans.getFinishedSpans();
    expect(others).toEqual([]);
    expect(span?.name).toBe('tools/call ok');
    expect(span?.kind).toBe(SpanKind.SERVER);
    expect(span?.spanContext().traceId).toBe(TRACE_ID);
    expect(span?.parentSpanContext?.spanId).toBe(PARENT_ID);
    expect(span?.parentSpanContext?.isRemote).toBe(true);
    expect(span?.parentSpanContext?.traceState?.get('rojo')).toBe('00f067aa0ba902b7');
    expect(span?.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'mcp.protocol.version': '2026-07-28',
      'gen_ai.tool.name': 'ok',
      'gen_ai.operation.name': 'execute_tool',
    });
    expect(span?.status.code).toBe(SpanStatusCode.UNSET);
  });

  test('a call without trace context starts a new trace with no parent', async () => {
    await call('tools/call', { name: 'ok', arguments: {} });
    const [span] = spans.getFinishedSpans();
    expect(span?.parentSpanContext).toBeUndefined();
    expect(span?.spanContext().traceId).not.toBe(TRACE_ID);
  });

  test('a malformed traceparent is ignored: the span starts a new trace', async () => {
    await call(
      'tools/call',
      { name: 'ok', arguments: {} },
      { traceparent: `00-${TRACE_ID.toUpperCase()}-${PARENT_ID}-01` },
    );
    const [span] = spans.getFinishedSpans();
    expect(span?.parentSpanContext).toBeUndefined();
  });

  test('a tool result with isError is error.type tool_error and a host fault -32603, both with error status', async () => {
    await call('tools/call', { name: 'soft_fail', arguments: {} });
    await call('tools/call', { name: 'throws', arguments: {} });
    const [soft, thrown] = spans.getFinishedSpans();
    expect(soft?.attributes['error.type']).toBe('tool_error');
    expect(soft?.status.code).toBe(SpanStatusCode.ERROR);
    expect(thrown?.attributes['error.type']).toBe('-32603');
    expect(thrown?.attributes['rpc.response.status_code']).toBe('-32603');
    expect(thrown?.status.code).toBe(SpanStatusCode.ERROR);
  });

  test('a prompts/get span is named by its prompt and carries gen_ai.prompt.name', async () => {
    await call('prompts/get', { name: 'greet' });
    const [span] = spans.getFinishedSpans();
    expect(span?.name).toBe('prompts/get greet');
    expect(span?.attributes).toMatchObject({
      'mcp.method.name': 'prompts/get',
      'gen_ai.prompt.name': 'greet',
    });
  });

  test('every dispatch is recorded on the mcp.server.operation.duration histogram, in seconds', async () => {
    await call('tools/call', { name: 'ok', arguments: {} });
    const histogram = await metric('mcp.server.operation.duration');
    expect(histogram?.descriptor.unit).toBe('s');
    const point = histogram?.dataPoints.find(
      (candidate) =>
        candidate.attributes['gen_ai.tool.name'] === 'ok' && candidate.attributes['error.type'] === undefined,
    );
    const value = point?.value as { count: number; max?: number } | undefined;
    expect(value?.count).toBeGreaterThanOrEqual(1);
    expect(value?.max).toBeLessThan(1);
  });

  test('an HTTP refusal is counted on palisade.refusals by transport and rule', async () => {
    const response = await fetch(`${serving.url}/mcp`, {
      method: 'POST',
      body: 'x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(response.status).toBe(415);
    const counter = await metric('palisade.refusals');
    const point = counter?.dataPoints.find(
      (candidate) => candidate.attributes['palisade.refusal.rule'] === 'unsupported-media-type',
    );
    expect(point?.attributes).toEqual({
      'palisade.transport': 'http',
      'palisade.refusal.rule': 'unsupported-media-type',
      'http.response.status_code': 415,
    });
    expect(point?.value).toBe(1);
  });

  test('a stdio refusal over a real socket is counted on palisade.refusals with its rule', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'palisade-otel-'));
    const path = join(directory, 'stdio.sock');
    const listener: NetServer = createNetServer((socket) => {
      serveStdio(server, { input: socket, output: socket, exitOnClose: false, onFault: () => {} });
    });
    listener.listen(path);
    await once(listener, 'listening');
    try {
      const client = connect(path);
      client.write('not json\n');
      await once(client, 'data');
      client.destroy();
      const counter = await metric('palisade.refusals');
      const point = counter?.dataPoints.find(
        (candidate) => candidate.attributes['palisade.transport'] === 'stdio',
      );
      expect(point?.attributes).toEqual({
        'palisade.transport': 'stdio',
        'palisade.refusal.rule': 'not-json',
        'rpc.response.status_code': '-32700',
      });
    } finally {
      listener.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });

  test('the example runs with one command and prints the span it made', () => {
    const root = fileURLToPath(new URL('../../../../', import.meta.url));
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'examples/opentelemetry/main.ts'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("name: 'tools/call get_weather'");
    expect(run.stdout).toContain("spanId: '00f067aa0ba902b7'");
    expect(run.stdout).toContain("name: 'mcp.server.operation.duration'");
    expect(run.stdout).toContain("name: 'palisade.refusals'");
  });
});
