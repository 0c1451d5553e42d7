/**
 * The forwarder that makes the suite's client offer an older revision (src/pin-proxy.ts), over
 * real sockets in front of a real Palisade server: it rewrites the `protocolVersion` an
 * `initialize` offers and nothing else, and it reports a wire that was not the pinned revision.
 */
import { createServer } from 'palisade-mcp';
import { type Serving, serve } from 'palisade-mcp/http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type PinProxy, startPinProxy, wireProblems } from '../src/pin-proxy.ts';

let serving: Serving;
let proxy: PinProxy;

beforeAll(async () => {
  const server = createServer({ name: 'pinned', version: '1' });
  serving = await serve(server, {
    port: 0,
    authorize: () => ({ ok: true }),
    allowedOrigins: [],
    onLog: () => {},
  });
  proxy = await startPinProxy(`${serving.url}/mcp`, '2025-06-18');
});
afterAll(async () => {
  await proxy.close();
  await serving.close();
});

async function post(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(proxy.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

describe('the pinning forwarder', () => {
  test('an initialize offering 2025-11-25 reaches the server offering the pinned revision, and is answered with it', async () => {
    const response = await post({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
    });
    expect(await response.json()).toMatchObject({ id: 0, result: { protocolVersion: '2025-06-18' } });
    expect(proxy.seen.answered.get('2025-06-18')).toBe(1);
  });

  test('any other request passes unchanged, its version header counted', async () => {
    const response = await post(
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { 'mcp-protocol-version': '2025-06-18' },
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    expect(proxy.seen.headers.get('2025-06-18')).toBe(1);
  });

  test('a refusal the server writes passes through with its status', async () => {
    const response = await fetch(proxy.url.replace('127.0.0.1', 'localhost'), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        origin: 'http://evil.example',
      },
      body: '{"jsonrpc":"2.0","id":2,"method":"ping"}',
    });
    expect(response.status).toBe(403);
  });
});

describe('the wire a pinned leg is held to', () => {
  test('nothing is wrong when every initialize was answered and every POST named the pinned revision', () => {
    const seen = { answered: new Map([['2025-06-18', 3]]), headers: new Map([['2025-06-18', 9]]) };
    expect(wireProblems('2025-06-18', seen)).toEqual([]);
  });

  test('an initialize answered with another revision, and a POST naming another, are named', () => {
    const seen = {
      answered: new Map([
        ['2025-06-18', 2],
        ['2025-11-25', 1],
      ]),
      headers: new Map([['(none)', 4]]),
    };
    expect(wireProblems('2025-06-18', seen)).toEqual([
      '1 initialize answered 2025-11-25, not 2025-06-18',
      '4 POSTs named MCP-Protocol-Version (none), not 2025-06-18',
    ]);
  });

  test('a leg through which no initialize went is named', () => {
    expect(wireProblems('2025-03-26', { answered: new Map(), headers: new Map() })).toEqual([
      'no initialize went through',
    ]);
  });
});
