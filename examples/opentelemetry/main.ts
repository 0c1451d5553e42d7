/**
 * Run with `npm run example:otel` (it builds first). Serves one tool over HTTP on a free loopback
 * port with the OpenTelemetry wiring of instrument.ts, calls it once as a traced client would
 * (a `traceparent` in `_meta`), sends one request the transport refuses, and prints the spans and
 * metrics the console exporters received. Swap the console exporters for OTLP ones
 * (@opentelemetry/exporter-trace-otlp-http and friends) to send them to a collector instead.
 */

import {
  ConsoleMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, ConsoleSpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createServer, defineTool } from 'palisade-mcp';
import { serve } from 'palisade-mcp/http';
import { instrumentPalisade } from './instrument.ts';

const tracerProvider = new BasicTracerProvider({
  spanProcessors: [new SimpleSpanProcessor(new ConsoleSpanExporter())],
});
const meterProvider = new MeterProvider({
  readers: [
    new PeriodicExportingMetricReader({
      exporter: new ConsoleMetricExporter(),
      exportIntervalMillis: 60_000,
    }),
  ],
});
const uninstrument = instrumentPalisade({
  tracer: tracerProvider.getTracer('palisade-example'),
  meter: meterProvider.getMeter('palisade-example'),
});

const server = createServer({
  name: 'otel-example',
  version: '1.0.0',
  tools: [
    defineTool<{ city: string }>({
      name: 'get_weather',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      handler: ({ city }) => ({ content: [{ type: 'text', text: `Sunny in ${city}` }] }),
    }),
  ],
});

const serving = await serve(server, { authorize: () => ({ ok: true }), allowedOrigins: [] });

// The caller's span: what an instrumented MCP client puts in `_meta` (MCP SEP-414).
const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const call = await fetch(`${serving.url}/mcp`, {
  method: 'POST',
  headers: {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    'mcp-name': 'get_weather',
  },
  body: JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      name: 'get_weather',
      arguments: { city: 'Lisbon' },
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
        traceparent,
      },
    },
  }),
});
console.log(`tools/call answered ${call.status}: ${await call.text()}`);

// Refused before any host code runs (415): counted on palisade.refusals by rule.
const refused = await fetch(`${serving.url}/mcp`, {
  method: 'POST',
  body: 'hello',
  headers: { 'content-type': 'text/plain' },
});
console.log(`a text/plain POST answered ${refused.status}`);

await meterProvider.forceFlush();
uninstrument();
await serving.close();
await tracerProvider.shutdown();
await meterProvider.shutdown();
