/**
 * Adversarial: W3C `baggage` without the host's opt-in. trace-context.ts says baggage "reaches the
 * host only when the host asked (`traceContext.baggage`)", and the server option's doc says the
 * same ("since baggage is arbitrary key-value data from the caller"). `ctx.traceContext` keeps that
 * promise; `ctx.meta` is the client's `_meta` as sent, so the same baggage (and a `tracestate` the
 * checks dropped as non-W3C text) is there for any handler or instrumentation that reads it.
 */
import { afterEach, expect, test } from 'vitest';
import { createHttpHandler } from '../../src/http/node/handler.js';
import { createServer, defineTool } from '../../src/index.js';
import { ADMIT_ALL, exchange, type Mounted, modernRequest, mount, post } from '../support/http-peer.js';

const opened: Mounted[] = [];
afterEach(async () => {
  for (const mounted of opened.splice(0)) await mounted.close();
});

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const BAGGAGE = 'userId=alice,sessionSecret=SECRET-BAGGAGE';

/** What a handler on a server without `traceContext: { baggage: true }` can see of the baggage. */
async function baggageSeenWithoutOptIn(): Promise<{ fromTraceContext: unknown; fromMeta: unknown }> {
  const server = createServer({
    name: 'adversarial',
    version: '1',
    tools: [
      defineTool({
        name: 'peek',
        inputSchema: { type: 'object' },
        handler: (_args, ctx) => ({
          content: [],
          structuredContent: {
            fromTraceContext: ctx.traceContext?.baggage ?? null,
            fromMeta: ctx.meta['baggage'] ?? null,
          },
        }),
      }),
    ],
  });
  const mounted = await mount(createHttpHandler(server, ADMIT_ALL));
  opened.push(mounted);
  const call = modernRequest(1, 'tools/call', {
    name: 'peek',
    arguments: {},
    _meta: { traceparent: TRACEPARENT, baggage: BAGGAGE },
  });
  const reply = await exchange(mounted.port, post(call.body, call.headers));
  reply.client.end();
  return JSON.parse(reply.body).result.structuredContent;
}

test('without the baggage opt-in, ctx.traceContext carries no baggage', async () => {
  expect((await baggageSeenWithoutOptIn()).fromTraceContext).toBeNull();
});

// Was a hole (the raw value sat in `ctx.meta`). As the opt-in is documented: without
// `traceContext: { baggage: true }` no baggage reaches host code, `ctx.meta` included.
test('without the baggage opt-in, ctx.meta carries no baggage either', {
  tags: ['threat-model'],
}, async () => {
  expect((await baggageSeenWithoutOptIn()).fromMeta).toBeNull();
});
