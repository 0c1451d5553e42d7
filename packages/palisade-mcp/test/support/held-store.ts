/**
 * A memory session store whose calls a test can hold, as a database's round trips are held by
 * the network: a held read answers what it read when called (so it can be stale by the time it
 * arrives), a held write lands when released (as a commit does), and a gate may fail its calls.
 * It lets the session tests order a store's answers against requests, cancels and close().
 */
import type {
  OpenRefusal,
  SessionChange,
  SessionRecord,
  SessionStore,
} from '../../src/sessions/contracts.js';
import { MemorySessionStore } from '../../src/sessions/memory-session-store.js';

export type StoreMethod = 'open' | 'update' | 'delete' | 'create' | 'size';

export class Gate {
  /** Calls that reached the gate so far. */
  calls = 0;
  #open = false;
  #failure: Error | undefined;
  readonly #passing: { resolve: () => void; reject: (cause: Error) => void }[] = [];
  readonly #arrivals: { count: number; resolve: () => void }[] = [];

  /** Resolves once `count` calls have reached the gate. */
  arrived(count = 1): Promise<void> {
    if (this.calls >= count) return Promise.resolve();
    return new Promise((resolve) => this.#arrivals.push({ count, resolve }));
  }

  /** Lets every waiting call through, and every later one. */
  release(): void {
    this.#open = true;
    for (const call of this.#passing.splice(0)) call.resolve();
  }

  /** Fails every waiting call with `failure`, and every later one. */
  fail(failure: Error): void {
    this.#failure = failure;
    for (const call of this.#passing.splice(0)) call.reject(failure);
  }

  pass(): Promise<void> {
    this.calls += 1;
    for (const arrival of [...this.#arrivals])
      if (this.calls >= arrival.count) {
        this.#arrivals.splice(this.#arrivals.indexOf(arrival), 1);
        arrival.resolve();
      }
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    if (this.#open) return Promise.resolve();
    return new Promise((resolve, reject) => this.#passing.push({ resolve, reject }));
  }
}

export class HeldStore implements SessionStore {
  /** Every change that landed, in order. */
  readonly applied: SessionChange[] = [];
  readonly #inner = new MemorySessionStore();
  readonly #gates = new Map<StoreMethod, Gate>();

  /** From now on, calls to `method` wait at the gate this returns. */
  hold(method: StoreMethod): Gate {
    const gate = new Gate();
    this.#gates.set(method, gate);
    return gate;
  }

  /** Calls to `method` go straight through again. */
  unhold(method: StoreMethod): void {
    this.#gates.delete(method);
  }

  open(
    id: string,
    principal: string,
    now: number,
    idleMs: number,
  ): SessionRecord | OpenRefusal | Promise<SessionRecord | OpenRefusal> {
    const read = this.#inner.open(id, principal, now, idleMs);
    const gate = this.#gates.get('open');
    return gate === undefined ? read : gate.pass().then(() => read);
  }

  update(id: string, change: SessionChange): void | Promise<void> {
    const land = (): void => {
      this.#inner.update(id, change);
      this.applied.push(change);
    };
    const gate = this.#gates.get('update');
    if (gate === undefined) return land();
    return gate.pass().then(land);
  }

  delete(id: string): boolean | Promise<boolean> {
    const gate = this.#gates.get('delete');
    if (gate === undefined) return this.#inner.delete(id);
    return gate.pass().then(() => this.#inner.delete(id));
  }

  create(record: SessionRecord, limit: number): boolean | Promise<boolean> {
    const gate = this.#gates.get('create');
    if (gate === undefined) return this.#inner.create(record, limit);
    return gate.pass().then(() => this.#inner.create(record, limit));
  }

  size(): number | Promise<number> {
    const gate = this.#gates.get('size');
    if (gate === undefined) return this.#inner.size();
    return gate.pass().then(() => this.#inner.size());
  }

  sweep(now: number, idleMs: number): readonly string[] {
    return this.#inner.sweep(now, idleMs);
  }
}
