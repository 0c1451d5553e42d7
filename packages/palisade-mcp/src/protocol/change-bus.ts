/**
 * The default ChangeBus (catalog/changes.ts): this process's subscribers, told at once, before
 * `publish` returns. The hub (change-hub.ts) checks a change and hands it to its bus; a shared bus
 * (palisade-mcp-postgres, on LISTEN/NOTIFY) plugs in through `notifications.bus` instead and
 * passes the same contract suite (test/shared/change-bus-contract.ts).
 */
import type { BusListener, Change, ChangeBus } from '../catalog/changes.js';

export type { BusEvent, BusListener, ChangeBus } from '../catalog/changes.js';

export class MemoryChangeBus implements ChangeBus {
  readonly #listeners = new Set<BusListener>();

  publish(change: Change): void {
    // A copy: a subscriber that leaves while being told must not make another miss the change.
    for (const listener of [...this.#listeners]) listener({ change });
  }

  subscribe(listener: BusListener): () => void {
    // Wrapped, so one listener function subscribed twice is two subscriptions.
    const own: BusListener = (event) => listener(event);
    this.#listeners.add(own);
    return () => {
      this.#listeners.delete(own);
    };
  }
}
