/**
 * The body reader over real sockets, for what its own deadline bookkeeping and edge checks decide:
 * reads in flight share one timer, so each must still lapse at its own deadline however others
 * start and finish around it; the clock is read as bytes are taken and again at the end; a body
 * of exactly the cap is whole; a client that leaves ends its read at once. Written against the
 * `http-body` mutation group's survivors (docs/mutation-testing.md).
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, test } from 'vitest';
import type { BodyRead } from '../../../src/http/body-bytes.js';
import { readBody } from '../../../src/http/node/read-body.js';
import { declaredLength, post, RawClient } from '../../support/http-peer.js';

const CAP = 1_048_576;
/** Far beyond any test here: a read given it lapses only if the bookkeeping is wrong. */
const LONG_MS = 20_000;
/** How long a read due to lapse may take to be seen lapsing on a loaded machine. */
const GRACE_MS = 5_000;

interface Plan {
  readonly deadlineMs: number;
  readonly cap?: number;
  /** Start the read this long after the head arrives (the body is then already buffered). */
  readonly waitMs?: number;
  /** A host 'data' listener that blocks the event loop this long on the first chunk. */
  readonly stallMs?: number;
  /** Whether that listener is attached before the read starts (else right after). */
  readonly stallFirst?: boolean;
}

type Outcome = BodyRead | 'rejected';

interface Slot {
  readonly plan: Plan;
  readonly started: Promise<void>;
  readonly outcome: Promise<Outcome>;
  begin(): void;
  settle(outcome: Outcome): void;
}

const slots = new Map<string, Slot>();

function expectRead(id: string, plan: Plan): Slot {
  let begin = (): void => {};
  let settle = (_: Outcome): void => {};
  const started = new Promise<void>((resolve) => {
    begin = resolve;
  });
  const outcome = new Promise<Outcome>((resolve) => {
    settle = resolve;
  });
  const slot = { plan, started, outcome, begin, settle };
  slots.set(id, slot);
  return slot;
}

function stallOnFirstChunk(req: IncomingMessage, ms: number): void {
  req.once('data', () => {
    const until = performance.now() + ms;
    while (performance.now() < until) {
      // The host's event loop is busy: no timer can run until this returns.
    }
  });
}

/** Reads each request's body as its `X-Read` slot plans, and answers with the bytes or the reason. */
function readAsPlanned(req: IncomingMessage, end: (text: string | Buffer) => void): void {
  const slot = slots.get(String(req.headers['x-read']));
  if (slot === undefined) throw new Error('no plan for this request');
  const { plan } = slot;
  const go = (): void => {
    if (plan.stallMs !== undefined && plan.stallFirst === true) stallOnFirstChunk(req, plan.stallMs);
    const pending = readBody(req, plan.cap ?? CAP, performance.now() + plan.deadlineMs, declaredLength(req));
    if (plan.stallMs !== undefined && plan.stallFirst !== true) stallOnFirstChunk(req, plan.stallMs);
    slot.begin();
    Promise.resolve(pending).then(
      (read) => {
        slot.settle(read);
        end(read.ok ? read.bytes : read.reason);
      },
      () => {
        slot.settle('rejected');
        end('rejected');
      },
    );
  };
  if (plan.waitMs === undefined) go();
  else setTimeout(go, plan.waitMs);
}

let server: Server | undefined;
const clients: RawClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.socket.destroy();
  server?.closeAllConnections();
  server?.close();
  server = undefined;
  slots.clear();
});

async function listen(): Promise<number> {
  const http1 = createServer((req, res) => readAsPlanned(req, (text) => res.end(text)));
  server = http1;
  http1.listen(0, '127.0.0.1');
  await once(http1, 'listening');
  return (http1.address() as AddressInfo).port;
}

/** One request on its own connection: the head and the first `sent` body bytes now, the rest by `finish()`. */
function begin(port: number, id: string, body: string, sent: number): { finish(): void } {
  const client = new RawClient(port);
  clients.push(client);
  const bytes = post(body, { 'X-Read': id });
  const cut = bytes.indexOf('\r\n\r\n') + 4 + sent;
  client.send(bytes.slice(0, cut));
  return { finish: () => client.send(bytes.slice(cut)) };
}

/** The outcome, or 'still pending' if it takes longer than `ms`. */
async function within(outcome: Promise<Outcome>, ms: number): Promise<Outcome | 'still pending'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'still pending'>((resolve) => {
    timer = setTimeout(() => resolve('still pending'), ms);
  });
  try {
    return await Promise.race([outcome, late]);
  } finally {
    clearTimeout(timer);
  }
}

const BODY = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
const TIMEOUT: BodyRead = { ok: false, reason: 'timeout' };

describe('reads in flight under one shared timer', () => {
  test('a stalled body lapses at its own deadline though a read with a longer one started after it', async () => {
    const port = await listen();
    const early = expectRead('early', { deadlineMs: 300 });
    begin(port, 'early', BODY, 0);
    await early.started;
    const later = expectRead('later', { deadlineMs: LONG_MS });
    begin(port, 'later', BODY, 0);
    await later.started;
    expect(await within(early.outcome, GRACE_MS)).toEqual(TIMEOUT);
  });

  test('when one read lapses, a read still within its deadline goes on and is served', async () => {
    const port = await listen();
    const early = expectRead('early', { deadlineMs: 200 });
    begin(port, 'early', BODY, 0);
    await early.started;
    const patient = expectRead('patient', { deadlineMs: LONG_MS });
    const rest = begin(port, 'patient', BODY, 5);
    await patient.started;
    expect(await within(early.outcome, GRACE_MS)).toEqual(TIMEOUT);
    rest.finish();
    const read = await within(patient.outcome, GRACE_MS);
    expect(read).toMatchObject({ ok: true });
    expect(read !== 'still pending' && read !== 'rejected' && read.ok && read.bytes.toString()).toBe(BODY);
  });

  test('after a lapse the timer is armed for the earliest deadline left, not the last one met', async () => {
    const port = await listen();
    // Started in this order, the list holds them newest first: second, distant, first.
    const first = expectRead('first', { deadlineMs: 300 });
    begin(port, 'first', BODY, 0);
    await first.started;
    const distant = expectRead('distant', { deadlineMs: LONG_MS });
    begin(port, 'distant', BODY, 0);
    await distant.started;
    const second = expectRead('second', { deadlineMs: 1_000 });
    begin(port, 'second', BODY, 0);
    await second.started;
    expect(await within(first.outcome, GRACE_MS)).toEqual(TIMEOUT);
    expect(await within(second.outcome, GRACE_MS)).toEqual(TIMEOUT);
  });

  test.each([
    ['the middle one first, then the newest', ['middle', 'newest']],
    ['the newest first, then the middle one', ['newest', 'middle']],
  ])('a stalled body still lapses after two reads started after it end, %s', async (_, order) => {
    const port = await listen();
    const stalled = expectRead('stalled', { deadlineMs: 1_500 });
    begin(port, 'stalled', BODY, 0);
    await stalled.started;
    const rests = new Map<string, { finish(): void }>();
    for (const id of ['middle', 'newest']) {
      const slot = expectRead(id, { deadlineMs: LONG_MS });
      rests.set(id, begin(port, id, BODY, 5));
      await slot.started;
    }
    for (const id of order) {
      rests.get(id)?.finish();
      expect(await within(slots.get(id)!.outcome, GRACE_MS)).toMatchObject({ ok: true });
    }
    expect(await within(stalled.outcome, GRACE_MS)).toEqual(TIMEOUT);
  });

  test('once the last read in flight has lapsed, no timer is armed without a deadline', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning.name);
    };
    process.on('warning', onWarning);
    try {
      const port = await listen();
      const alone = expectRead('alone', { deadlineMs: 100 });
      begin(port, 'alone', BODY, 0);
      expect(await within(alone.outcome, GRACE_MS)).toEqual(TIMEOUT);
      // A timer armed for "no deadline" would be clamped to 1 ms by Node, with a warning each time.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(warnings).not.toContain('TimeoutOverflowWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });
});

describe('the clock is read as the bytes are taken', () => {
  test('a body whose end is taken after the deadline is late, even before the deadline timer runs', async () => {
    const port = await listen();
    // The host blocks its event loop right after the only chunk: the end comes after the deadline.
    const slow = expectRead('slow', { deadlineMs: 50, stallMs: 200 });
    begin(port, 'slow', BODY, BODY.length);
    expect(await within(slow.outcome, GRACE_MS)).toEqual(TIMEOUT);
  });

  test('a chunk taken after the deadline is refused as late, before it is counted against the cap', async () => {
    const port = await listen();
    const slow = expectRead('slow', { deadlineMs: 50, cap: 8, stallMs: 200, stallFirst: true });
    begin(port, 'slow', BODY, BODY.length);
    expect(await within(slow.outcome, GRACE_MS)).toEqual(TIMEOUT);
  });
});

describe('what a body holds', () => {
  test('a body already buffered of exactly the cap is taken whole', async () => {
    const port = await listen();
    const exact = expectRead('exact', { deadlineMs: LONG_MS, cap: Buffer.byteLength(BODY), waitMs: 100 });
    begin(port, 'exact', BODY, BODY.length);
    const read = await within(exact.outcome, GRACE_MS);
    expect(read).toMatchObject({ ok: true });
    expect(read !== 'still pending' && read !== 'rejected' && read.ok && read.bytes.toString()).toBe(BODY);
  });

  test('a chunked body that arrived whole before the read is read by listening', async () => {
    const port = await listen();
    const chunked = expectRead('chunked', { deadlineMs: LONG_MS, waitMs: 100 });
    const client = new RawClient(port);
    clients.push(client);
    client.send(
      'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Read: chunked\r\nTransfer-Encoding: chunked\r\n\r\n' +
        '5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n',
    );
    expect((await client.response()).body).toBe('hello world');
    expect(await chunked.outcome).toMatchObject({ ok: true });
  });
});

describe('a client that leaves mid-body', () => {
  test('over HTTP/1, its read ends at once as aborted, long before the deadline', async () => {
    const port = await listen();
    const gone = expectRead('gone', { deadlineMs: LONG_MS });
    begin(port, 'gone', BODY, 5);
    await gone.started;
    clients[0]?.socket.destroy();
    expect(await within(gone.outcome, GRACE_MS)).toEqual({ ok: false, reason: 'aborted' });
  });
});
