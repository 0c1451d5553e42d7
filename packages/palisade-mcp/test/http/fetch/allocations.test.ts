/**
 * What the fetch handler's body reader allocates while `@hono/node-server` streams it a body
 * from a real socket: every buffer asked of `Buffer.allocUnsafe` is recorded, in this process
 * (body-allocations.test.ts does the same for the node handler). A fetch runtime's chunks are
 * always copied, so the first one is too; the buffer they are copied into doubles as it fills
 * and never grows past the length the request announced.
 */
import { expect, test } from 'vitest';
import { postInWrites } from '../../support/allocations.js';
import { closeAfterEach } from '../../support/close-after-each.js';
import { mountFetchHandler } from '../../support/fetch-peer.js';

const closeLater = closeAfterEach();

const KIB = 1_024;
const MIB = 1_048_576;

test('a 1 MiB body announced by Content-Length and sent in 64 KiB writes grows one buffer to exactly 1 MiB, once, and never past it', {
  tags: ['threat-model'],
}, async () => {
  const mounted = await closeLater(mountFetchHandler());
  const { status, sizes } = await postInWrites(mounted.port, MIB, 64 * KIB, 16 * KIB);
  expect(status).toBe(200);
  // Without the announced length to stop at, doubling would pass 1 MiB and reach nearly 2 MiB.
  expect(Math.max(...sizes)).toBe(MIB);
  expect(sizes.filter((size) => size === MIB)).toHaveLength(1);
});
