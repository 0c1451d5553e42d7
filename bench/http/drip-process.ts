/**
 * Child-process entry holding the slow clients of the drip run, so their ~12,000 sockets count
 * against this process's descriptors and not the server's or the prober's. argv: port, count,
 * Content-Length, ms between two bytes on one connection. Each connection sends a complete
 * request head declaring the length, then one body byte per interval, never finishing.
 * IPC: `ready` once all are connected (with failures), `status` on request, `close`.
 */
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { echoCall, head } from './requests.js';

export type ToDripper = { readonly type: 'status' } | { readonly type: 'close' };
export type FromDripper =
  | { readonly type: 'ready'; readonly open: number; readonly failed: number; readonly seconds: number }
  | {
      readonly type: 'status';
      readonly open: number;
      readonly closedByServer: number;
      readonly bytes: number;
    };

const [port, count, contentLength, intervalMs] = process.argv.slice(2, 6).map(Number) as [
  number,
  number,
  number,
  number,
];
/**
 * Every tick, the next slice of connections gets its byte: with 12,000 connections, 60 bytes every
 * 5 ms, spread like independent clients. Coarser slices are bursts the prober queues behind: with
 * 240 bytes every 20 ms the probe's p99 measured 10.4 and 12.6 ms against 8.2 ms here.
 */
const TICK_MS = 5;
/** Connections being opened at once: the listen backlog stays far from full. */
const BATCH = 250;

const requestHead = head(port, contentLength, echoCall('2026-07-28').headers);
const sockets: Socket[] = [];
let failed = 0;
let closedByServer = 0;
let bytes = 0;
let closing = false;

async function openOne(): Promise<void> {
  const socket = connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  socket.on('error', () => {});
  try {
    await once(socket, 'connect');
  } catch {
    failed++;
    return;
  }
  socket.on('close', () => {
    if (!closing) closedByServer++;
  });
  socket.write(requestHead);
  sockets.push(socket);
}

const started = performance.now();
for (let i = 0; i < count; i += BATCH) {
  await Promise.all(Array.from({ length: Math.min(BATCH, count - i) }, openOne));
}

// Each tick writes one byte to the next slice, so every connection gets a byte per interval.
const perTick = Math.max(1, Math.ceil((sockets.length * TICK_MS) / intervalMs));
let cursor = 0;
const ticker = setInterval(() => {
  for (let k = 0; k < perTick && sockets.length > 0; k++) {
    const socket = sockets[cursor % sockets.length]!;
    cursor++;
    if (socket.destroyed) continue;
    socket.write(' ');
    bytes++;
  }
}, TICK_MS);

function reply(message: FromDripper): void {
  process.send?.(message);
}

process.on('message', (message: ToDripper) => {
  if (message.type === 'status') {
    const open = sockets.filter((socket) => !socket.destroyed).length;
    reply({ type: 'status', open, closedByServer, bytes });
    return;
  }
  closing = true;
  clearInterval(ticker);
  for (const socket of sockets) socket.destroy();
  process.disconnect();
});
process.on('disconnect', () => process.exit(0));
reply({
  type: 'ready',
  open: sockets.length,
  failed,
  seconds: (performance.now() - started) / 1_000,
});
