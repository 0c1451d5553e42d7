/**
 * Where a host's "something changed" reaches every open subscription. The host calls
 * `server.notifyListChanged(kind)` or `server.notifyResourceUpdated(uri)`; the hub checks the
 * change and hands it to its bus (change-bus.ts: this process alone by default, every process
 * serving the server with a shared bus), and each change the bus delivers reaches every listener
 * here: each open `subscriptions/listen` stream (2026-07-28), each initialized 2025-11-25 stdio
 * connection and HTTP session, which decides for itself whether the change concerns it. The hub
 * holds no message, no queue and no client data: a change that finds no listener is gone.
 */

import type { BusEvent, Change, ChangeBus } from '../catalog/changes.js';
import { PalisadeError } from '../errors.js';
import { MAX_OPEN_SUBSCRIPTIONS, MAX_SUBSCRIBED_URI_BYTES } from '../limits.js';
import { MemoryChangeBus } from './change-bus.js';

export type { Change, ChangeKind } from '../catalog/changes.js';

export type ChangeListener = (change: Change) => void;

/** Told when the bus may have missed changes: a listener that cannot re-list by itself ends. */
export type LostListener = () => void;

/** What the host declared at construction: only these are advertised, accepted and delivered. */
export interface DeclaredChanges {
  readonly toolsListChanged: boolean;
  readonly promptsListChanged: boolean;
  readonly resourcesListChanged: boolean;
  readonly resourceSubscriptions: boolean;
  readonly listenLifetimeMs: number;
}

/** A URI a subscription may name: a string of at most MAX_SUBSCRIBED_URI_BYTES in UTF-8. */
export function isSubscribableUri(uri: unknown): uri is string {
  return typeof uri === 'string' && Buffer.byteLength(uri, 'utf8') <= MAX_SUBSCRIBED_URI_BYTES;
}

interface Listening {
  readonly change: ChangeListener;
  readonly lost: LostListener | undefined;
}

export class ChangeHub {
  readonly declared: DeclaredChanges;
  readonly #bus: ChangeBus;
  readonly #listeners = new Set<Listening>();
  /** Subscribed to the bus on the first listener, so a server nobody listens to holds nothing. */
  #subscribed = false;

  constructor(declared: DeclaredChanges, bus: ChangeBus = new MemoryChangeBus()) {
    this.declared = declared;
    this.#bus = bus;
  }

  get open(): number {
    return this.#listeners.size;
  }

  /** Adds a listener, or answers undefined when MAX_OPEN_SUBSCRIPTIONS are already open. */
  listen(listener: ChangeListener, lost?: LostListener): (() => void) | undefined {
    if (this.#listeners.size >= MAX_OPEN_SUBSCRIPTIONS) return undefined;
    if (!this.#subscribed) {
      this.#subscribed = true;
      this.#bus.subscribe((event) => this.#deliver(event));
    }
    const entry: Listening = { change: listener, lost };
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  /**
   * Throws the bus's UnavailableError when a listener added now would not hear changes (a shared
   * bus whose connection is down), so a listen stream is refused rather than acknowledged deaf.
   */
  ensureListening(): void {
    this.#bus.ensureListening?.();
  }

  #deliver(event: BusEvent): void {
    // A copy: a listener that ends its subscription while being told must not skip another.
    const listeners = [...this.#listeners];
    if ('change' in event) for (const listener of listeners) listener.change(event.change);
    else for (const listener of listeners) listener.lost?.();
  }

  /**
   * Checks the change and hands it to the bus. With the default bus every listener here has been
   * told when this returns; a shared bus resolves once the change is sent, or rejects.
   */
  publish(change: Change): void | Promise<void> {
    const declared =
      change.kind === 'resourceUpdated' ? this.declared.resourceSubscriptions : this.declared[change.kind];
    if (!declared) {
      throw new PalisadeError(
        'PALISADE_ERR_UNDECLARED_CHANGE',
        `the server did not declare notifications.${change.kind === 'resourceUpdated' ? 'resourceSubscriptions' : change.kind}, so it cannot announce that change`,
      );
    }
    if (change.kind === 'resourceUpdated') {
      if (!isSubscribableUri(change.uri)) {
        throw new PalisadeError(
          'PALISADE_ERR_INVALID_ARGUMENT',
          `notifyResourceUpdated needs a URI string of at most ${MAX_SUBSCRIBED_URI_BYTES} bytes`,
        );
      }
    }
    return this.#bus.publish(change);
  }
}

/**
 * What a listener that holds a connection open (a 2025-11-25 session or stdio client) is told when
 * the bus may have missed changes: every list kind declared, and every URI it watches, as changed.
 * The client lists and reads again; a spurious notification costs a request, a missed one is wrong.
 */
export function missedChanges(declared: DeclaredChanges, watched: Iterable<string>): Change[] {
  const changes: Change[] = [];
  for (const kind of ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged'] as const)
    if (declared[kind]) changes.push({ kind });
  if (declared.resourceSubscriptions)
    for (const uri of watched) changes.push({ kind: 'resourceUpdated', uri });
  return changes;
}
