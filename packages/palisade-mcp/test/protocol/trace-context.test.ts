/**
 * Trace context in `_meta` is client input: `tracestate` and `baggage` are bounded in bytes and
 * list members (refused -32602 naming the key past a bound), a malformed `traceparent` is ignored,
 * and `baggage` reaches the handler only when the host opted in. Every case goes over a real pipe
 * to a spawned server whose `trace` tool answers with the `ctx.traceContext` it received.
 */
import { spawn } from 'node:child_process';
import { afterAll, describe, expect, test } from 'vitest';
import { bundledFixture } from '../support/fixture-bundles.js';
import { INITIALIZE, type Json, modern, StdioPeer } from '../support/stdio-peer.js';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const MARKER = 'TRACEMARK';

/** One spawned server per set of flags, shared by the tests: each sends its own requests. */
const peers = new Map<string, StdioPeer>();
afterAll(() => {
  for (const peer of peers.values()) peer.kill();
});

async function start(...flags: string[]): Promise<StdioPeer> {
  const key = flags.join(' ');
  let peer = peers.get(key);
  if (peer === undefined) {
    peer = new StdioPeer(
      spawn(process.execPath, [bundledFixture('serve-telemetry-stdio'), ...flags], { stdio: 'pipe' }),
    );
    peers.set(key, peer);
    // A spawned tsx process can take many seconds to start on a busy machine: wait for its first answer.
    peer.sendJson(
      flags.includes('--legacy')
        ? { jsonrpc: '2.0', id: 'warm', method: 'ping' }
        : modern('warm', 'tools/list'),
    );
    await peer.nextMessage(60_000);
  }
  return peer;
}

function traceCall(meta: Json): Json {
  return modern(1, 'tools/call', { name: 'trace', arguments: {}, _meta: meta });
}

/** One list member `k=<x…>` of exactly `bytes` bytes. */
function memberOfBytes(bytes: number): string {
  return `${MARKER}=${'x'.repeat(bytes - MARKER.length - 1)}`;
}

/** `count` list members `m0=1,m1=1,…`. */
function members(count: number): string {
  return Array.from({ length: count }, (_, index) => `m${index}=1`).join(',');
}

function received(response: Json): unknown {
  const result = response['result'] as Json | undefined;
  return (result?.['structuredContent'] as Json | undefined)?.['traceContext'];
}

function expectRefused(response: Json, rule: string): void {
  expect(response['error']).toEqual({ code: -32602, message: `Invalid params: params._meta.${rule}` });
  expect(JSON.stringify(response)).not.toContain(MARKER);
}

describe('trace context in _meta', () => {
  test('a well-formed traceparent and its tracestate reach the handler as ctx.traceContext', async () => {
    const server = await start();
    const response = await server.request(
      traceCall({ traceparent: TRACEPARENT, tracestate: 'rojo=00f067aa0ba902b7' }),
    );
    expect(received(response)).toEqual({ traceparent: TRACEPARENT, tracestate: 'rojo=00f067aa0ba902b7' });
  });

  test('a tracestate of exactly 512 bytes is admitted', async () => {
    const server = await start();
    const tracestate = memberOfBytes(512);
    const response = await server.request(traceCall({ traceparent: TRACEPARENT, tracestate }));
    expect(received(response)).toEqual({ traceparent: TRACEPARENT, tracestate });
  });

  test('a tracestate of 513 bytes is refused -32602 naming tracestate, echoing none of it', {
    tags: ['threat-model'],
  }, async () => {
    const server = await start();
    const response = await server.request(
      traceCall({ traceparent: TRACEPARENT, tracestate: memberOfBytes(513) }),
    );
    expectRefused(response, 'tracestate exceeds 512 bytes');
  });

  test('a tracestate counting its bytes in UTF-8 is refused when 511 characters make 513 bytes', async () => {
    const server = await start();
    // Two of these characters are two bytes each in UTF-8: 511 UTF-16 units, 513 bytes.
    const tracestate = `${memberOfBytes(509)}éé`;
    expect(tracestate.length).toBe(511);
    const response = await server.request(traceCall({ traceparent: TRACEPARENT, tracestate }));
    expectRefused(response, 'tracestate exceeds 512 bytes');
  });

  test('a tracestate of 32 list members is admitted and one of 33 is refused', {
    tags: ['threat-model'],
  }, async () => {
    const server = await start();
    expect(
      received(await server.request(traceCall({ traceparent: TRACEPARENT, tracestate: members(32) }))),
    ).toEqual({
      traceparent: TRACEPARENT,
      tracestate: members(32),
    });
    const response = await server.request(traceCall({ traceparent: TRACEPARENT, tracestate: members(33) }));
    expectRefused(response, 'tracestate exceeds 32 list members');
  });

  test('a baggage of exactly 8,192 bytes is admitted and one of 8,193 is refused', {
    tags: ['threat-model'],
  }, async () => {
    const server = await start('--baggage');
    const admitted = await server.request(
      traceCall({ traceparent: TRACEPARENT, baggage: memberOfBytes(8_192) }),
    );
    expect(received(admitted)).toEqual({ traceparent: TRACEPARENT, baggage: memberOfBytes(8_192) });
    const refused = await server.request(
      traceCall({ traceparent: TRACEPARENT, baggage: memberOfBytes(8_193) }),
    );
    expectRefused(refused, 'baggage exceeds 8192 bytes');
  });

  test('a baggage of 64 list members is admitted and one of 65 is refused', async () => {
    const server = await start('--baggage');
    const admitted = await server.request(traceCall({ traceparent: TRACEPARENT, baggage: members(64) }));
    expect(received(admitted)).toEqual({ traceparent: TRACEPARENT, baggage: members(64) });
    const refused = await server.request(traceCall({ traceparent: TRACEPARENT, baggage: members(65) }));
    expectRefused(refused, 'baggage exceeds 64 list members');
  });

  test('baggage over its bound is refused even when the host does not read baggage', async () => {
    const server = await start();
    const response = await server.request(traceCall({ traceparent: TRACEPARENT, baggage: members(65) }));
    expectRefused(response, 'baggage exceeds 64 list members');
  });

  test('baggage does not reach the handler unless the host opted in', {
    tags: ['threat-model'],
  }, async () => {
    const server = await start();
    const response = await server.request(traceCall({ traceparent: TRACEPARENT, baggage: 'userId=alice' }));
    expect(received(response)).toEqual({ traceparent: TRACEPARENT });
  });

  test('baggage reaches the handler when the host opted in', async () => {
    const server = await start('--baggage');
    const response = await server.request(traceCall({ traceparent: TRACEPARENT, baggage: 'userId=alice' }));
    expect(received(response)).toEqual({ traceparent: TRACEPARENT, baggage: 'userId=alice' });
  });

  test.each([
    ['upper-case hex', '00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01'],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`],
    ['an all-zero parent id', `00-4bf92f3577b34da6a3ce929d0e0e4736-${'0'.repeat(16)}-01`],
    ['version 01', '01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'],
    ['one character short', '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-1'],
    ['a trailing field', `${TRACEPARENT}-00`],
  ])(
    'a traceparent with %s is ignored: the call is served without trace context',
    { tags: ['threat-model'] },
    async (_case, traceparent) => {
      const server = await start();
      const response = await server.request(traceCall({ traceparent, tracestate: 'rojo=1' }));
      expect(response['error']).toBeUndefined();
      expect(received(response)).toBeNull();
    },
  );

  test.each([
    ['traceparent', 42],
    ['tracestate', ['rojo=1']],
    ['baggage', { userId: 'alice' }],
  ])('a %s that is not a string is refused -32602 naming it', async (key, value) => {
    const server = await start('--baggage');
    const response = await server.request(traceCall({ traceparent: TRACEPARENT, [key]: value }));
    expectRefused(response, `${key} must be a string`);
  });

  test('a 2025-11-25 request is held to the same bounds', async () => {
    const server = await start('--legacy');
    await server.request(INITIALIZE);
    server.sendJson({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const response = await server.request({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'trace', arguments: {}, _meta: { traceparent: TRACEPARENT, tracestate: members(33) } },
    });
    expectRefused(response, 'tracestate exceeds 32 list members');
  });
});
