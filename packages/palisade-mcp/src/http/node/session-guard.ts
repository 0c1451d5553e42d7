/**
 * The HTTP/2 connection deadline (`serve()`'s `connectionTimeoutMs`): a bound on a session that
 * no stream of its own can end.
 *
 * Every request stream is bounded by the handler's whole-body deadline (408), and an idle session
 * by `keepAliveTimeoutMs` (Node's `session.setTimeout`). Measured on Node 20 with a raw-frame
 * client (test/http/h2-holds.test.ts), what slips past both is a stream whose answer the client
 * never takes: it advertises a zero window (or never returns credit), so the response DATA stays
 * queued, the stream never closes, Node's GOAWAY on idle waits for it forever, and PINGs (whose
 * ACKs count as write progress in Node's session timeout) keep even that GOAWAY from being sent.
 * Node's idle timer also restarts on every PING or SETTINGS once anything listens for `'ping'`
 * or `'remoteSettings'` on the session; this guard does not depend on that.
 *
 * The rule. A stream is *live* while it is open and either still within its read deadline
 * (`readTimeoutMs` from its HEADERS) or still being answered (the handler has not ended the
 * response: a tool call in progress, an event stream). Once the session has gone
 * `connectionTimeoutMs` with no live stream and no stream opening or closing, it is closed:
 * GOAWAY(NO_ERROR) through `session.close()`, then, if streams are still open `GOAWAY_GRACE_MS`
 * later (answers written but never taken), `session.destroy()`. So this never closes a session
 * while a stream on it is reading its body or being answered, and every new stream restarts the
 * count (each one is bounded by its own deadline and by SETTINGS_MAX_CONCURRENT_STREAMS).
 *
 * What it costs: a session kept open only by PINGs, or by answers it does not read, is closed
 * after `connectionTimeoutMs`; a client that wants it again reconnects (GOAWAY(NO_ERROR) tells it
 * no stream was lost). Checked on a tick (a tenth of the deadline, 25 ms to 1 s), so the close
 * comes up to one tick late.
 */
import type { Http2Session, ServerHttp2Stream } from 'node:http2';
import { performance } from 'node:perf_hooks';

/** After GOAWAY, how long streams left open (answered, not taken) have before the session is destroyed, ms. */
export const GOAWAY_GRACE_MS = 1_000;

export interface SessionGuardSettings {
  readonly connectionTimeoutMs: number;
  readonly readTimeoutMs: number;
}

export function guardSession(session: Http2Session, settings: SessionGuardSettings): void {
  const opened = new Map<ServerHttp2Stream, number>();
  let lastLive = performance.now();
  const liveUntil = (stream: ServerHttp2Stream, openedAt: number, now: number): number =>
    stream.writableEnded ? Math.min(now, openedAt + settings.readTimeoutMs) : now;

  session.on('stream', (stream: ServerHttp2Stream) => {
    const openedAt = performance.now();
    opened.set(stream, openedAt);
    lastLive = openedAt;
    // A stream ending restarts the count too: its handler may end the answer just before (a
    // cancelled tool call answers its abort), and it can end only once.
    stream.once('close', () => {
      opened.delete(stream);
      lastLive = performance.now();
    });
  });

  const tick = Math.min(1_000, Math.max(25, Math.floor(settings.connectionTimeoutMs / 10)));
  const timer = setInterval(() => {
    const now = performance.now();
    for (const [stream, openedAt] of opened) lastLive = Math.max(lastLive, liveUntil(stream, openedAt, now));
    if (now - lastLive < settings.connectionTimeoutMs) return;
    clearInterval(timer);
    session.close();
    setTimeout(() => session.destroy(), GOAWAY_GRACE_MS).unref();
  }, tick);
  timer.unref();
  // Stryker disable next-line StringLiteral,ArrowFunction: a later tick closes the closed session and clears itself
  session.once('close', () => clearInterval(timer));
}
