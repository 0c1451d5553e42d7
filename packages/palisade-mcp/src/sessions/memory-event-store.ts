/**
 * The default EventStore: each session's streams in this process, bounded per stream by count and
 * bytes (oldest dropped first, the newest always kept) and per session by the number of streams
 * (the oldest ended one forgotten first). Event ids are `<stream>-<sequence>`, which says which
 * stream a `Last-Event-ID` resumes, as the transport text asks.
 */
import type { EventStore, Replay, ReplayRefusal, StoredEvent, StreamLimits } from './contracts.js';

interface Stream {
  readonly id: string;
  events: StoredEvent[];
  /** Bytes of data in `events`. */
  bytes: number;
  /** The sequence number the next event gets. */
  next: number;
  /** Events with a smaller sequence number were dropped. */
  firstKept: number;
  ended: boolean;
}

interface SessionStreams {
  /** In the order they were opened: the first ended one is the one forgotten. */
  readonly streams: Map<string, Stream>;
  nextStream: number;
}

const EVENT_ID = /^(0|[1-9][0-9]{0,14})-(0|[1-9][0-9]{0,14})$/;

export class MemoryEventStore implements EventStore {
  readonly #sessions = new Map<string, SessionStreams>();

  openStream(session: string, limits: StreamLimits): string | undefined {
    let held = this.#sessions.get(session);
    if (held === undefined) {
      held = { streams: new Map(), nextStream: 0 };
      this.#sessions.set(session, held);
    }
    if (held.streams.size >= limits.streams) {
      const oldestEnded = [...held.streams.values()].find((stream) => stream.ended);
      if (oldestEnded === undefined) return undefined;
      held.streams.delete(oldestEnded.id);
    }
    const id = String(held.nextStream);
    held.nextStream += 1;
    held.streams.set(id, { id, events: [], bytes: 0, next: 0, firstKept: 0, ended: false });
    return id;
  }

  append(session: string, stream: string, data: string, limits: StreamLimits): string | undefined {
    const kept = this.#sessions.get(session)?.streams.get(stream);
    if (kept === undefined || kept.ended) return undefined;
    const id = `${stream}-${kept.next}`;
    kept.next += 1;
    kept.events.push({ id, data });
    kept.bytes += Buffer.byteLength(data, 'utf8');
    while (kept.events.length > 1 && (kept.events.length > limits.events || kept.bytes > limits.bytes)) {
      const dropped = kept.events.shift() as StoredEvent;
      kept.bytes -= Buffer.byteLength(dropped.data, 'utf8');
      kept.firstKept += 1;
    }
    return id;
  }

  endStream(session: string, stream: string): void {
    const kept = this.#sessions.get(session)?.streams.get(stream);
    if (kept !== undefined) kept.ended = true;
  }

  replay(session: string, lastEventId: string): Replay | ReplayRefusal {
    const match = EVENT_ID.exec(lastEventId);
    if (match === null) return 'unknown';
    const [, streamId = '', sequence = ''] = match;
    const kept = this.#sessions.get(session)?.streams.get(streamId);
    const seen = Number(sequence);
    if (kept === undefined || seen >= kept.next) return 'unknown';
    // The client holds events up to `seen`: the next one it needs must still be kept.
    if (seen + 1 < kept.firstKept) return 'evicted';
    const events = kept.events.slice(seen + 1 - kept.firstKept);
    return { stream: streamId, events, ended: kept.ended };
  }

  dropSession(session: string): void {
    this.#sessions.delete(session);
  }
}
