/**
 * What the body reader allocates while it gathers a body, over real sockets: every buffer it
 * asks `Buffer.allocUnsafe` for is recorded, so each rule about memory is seen exactly, in this
 * process, with no garbage collector or other test file in the figure (body-memory.test.ts reads
 * the same rules as process memory in a server of its own). A body that arrives in one piece is
 * decoded where it came; a body that arrives in pieces grows one buffer by doubling, never past
 * the length its request announced.
 */
import { once } from 'node:events';
import { createServer as createHttp2Server, type Http2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { createHttpHandler } from '../../../src/http/node/handler.js';
import {
  paddedListPost,
  postInWrites,
  type Recording,
  recordAllocations,
} from '../../support/allocations.js';
import { closeAfterEach } from '../../support/close-after-each.js';
import { dataFrame, H2Peer, headersFrame, postFields } from '../../support/h2-frames.js';
import { ADMIT_ALL, basicServer, LIST, mountHandler, RawClient } from '../../support/http-peer.js';

const closeLater = closeAfterEach();

const KIB = 1_024;
const MIB = 1_048_576;

let h2: Http2Server | undefined;
let recording: Recording | undefined;
afterEach(async () => {
  recording?.stop();
  recording = undefined;
  if (h2 !== undefined) {
    h2.close();
    await once(h2, 'close');
    h2 = undefined;
  }
});

test('a body that arrives with its head in one write is decoded from the buffer it came in, with no copy made', {
  tags: ['threat-model'],
}, async () => {
  const mounted = await closeLater(mountHandler());
  const client = new RawClient(mounted.port);
  recording = recordAllocations(4 * KIB);
  client.send(paddedListPost(8 * KIB));
  const reply = await client.response();
  expect(reply.status).toBe(200);
  expect(reply.body).toContain('"tools"');
  expect(recording.sizes).toEqual([]);
  client.end();
});

test('a 1 MiB body announced by Content-Length and sent in 64 KiB writes grows one buffer to exactly 1 MiB, once, and never past it', {
  tags: ['threat-model'],
}, async () => {
  const mounted = await closeLater(mountHandler());
  const { status, sizes } = await postInWrites(mounted.port, MIB, 64 * KIB, 16 * KIB);
  expect(status).toBe(200);
  // Doubling from the first piece would pass 1 MiB by a few bytes and reach nearly 2 MiB.
  expect(Math.max(...sizes)).toBe(MIB);
  // Filled exactly by its last piece, the buffer is not grown (copied) again.
  expect(sizes.filter((size) => size === MIB)).toHaveLength(1);
});

test('a body whose second piece fills its announced length exactly is gathered in a buffer of exactly that length', {
  tags: ['threat-model'],
}, async () => {
  const mounted = await closeLater(mountHandler());
  const client = new RawClient(mounted.port);
  const bytes = paddedListPost(100_000);
  const head = bytes.indexOf('\r\n\r\n') + 4;
  recording = recordAllocations(16 * KIB);
  // 60,000 bytes first, kept as they came; the last 40,000 bring the body to its announced length.
  client.send(bytes.subarray(0, head + 60_000));
  await new Promise((resolve) => setTimeout(resolve, 100));
  client.send(bytes.subarray(head + 60_000));
  const reply = await client.response();
  expect(reply.status).toBe(200);
  // Doubling the first piece would ask for 120,000 bytes.
  expect(recording.sizes).toEqual([100_000]);
  client.end();
});

/** Sends a tools/list on stream 1 over HTTP/2, no content-length, in DATA frames of `frameBytes`. */
async function sendInFrames(peer: H2Peer, total: number, frameBytes: number): Promise<void> {
  const body = Buffer.from(LIST.body + ' '.repeat(total - LIST.body.length));
  const fields = Object.entries(LIST.headers).map(([name, value]): [string, string] => [
    name.toLowerCase(),
    String(value),
  ]);
  // Built before the recording starts: the frames are this client's allocations, not the server's.
  const frames = [headersFrame(1, postFields(fields))];
  for (let at = 0; at < body.length; at += frameBytes)
    frames.push(
      dataFrame(1, body.subarray(at, at + frameBytes), { endStream: at + frameBytes >= body.length }),
    );
  recording = recordAllocations(frameBytes);
  for (const frame of frames) {
    peer.send(frame);
    // One frame at a time, so each reaches the reader as a piece of its own.
    await new Promise((resolve) => setImmediate(resolve));
  }
  await peer.streamEnd(1);
}

async function h2Peer(): Promise<H2Peer> {
  h2 = createHttp2Server(createHttpHandler(basicServer(), ADMIT_ALL));
  h2.listen(0, '127.0.0.1');
  await once(h2, 'listening');
  const peer = new H2Peer((h2.address() as AddressInfo).port);
  await peer.ready();
  return peer;
}

test('an HTTP/2 body of undeclared length sent in 64 DATA frames of 4 KiB is copied as its buffer doubles, not once per frame', {
  tags: ['threat-model'],
}, async () => {
  const peer = await h2Peer();
  try {
    await sendInFrames(peer, 256 * KIB, 4 * KIB);
    expect(peer.statuses(1)).toEqual([200]);
    const sizes = recording?.sizes ?? [];
    // The first 4 KiB, then 8, 16, 32, 64, 128 and 256 KiB: seven buffers for 64 pieces.
    expect(sizes.length).toBeGreaterThan(0);
    expect(sizes.length).toBeLessThanOrEqual(8);
    expect(Math.max(...sizes)).toBe(256 * KIB);
  } finally {
    peer.end();
  }
});

test('the first DATA frame of an HTTP/2 body is copied out of the buffer Node read it into, so the stream holds only its own bytes', {
  tags: ['threat-model'],
}, async () => {
  const peer = await h2Peer();
  try {
    await sendInFrames(peer, 64 * KIB, 4 * KIB);
    expect(peer.statuses(1)).toEqual([200]);
    // Node hands over each frame's bytes as a view into a larger buffer: kept, the view would
    // hold that whole buffer, and the first buffer of the body's own would be 8 KiB.
    expect(recording?.sizes[0]).toBe(4 * KIB);
  } finally {
    peer.end();
  }
});
