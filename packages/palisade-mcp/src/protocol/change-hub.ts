/**
 * Where a host's "something changed" reaches every open subscription. The host calls
 * `server.notifyListChanged(kind)` or `server.notifyResourceUpdated(uri)`; each open
 * `subscriptions/listen` stream (2026-07-28) and each initialized 2025-11-25 stdio connection is
 * a listener here and decides for itself whether the change concerns it. The hub holds no
 * message, no queue and no client data: a change that finds no listener is gone.
 */
import { PalisadeError } from '../errors.js';
import { MAX_OPEN_SUBSCRIPTIONS, MAX_SUBSCRIBED_URI_BYTES } from '../limits.js';

/** The kinds of change a host may declare it announces, named as the 2026-07-28 listen filter names them. */
export type ChangeKind = 'toolsListChanged' | 'promptsListChanged' | 'resourcesListChanged';

export type Change =
  | { readonly kind: ChangeKind }
  | { readonly kind: 'resourceUpdated'; readonly uri: string };

export type ChangeListener = (change: Change) => void;

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

export class ChangeHub {
  readonly declared: DeclaredChanges;
  readonly #listeners = new Set<ChangeListener>();

  constructor(declared: DeclaredChanges) {
    this.declared = declared;
  }

  get open(): number {
    return this.#listeners.size;
  }

  /** Adds a listener, or answers undefined when MAX_OPEN_SUBSCRIPTIONS are already open. */
  listen(listener: ChangeListener): (() => void) | undefined {
    if (this.#listeners.size >= MAX_OPEN_SUBSCRIPTIONS) return undefined;
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  publish(change: Change): void {
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
    // A copy: a listener that ends its subscription while being told must not skip another.
    for (const listener of [...this.#listeners]) listener(change);
  }
}
