/**
 * How a change announced in one process reaches the open subscriptions of every process serving
 * the same MCP server. The hub (change-hub.ts) checks a change and hands it to the bus; the bus
 * hands it to every subscribed hub, the publisher's own included, and each hub tells its own
 * listeners. In one process the bus is a list of subscribers (MemoryChangeBus, the default); many
 * processes plug in a shared one through `notifications.bus` (palisade-mcp-postgres carries it on
 * LISTEN/NOTIFY) and prove it with the contract suite every bus runs unchanged
 * (test/protocol/change-bus-contract.ts).
 *
 * The payload is bounded before it reaches a bus: a list kind, or a URI of at most
 * MAX_SUBSCRIBED_URI_BYTES. A bus that cannot promise delivery (its connection dropped) says so
 * with `lost`: every subscription that relied on it ends, so the client lists again instead of
 * silently missing a change.
 */
import type { Change } from './change-hub.js';

/** What a bus tells a subscriber: a change, or that changes may have been missed since the last one. */
export type BusEvent = { readonly change: Change } | { readonly lost: true };

export type BusListener = (event: BusEvent) => void;

export interface ChangeBus {
  /**
   * Sends `change` to every subscriber of every process. Resolves once the change is handed over
   * (a subscriber may hear of it a little later); rejects with a PalisadeError when it could not
   * be sent, so the host knows the announcement did not happen.
   */
  publish(change: Change): void | Promise<void>;
  /** Adds a subscriber; answers the undo. Events reach it in the order one publisher sent them. */
  subscribe(listener: BusListener): () => void;
}

/** The default bus: this process's subscribers, told at once, before `publish` returns. */
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
