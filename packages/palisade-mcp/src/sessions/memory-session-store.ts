/**
 * The default SessionStore: a Map in this process. Expiry is enforced on every lookup (a session
 * idle past its time is deleted when found), and `sweep` reclaims the ones nobody asks for.
 */
import type { OpenRefusal, SessionChange, SessionRecord, SessionStore } from './contracts.js';

/**
 * `record` last seen at `now`, written member by member: this runs on every request of a session,
 * and spreading a frozen object costs several times what a literal does.
 */
function seenAt(record: SessionRecord, now: number): SessionRecord {
  const seen: SessionRecord = {
    id: record.id,
    principal: record.principal,
    revision: record.revision,
    clientCapabilities: record.clientCapabilities,
    initialized: record.initialized,
    subscriptions: record.subscriptions,
    lastSeen: now,
  };
  return Object.freeze(record.logLevel === undefined ? seen : { ...seen, logLevel: record.logLevel });
}

export class MemorySessionStore implements SessionStore {
  readonly #sessions = new Map<string, SessionRecord>();

  create(record: SessionRecord, limit: number): boolean {
    if (this.#sessions.size >= limit || this.#sessions.has(record.id)) return false;
    this.#sessions.set(record.id, Object.freeze({ ...record }));
    return true;
  }

  open(id: string, principal: string, now: number, idleMs: number): SessionRecord | OpenRefusal {
    const record = this.#sessions.get(id);
    if (record === undefined) return 'unknown';
    if (now - record.lastSeen >= idleMs) {
      this.#sessions.delete(id);
      return 'unknown';
    }
    if (record.principal !== principal) return 'other-principal';
    if (now <= record.lastSeen) return record;
    // A record is replaced rather than changed: a caller holding the previous one keeps a value.
    const seen = seenAt(record, now);
    this.#sessions.set(id, seen);
    return seen;
  }

  update(id: string, change: SessionChange): void {
    const record = this.#sessions.get(id);
    if (record === undefined) return;
    this.#sessions.set(id, Object.freeze({ ...record, ...change }));
  }

  delete(id: string): boolean {
    return this.#sessions.delete(id);
  }

  sweep(now: number, idleMs: number): readonly string[] {
    const ended: string[] = [];
    for (const [id, record] of this.#sessions) {
      if (now - record.lastSeen >= idleMs) {
        this.#sessions.delete(id);
        ended.push(id);
      }
    }
    return ended;
  }

  size(): number {
    return this.#sessions.size;
  }
}
