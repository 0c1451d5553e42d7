/**
 * What the fetch handler's body reader allocates while `@hono/node-server` streams it a body
 * from a real socket: every buffer asked of `Buffer.allocUnsafe` is recorded, in this process
 * (body-allocations.test.ts does the same for the node handler). A fetch runtime's chunks are
 * always copied, so the first one is too; the buffer they are copied into doubles as it fills
 * and never grows past the length the request announced.
 */
import { afterEach, expect, test } from 'vitest';
import { type Recording, recordAllocations } from '../support/allocations.js';
import { mountFetchHandler } from '../support/fetch-peer.js';
import { type Mounted, modernRequest, post, RawClient } from '../support/http-peer.js';

const KIB = 1_024;
const MIB = 1_048_576;
const LIST = modernRequest(1, 'tools/list');

let mounted: Mounted | undefined;
let recording: Recording | undefined;
afterEach(async () => {
  recording?.stop();
  recording = undefined;
  await mounted?.close();
  mounted = undefined;
});

test('a 1 MiB body announced by Content-Length and sent in 64 KiB writes grows one buffer to exactly 1 MiB, once, and never past it', {
  tags: ['threat-model'],
}, async () => {
  mounted = await mountFetchHandler();
  const client = new RawClient(mounted.port);
  const bytes = Buffer.from(post(LIST.body + ' '.repeat(MIB - LIST.body.length), LIST.headers), 'latin1');
  const head = bytes.indexOf('\r\n\r\n') + 4;
  recording = recordAllocations(16 * KIB);
  client.send(bytes.subarray(0, head));
  for (let at = head; at < bytes.length; at += 64 * KIB) client.send(bytes.subarray(at, at + 64 * KIB));
  const reply = await client.response();
  expect(reply.status).toBe(200);
  const sizes = recording.sizes;
  // Without the announced length to stop at, doubling would pass 1 MiB and reach nearly 2 MiB.
  expect(Math.max(...sizes)).toBe(MIB);
  expect(sizes.filter((size) => size === MIB)).toHaveLength(1);
  client.end();
});
