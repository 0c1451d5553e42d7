/**
 * The default SessionRelay: waits and cancels held in this process, keyed by session and id, so a
 * reply or cancel names a request of its own session or nothing. A wait ends at its deadline with
 * `lapsed` (one timer per wait, unref'd); its id is then remembered (MAX_LAPSED_REPLY_IDS per
 * session, oldest forgotten) so a reply arriving late is told apart from one nobody asked for.
 */
import { MAX_LAPSED_REPLY_IDS } from '../limits.js';
import type { RequestId } from '../wire/jsonrpc.js';
import type { ClientReply, Delivery, PendingReply, SessionRelay, WaitEnd } from './contracts.js';

interface Waiting {
  readonly settle: (outcome: ClientReply | WaitEnd) => void;
  readonly timer: NodeJS.Timeout;
}

interface SessionWaits {
  readonly waiting: Map<RequestId, Waiting>;
  /** Ids whose wait lapsed or was cancelled, oldest first. */
  readonly lapsed: RequestId[];
  readonly cancels: Map<string, () => void>;
}

/** A client's request id as a key: a number and the string of its digits are different ids. */
function idKey(id: RequestId): string {
  return typeof id === 'number' ? `n${id}` : `s${id}`;
}

export class MemoryRelay implements SessionRelay {
  readonly #sessions = new Map<string, SessionWaits>();
  #nextId = 1;

  #of(session: string): SessionWaits {
    let waits = this.#sessions.get(session);
    if (waits === undefined) {
      waits = { waiting: new Map(), lapsed: [], cancels: new Map() };
      this.#sessions.set(session, waits);
    }
    return waits;
  }

  #release(session: string, waits: SessionWaits): void {
    if (waits.waiting.size === 0 && waits.lapsed.length === 0 && waits.cancels.size === 0)
      this.#sessions.delete(session);
  }

  #lapse(session: string, waits: SessionWaits, id: RequestId): void {
    waits.lapsed.push(id);
    if (waits.lapsed.length > MAX_LAPSED_REPLY_IDS) waits.lapsed.shift();
    this.#sessions.set(session, waits);
  }

  wait(session: string, deadline: number): PendingReply {
    const waits = this.#of(session);
    const id = this.#nextId;
    this.#nextId += 1;
    let settle!: (outcome: ClientReply | WaitEnd) => void;
    const reply = new Promise<ClientReply | WaitEnd>((resolve) => {
      settle = resolve;
    });
    const end = (outcome: ClientReply | WaitEnd): void => {
      const entry = waits.waiting.get(id);
      if (entry === undefined) return;
      clearTimeout(entry.timer);
      waits.waiting.delete(id);
      if (outcome === 'lapsed') this.#lapse(session, waits, id);
      else this.#release(session, waits);
      entry.settle(outcome);
    };
    const timer = setTimeout(() => end('lapsed'), Math.max(0, deadline - Date.now()));
    timer.unref();
    waits.waiting.set(id, { settle: (outcome) => settle(outcome), timer });
    return { id, reply, cancel: () => end('lapsed') };
  }

  deliver(session: string, reply: ClientReply): Delivery {
    const waits = this.#sessions.get(session);
    if (waits === undefined) return 'unknown';
    const entry = waits.waiting.get(reply.id);
    if (entry === undefined) return waits.lapsed.includes(reply.id) ? 'late' : 'unknown';
    clearTimeout(entry.timer);
    waits.waiting.delete(reply.id);
    this.#release(session, waits);
    entry.settle(reply);
    return 'delivered';
  }

  onCancel(session: string, request: RequestId, abort: () => void): () => void {
    const waits = this.#of(session);
    const key = idKey(request);
    waits.cancels.set(key, abort);
    return () => {
      if (waits.cancels.get(key) !== abort) return;
      waits.cancels.delete(key);
      this.#release(session, waits);
    };
  }

  cancel(session: string, request: RequestId): void {
    this.#sessions.get(session)?.cancels.get(idKey(request))?.();
  }

  endSession(session: string): void {
    const waits = this.#sessions.get(session);
    if (waits === undefined) return;
    this.#sessions.delete(session);
    for (const entry of waits.waiting.values()) {
      clearTimeout(entry.timer);
      entry.settle('ended');
    }
    waits.waiting.clear();
  }
}
