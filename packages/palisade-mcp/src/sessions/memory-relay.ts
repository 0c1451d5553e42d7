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
}

/**
 * A request of a session as a key: a number and the string of its digits are different ids, and
 * a session id holds no NUL, so no two requests share one.
 */
function cancelKey(session: string, id: RequestId): string {
  return typeof id === 'number' ? `${session}\u0000n${id}` : `${session}\u0000s${id}`;
}

export class MemoryRelay implements SessionRelay {
  readonly #sessions = new Map<string, SessionWaits>();
  /**
   * Cancel listeners of running requests, by session and id: one map for all sessions, so the
   * listener every request registers costs a set and a delete, not a session's maps built and
   * dropped per request.
   */
  readonly #cancels = new Map<string, () => void>();
  #nextId = 1;

  #of(session: string): SessionWaits {
    let waits = this.#sessions.get(session);
    if (waits === undefined) {
      waits = { waiting: new Map(), lapsed: [] };
      this.#sessions.set(session, waits);
    }
    return waits;
  }

  #release(session: string, waits: SessionWaits): void {
    if (waits.waiting.size === 0 && waits.lapsed.length === 0) this.#sessions.delete(session);
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
    const key = cancelKey(session, request);
    this.#cancels.set(key, abort);
    return () => {
      if (this.#cancels.get(key) === abort) this.#cancels.delete(key);
    };
  }

  cancel(session: string, request: RequestId): void {
    this.#cancels.get(cancelKey(session, request))?.();
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
