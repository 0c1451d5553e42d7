/**
 * What a request body costs the server while it is read, however the client splits it. The byte
 * cap bounds the payload; this holds the memory behind it. A body sent one byte per HTTP/2 DATA
 * frame was kept as one chunk object per byte, about a hundred bytes of heap for each byte read,
 * so one 1 MiB body held about 100 MiB under the node handler and 200 MiB under the fetch handler
 * (found by review 2026-11-30). The heap is read after a full collection, before and while the
 * body is held: `gc` is reached through V8's own flag, as the test runner starts Node without it.
 */

import { fork } from 'node:child_process';
import { once } from 'node:events';
import { createServer as createHttp2Server, type Http2Server } from 'node:http2';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createAdaptorServer } from '@hono/node-server';
import { afterEach, expect, test } from 'vitest';
import { createFetchHandler } from '../../src/http/fetch/handler.js';
import { createHttpHandler } from '../../src/http/node/handler.js';
import { bundledFixture } from '../support/fixture-bundles.js';
import { H2Peer, headersFrame, postFields } from '../support/h2-frames.js';
import { ADMIT_ALL, basicServer, LIST } from '../support/http-peer.js';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** 100,000 one-byte frames: about 11 MiB held before the fix (node handler), 22 MiB (fetch). */
const FRAMES = 100_000;
const HELD_BOUND_BYTES = 5 * 1_048_576;

const OPTIONS = { ...ADMIT_ALL, readTimeoutMs: 120_000 };

let server: Http2Server | undefined;
let peer: H2Peer | undefined;
afterEach(async () => {
  peer?.end();
  peer = undefined;
  if (server !== undefined) {
    server.close();
    await once(server, 'close');
    server = undefined;
  }
});

function heapUsed(): number {
  collect();
  return process.memoryUsage().heapUsed;
}

test.each([
  ['node handler', () => createHttp2Server(createHttpHandler(basicServer(), OPTIONS))],
  [
    'fetch handler behind @hono/node-server',
    () =>
      createAdaptorServer({
        fetch: createFetchHandler(basicServer(), OPTIONS),
        createServer: createHttp2Server as never,
      }) as unknown as Http2Server,
  ],
])(
  '%s: a body sent one byte per HTTP/2 DATA frame holds no more than a few MiB while it is read',
  {
    tags: ['threat-model'],
  },
  async (_name, make) => {
    server = make();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    peer = new H2Peer((server.address() as AddressInfo).port);
    await peer.ready();
    const before = heapUsed();
    const fields = Object.entries(LIST.headers).map(([name, value]): [string, string] => [
      name.toLowerCase(),
      String(value),
    ]);
    peer.send(headersFrame(1, postFields(fields)));
    // Credit comes as the server reads; a loaded machine reads slowly, so the wait for it is long.
    expect(await peer.upload(1, FRAMES, { frameBytes: 1, quietMs: 20_000 })).toBe(FRAMES);
    // The stream stays open: the server holds what it has read, and nothing is answered yet.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const held = heapUsed() - before;
    expect(peer.statuses(1)).toEqual([]);
    expect(held).toBeLessThan(HELD_BOUND_BYTES);
  },
);

/** Connections each holding a 1 MiB body one byte short of its end. */
const HOLDERS = 4;
const MIB = 1_048_576;

test('a 1 MiB body announced by Content-Length and sent in 64 KiB writes is held in a buffer of its own size, not twice it', {
  tags: ['threat-model'],
}, async () => {
  // The server runs in a process of its own: Buffers are counted per process, and this runner's
  // other files allocate their own while this one waits.
  const child = fork(bundledFixture('serve-http-memory'), [], { execArgv: ['--expose-gc'], stdio: 'ignore' });
  const sockets: Socket[] = [];
  const ask = async (): Promise<number> => {
    child.send('memory');
    const [reply] = (await once(child, 'message')) as [{ arrayBuffers: number }];
    return reply.arrayBuffers;
  };
  try {
    const [{ port }] = (await once(child, 'message')) as [{ port: number }];
    const before = await ask();
    const head = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: ${MIB}\r\n\r\n`;
    for (let i = 0; i < HOLDERS; i++) {
      const socket = connect(port, '127.0.0.1');
      sockets.push(socket);
      await once(socket, 'connect');
      socket.write(head);
      // All but the last byte: the server holds what it has read, and answers nothing yet.
      for (let sent = 0; sent < MIB - 1; sent += 65_536)
        socket.write(Buffer.alloc(Math.min(65_536, MIB - 1 - sent), 0x20));
    }
    await Promise.all(
      sockets.map((socket) => (socket.writableLength === 0 ? undefined : once(socket, 'drain'))),
    );
    // The server has read everything once two readings 200 ms apart agree.
    let last = -1;
    let now = await ask();
    for (let tries = 0; now !== last && tries < 25; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      last = now;
      now = await ask();
    }
    const held = (now - before) / HOLDERS;
    // Doubling from the first chunk, a buffer passes 1 MiB by a few bytes and grows to 2 MiB.
    expect(held).toBeGreaterThan(0.9 * MIB);
    expect(held).toBeLessThan(1.25 * MIB);
  } finally {
    for (const socket of sockets) socket.destroy();
    child.kill();
  }
});
