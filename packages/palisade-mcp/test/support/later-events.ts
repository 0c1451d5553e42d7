/**
 * A memory event store whose every call is carried out a turn later and answered with a promise,
 * as a database's round trip is: what the session streams do while a store call is pending (the
 * steps queued behind it, in order) runs here without a database.
 */
import type { EventStore } from '../../src/sessions/contracts.js';
import { MemoryEventStore } from '../../src/sessions/memory-event-store.js';

function later<T>(call: () => T): Promise<Awaited<T>> {
  return new Promise((resolve, reject) =>
    setImmediate(() => {
      try {
        Promise.resolve(call()).then(resolve, reject);
      } catch (cause) {
        reject(cause);
      }
    }),
  );
}

export function laterEvents(inner: EventStore = new MemoryEventStore()): EventStore {
  return {
    openStream: (session, limits) => later(() => inner.openStream(session, limits)),
    append: (session, stream, data, limits) => later(() => inner.append(session, stream, data, limits)),
    endStream: (session, stream) => later(() => inner.endStream(session, stream)),
    replay: (session, lastEventId) => later(() => inner.replay(session, lastEventId)),
    dropSession: (session) => later(() => inner.dropSession(session)),
  };
}
