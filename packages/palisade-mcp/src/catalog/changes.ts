/**
 * The changes a host announces and the bus that carries them between processes, as types: what a
 * host's `notifications.bus` must implement. The hub that checks and delivers them is
 * protocol/change-hub.ts; the in-process bus is protocol/change-bus.ts.
 */

/** The kinds of change a host may declare it announces, named as the 2026-07-28 listen filter names them. */
export type ChangeKind = 'toolsListChanged' | 'promptsListChanged' | 'resourcesListChanged';

export type Change =
  | { readonly kind: ChangeKind }
  | { readonly kind: 'resourceUpdated'; readonly uri: string };

/** What a bus tells a subscriber: a change, or that changes may have been missed since the last one. */
export type BusEvent = { readonly change: Change } | { readonly lost: true };

export type BusListener = (event: BusEvent) => void;

/**
 * How a change announced in one process reaches the open subscriptions of every process serving
 * the same MCP server. The payload is bounded before it reaches a bus: a list kind, or a URI of at
 * most MAX_SUBSCRIBED_URI_BYTES. A bus that cannot promise delivery (its connection dropped) says
 * so with `lost`: every subscription that relied on it ends or is told to list again, so the
 * client never silently misses a change. Every bus passes one contract suite unchanged
 * (test/shared/change-bus-contract.ts).
 */
export interface ChangeBus {
  /**
   * Sends `change` to every subscriber of every process. Resolves once the change is handed over
   * (a subscriber may hear of it a little later); rejects when it could not be sent, so the host
   * knows the announcement did not happen.
   */
  publish(change: Change): void | Promise<void>;
  /** Adds a subscriber; answers the undo. Events reach it in the order one publisher sent them. */
  subscribe(listener: BusListener): () => void;
  /**
   * Optional: throws an UnavailableError when a subscriber added now would not hear what is
   * published next (the bus's connection is down and reconnecting). Asked before a 2026-07-28
   * listen stream is acknowledged, which is then refused (503 over HTTP) instead.
   */
  ensureListening?(): void;
}
