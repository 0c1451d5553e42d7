/**
 * Palisade's diagnostics channels turned into OpenTelemetry spans and metrics, outside the server
 * package: Palisade publishes on `node:diagnostics_channel` and depends on nothing, this file
 * subscribes and speaks the OpenTelemetry API. Names and attributes follow the OpenTelemetry
 * semantic conventions for MCP (server side): a span per dispatch named `{mcp.method.name} {target}`,
 * parented on the trace context the request carried in `_meta`, and the
 * `mcp.server.operation.duration` histogram. Refusals, which the conventions do not cover, are
 * counted by transport and rule on `palisade.refusals`.
 */
import diagnosticsChannel from 'node:diagnostics_channel';
import {
  type Attributes,
  type Context,
  context,
  createTraceState,
  type Meter,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import {
  DISPATCH_CHANNEL_NAME,
  type DispatchEvent,
  HTTP_REFUSAL_CHANNEL,
  type HttpRefusalEvent,
  STDIO_REFUSAL_CHANNEL,
  type StdioRefusalEvent,
  type TraceContext,
} from 'palisade-mcp';

export interface Instruments {
  readonly tracer: Tracer;
  readonly meter: Meter;
}

/** Which MCP method dispatched the host's code, and the low-cardinality target a span is named by. */
function describe(event: DispatchEvent): {
  readonly method: string;
  readonly target?: string;
  readonly attributes: Attributes;
} {
  if ('tool' in event)
    return {
      method: 'tools/call',
      target: event.tool,
      attributes: { 'gen_ai.tool.name': event.tool, 'gen_ai.operation.name': 'execute_tool' },
    };
  if ('prompt' in event)
    return {
      method: 'prompts/get',
      target: event.prompt,
      attributes: { 'gen_ai.prompt.name': event.prompt },
    };
  // A listed resource's URI is the host's own; a template read names its template, never the
  // caller's URI (Palisade does not publish it). Neither goes into the span name (cardinality).
  if ('resource' in event)
    return { method: 'resources/read', attributes: { 'mcp.resource.uri': event.resource } };
  return { method: 'resources/read', attributes: { 'palisade.resource.template': event.resourceTemplate } };
}

/**
 * The caller's span as a remote parent. Palisade has already checked `traceparent` (version 00,
 * lowercase hex, non-zero ids), so its fields are read by position.
 */
function remoteParent(traceContext: TraceContext | undefined): Context {
  if (traceContext === undefined) return context.active();
  const [, traceId = '', spanId = '', flags = '00'] = traceContext.traceparent.split('-');
  return trace.setSpanContext(context.active(), {
    traceId,
    spanId,
    traceFlags: Number.parseInt(flags, 16),
    isRemote: true,
    ...(traceContext.tracestate === undefined
      ? {}
      : { traceState: createTraceState(traceContext.tracestate) }),
  });
}

/** `error.type` per the conventions: `tool_error` for a result with `isError`, the JSON-RPC code for a fault. */
function errorType(event: DispatchEvent): string | undefined {
  if (event.outcome === 'tool-error') return 'tool_error';
  // A host fault is answered -32603 (Internal error); the fault itself stays in the host's log.
  if (event.outcome === 'fault') return '-32603';
  return undefined;
}

/** Subscribes to every Palisade channel; returns the function that unsubscribes again. */
export function instrumentPalisade({ tracer, meter }: Instruments): () => void {
  const duration = meter.createHistogram('mcp.server.operation.duration', {
    description: 'Duration of the host code an MCP request dispatched',
    unit: 's',
    // The boundaries the MCP conventions advise for this histogram, in seconds.
    advice: { explicitBucketBoundaries: [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300] },
  });
  const refusals = meter.createCounter('palisade.refusals', {
    description: 'Requests a Palisade transport refused before any host code ran',
    unit: '{refusal}',
  });
  const spans = new WeakMap<object, Span>();

  const dispatch = diagnosticsChannel.tracingChannel<DispatchEvent, DispatchEvent>(DISPATCH_CHANNEL_NAME);
  const handlers = {
    start(event: DispatchEvent): void {
      const { method, target, attributes } = describe(event);
      const span = tracer.startSpan(
        target === undefined ? method : `${method} ${target}`,
        {
          kind: SpanKind.SERVER,
          attributes: { 'mcp.method.name': method, 'mcp.protocol.version': event.revision, ...attributes },
        },
        remoteParent(event.traceContext),
      );
      spans.set(event, span);
    },
    // Palisade's traced wrapper never rejects: every dispatch ends here, its outcome filled in.
    asyncEnd(event: DispatchEvent): void {
      const span = spans.get(event);
      if (span === undefined) return;
      spans.delete(event);
      const { method, attributes } = describe(event);
      const error = errorType(event);
      if (error !== undefined) {
        span.setAttribute('error.type', error);
        if (event.outcome === 'fault') span.setAttribute('rpc.response.status_code', error);
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
      const metricAttributes: Attributes = {
        'mcp.method.name': method,
        'mcp.protocol.version': event.revision,
        ...attributes,
        ...(error === undefined ? {} : { 'error.type': error }),
      };
      // A listed resource's URI may be many values: spans carry it, the histogram does not.
      delete metricAttributes['mcp.resource.uri'];
      duration.record((event.durationMs ?? 0) / 1_000, metricAttributes);
    },
    // Node 20's types ask for every phase; the span needs only the first and the last.
    end(): void {},
    asyncStart(): void {},
    error(): void {},
  };
  dispatch.subscribe(handlers);

  const onHttpRefusal = (message: unknown): void => {
    const event = message as HttpRefusalEvent;
    refusals.add(1, {
      'palisade.transport': 'http',
      'palisade.refusal.rule': event.rule,
      'http.response.status_code': event.status,
    });
  };
  const onStdioRefusal = (message: unknown): void => {
    const event = message as StdioRefusalEvent;
    refusals.add(1, {
      'palisade.transport': 'stdio',
      'palisade.refusal.rule': event.rule,
      'rpc.response.status_code': String(event.code),
    });
  };
  diagnosticsChannel.subscribe(HTTP_REFUSAL_CHANNEL, onHttpRefusal);
  diagnosticsChannel.subscribe(STDIO_REFUSAL_CHANNEL, onStdioRefusal);

  return () => {
    dispatch.unsubscribe(handlers);
    diagnosticsChannel.unsubscribe(HTTP_REFUSAL_CHANNEL, onHttpRefusal);
    diagnosticsChannel.unsubscribe(STDIO_REFUSAL_CHANNEL, onStdioRefusal);
  };
}
