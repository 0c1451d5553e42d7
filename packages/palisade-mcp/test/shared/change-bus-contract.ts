/**
 * The contract every ChangeBus passes unchanged: the in-memory default (memory-contracts.test.ts)
 * and any shared bus (palisade-mcp-postgres) in its own package's tests. The factory gives two
 * handles on one fresh bus, as two processes would hold; `interrupt`, when the implementation has
 * a connection that can be lost, cuts it so the suite can check the `lost` signal.
 */
import { describe, expect, test } from 'vitest';
import { MAX_SUBSCRIBED_URI_BYTES } from '../../src/limits.js';
import type { BusEvent, ChangeBus } from '../../src/protocol/change-bus.js';

export interface BusPair {
  readonly a: ChangeBus;
  readonly b: ChangeBus;
  /** Cuts the connection `b` listens on; it reconnects by itself. Absent: nothing to lose. */
  readonly interrupt?: () => Promise<void>;
}

async function until<T>(read: () => T | undefined, what: string, ms = 5_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const PROBE = 'probe://';

/** A probe `settled` publishes, never one of the changes a test asserts on. */
function isProbe(event: BusEvent): boolean {
  return 'change' in event && 'uri' in event.change && event.change.uri.startsWith(PROBE);
}

interface Recorder {
  /** What the bus told this subscriber, probes left out. */
  readonly events: BusEvent[];
  /** The probe URIs it heard. */
  readonly probes: Set<string>;
  readonly stop: () => void;
}

function recorder(bus: ChangeBus): Recorder {
  const events: BusEvent[] = [];
  const probes = new Set<string>();
  const stop = bus.subscribe((event) => {
    if (isProbe(event) && 'change' in event && 'uri' in event.change) probes.add(event.change.uri);
    else events.push(event);
  });
  return { events, probes, stop };
}

/**
 * Resolves once every subscription is live. A shared bus may take a round trip to start
 * listening, and what is published before that is heard by nobody: a probe is published again
 * every 500 ms until each subscriber has heard one (a late one is left out of `events`).
 */
async function settled(pair: BusPair, heard: readonly Recorder[]): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (let attempt = 0; ; attempt += 1) {
    const uri = `${PROBE}${attempt}-${Math.random()}`;
    await pair.a.publish({ kind: 'resourceUpdated', uri });
    const until = Date.now() + 500;
    while (Date.now() < until) {
      if (heard.every((one) => one.probes.size > 0)) return;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    if (Date.now() > deadline) throw new Error('timed out waiting for the probe');
  }
}

export function changeBusContract(name: string, make: () => BusPair | Promise<BusPair>): void {
  describe(`${name}: the ChangeBus contract`, () => {
    test('a change published on one handle reaches the subscribers of both, the publisher included', async () => {
      const pair = await make();
      const onA = recorder(pair.a);
      const onB = recorder(pair.b);
      await settled(pair, [onA, onB]);
      await pair.a.publish({ kind: 'toolsListChanged' });
      for (const one of [onA, onB])
        await until(() => (one.events.length > 0 ? true : undefined), 'the change');
      expect(onA.events).toEqual([{ change: { kind: 'toolsListChanged' } }]);
      expect(onB.events).toEqual([{ change: { kind: 'toolsListChanged' } }]);
    });

    test("one publisher's changes arrive in the order it sent them", async () => {
      const pair = await make();
      const onB = recorder(pair.b);
      await settled(pair, [onB]);
      const sent = Array.from({ length: 50 }, (_, n) => ({
        kind: 'resourceUpdated' as const,
        uri: `test://r/${n}`,
      }));
      for (const change of sent) await pair.a.publish(change);
      await until(() => (onB.events.length >= sent.length ? true : undefined), 'fifty changes');
      expect(onB.events).toEqual(sent.map((change) => ({ change })));
    });

    test('a URI at the subscription bound arrives byte for byte, multi-byte characters included', async () => {
      const pair = await make();
      const onB = recorder(pair.b);
      await settled(pair, [onB]);
      // 'é' is two bytes in UTF-8 and '"' escapes in JSON: the longest payload a change can have.
      const uri = `test://${'é"'.repeat(Math.floor((MAX_SUBSCRIBED_URI_BYTES - 7) / 3))}`.padEnd(
        MAX_SUBSCRIBED_URI_BYTES - Math.floor((MAX_SUBSCRIBED_URI_BYTES - 7) / 3),
        'x',
      );
      expect(Buffer.byteLength(uri, 'utf8')).toBe(MAX_SUBSCRIBED_URI_BYTES);
      await pair.a.publish({ kind: 'resourceUpdated', uri });
      await until(() => onB.events[0], 'the long change');
      expect(onB.events).toEqual([{ change: { kind: 'resourceUpdated', uri } }]);
    });

    test('a subscriber that left hears nothing more, and the others still do', async () => {
      const pair = await make();
      const gone = recorder(pair.b);
      const staying = recorder(pair.b);
      await settled(pair, [gone, staying]);
      gone.stop();
      await pair.a.publish({ kind: 'promptsListChanged' });
      await until(() => staying.events[0], 'the change');
      expect(gone.events).toEqual([]);
    });

    test('one function subscribed twice is told twice, and each undo removes one', async () => {
      const pair = await make();
      const heard: BusEvent[] = [];
      const listener = (event: BusEvent): void => {
        if (!isProbe(event)) heard.push(event);
      };
      const first = pair.b.subscribe(listener);
      pair.b.subscribe(listener);
      const probe = recorder(pair.b);
      await settled(pair, [probe]);
      heard.length = 0;
      first();
      await pair.a.publish({ kind: 'resourcesListChanged' });
      await until(() => probe.events[0], 'the change');
      expect(heard).toEqual([{ change: { kind: 'resourcesListChanged' } }]);
    });

    test('a lost connection tells its subscribers lost, and later changes arrive again', async (context) => {
      const pair = await make();
      if (pair.interrupt === undefined) {
        // In one process there is no connection to lose: nothing to check, and the suite says so.
        context.skip();
        return;
      }
      const onB = recorder(pair.b);
      await settled(pair, [onB]);
      await pair.interrupt();
      await until(() => onB.events.find((event) => 'lost' in event), 'the lost signal', 10_000);
      // Reconnected: a change published now reaches b again (published until b is back).
      const deadline = Date.now() + 15_000;
      for (;;) {
        await Promise.resolve()
          .then(() => pair.a.publish({ kind: 'toolsListChanged' }))
          .catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 100));
        if (onB.events.some((event) => 'change' in event && event.change.kind === 'toolsListChanged')) break;
        if (Date.now() > deadline) throw new Error('no change after the reconnect');
      }
    });
  });
}
