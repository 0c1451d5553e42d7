/**
 * Where a large answer is cut into slices, as a client sees it over a real socket: the chunks of a
 * stream's last event (HTTP/1.1 chunked framing shows every `write`), and a JSON answer written
 * through a host's server whose sockets take more than one slice before they push back. Each test
 * starts its own server: under per-test coverage (npm run mutate) a kill is credited only to the
 * test that reached the mutant.
 */
import { once } from 'node:events';
import { createServer as createHttpServer, type Server as NodeHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { createHttpHandler } from '../../src/http/node/handler.js';
import { createServer, defineTool } from '../../src/index.js';
import { ADMIT_ALL, modernRequest, post, RawClient } from '../support/http-peer.js';

let host: NodeHttpServer | undefined;
const clients: RawClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.end();
  if (host !== undefined) {
    host.closeAllConnections();
    host.close();
    await once(host, 'close');
    host = undefined;
  }
});

/** A tool `wide` that answers `'é'.repeat(n)`, first sending one progress notification when asked. */
function wideServer() {
  return createServer({
    name: 'wide',
    version: '1.0.0',
    tools: [
      defineTool<{ n: number }>({
        name: 'wide',
        inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
        handler: ({ n }, ctx) => {
          ctx.progress(1, undefined, 'started');
          return { content: [{ type: 'text', text: 'é'.repeat(n) }] };
        },
      }),
    ],
  });
}

async function listen(options: { highWaterMark?: number } = {}): Promise<number> {
  const handler = createHttpHandler(wideServer(), ADMIT_ALL);
  host = createHttpServer(options, handler);
  host.listen(0, '127.0.0.1');
  await once(host, 'listening');
  return (host.address() as AddressInfo).port;
}

/** The chunks of a chunked body, each as its raw bytes, up to the last (empty) one. */
function chunksOf(raw: Buffer): Buffer[] {
  const chunks: Buffer[] = [];
  let at = raw.indexOf('\r\n\r\n') + 4;
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', at);
    const size = Number.parseInt(raw.subarray(at, lineEnd).toString('latin1'), 16);
    if (size === 0) return chunks;
    chunks.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/** Streams a call of `wide` with `n` and returns the chunks of its body. */
async function streamedChunks(port: number, n: number): Promise<Buffer[]> {
  const call = modernRequest(1, 'tools/call', {
    name: 'wide',
    arguments: { n },
    _meta: { progressToken: 'p' },
  });
  const client = new RawClient(port);
  clients.push(client);
  client.send(post(call.body, call.headers));
  await client.until((text) => text.endsWith('\r\n0\r\n\r\n'));
  return chunksOf(Buffer.from(client.text(), 'latin1'));
}

describe("a stream's last event", () => {
  test('of exactly 65,536 characters, more than 65,536 bytes, is written as one chunk', async () => {
    const port = await listen();
    // A first call finds the event's length beside the text's, so the second can hit 65,536.
    const probe = await streamedChunks(port, 1_000);
    const probeEvent = probe.at(-1)!.toString('utf8');
    expect(probeEvent.startsWith('event: message\ndata: {')).toBe(true);
    const overhead = probeEvent.length - 1_000;
    const n = 65_536 - overhead;

    const chunks = await streamedChunks(port, n);
    const last = chunks.at(-1)!.toString('utf8');
    // Characters decide the slicing, not bytes: at or under 65,536 characters the event is one
    // `end`, however many bytes its characters take.
    expect(last.length).toBe(65_536);
    expect(Buffer.byteLength(last)).toBeGreaterThan(65_536);
    expect(last.startsWith('event: message\ndata: {')).toBe(true);
    expect(last).toContain('"result":{');
    expect(last.endsWith('}\n\n')).toBe(true);
  });
});

describe('a JSON answer over a host server whose sockets buffer more than one slice', () => {
  test('is written whole: no slice waits for a drain that a write never asked for', async () => {
    // A write under the socket's high-water mark returns true, and Node emits 'drain' only after
    // a write that returned false: waiting for one then would wait for good.
    const port = await listen({ highWaterMark: 4 * 1_048_576 });
    const call = modernRequest(1, 'tools/call', { name: 'wide', arguments: { n: 100_000 } });
    const client = new RawClient(port);
    clients.push(client);
    client.send(post(call.body, { ...call.headers, Accept: 'application/json' }));
    const reply = await Promise.race([
      client.response(),
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 3_000)),
    ]);
    expect(reply?.status).toBe(200);
    const parsed = JSON.parse(reply?.body ?? '{}') as { result?: { content: { text: string }[] } };
    expect(parsed.result?.content[0]?.text).toBe('é'.repeat(100_000));
  });
});
