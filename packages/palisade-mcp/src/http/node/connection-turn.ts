/**
 * One answer at a time on an HTTP/1.1 connection, in the order the requests came (RFC 9112 §9.3.2),
 * and nothing run after an answer that closes it (§9.6).
 *
 * Node's HTTP/1.1 server calls its request listener for every request it parses, at once,
 * pipelined ones included, and only holds their responses back until the one before finishes. A
 * request pipelined behind a refusal that closes the connection (or behind the client's own
 * `Connection: close`) therefore ran in full, hooks and tool, and its answer could never be sent.
 * So an exchange starts on its turn: when its response holds the socket. Node hands the socket to
 * the next response when the one before finishes without closing (the response's `'socket'`
 * event); when the connection closes first, Node destroys the waiting request, which is then
 * dropped having run nothing.
 *
 * The state is Node's own, read, never kept: `res.socket`, null while a response waits its turn
 * (HTTP/2 streams are independent: there it is always set) and no longer writable once the
 * connection was told to close, and the connection's `_httpMessage`,
 * the response holding it, which Node's own `clientError` default reads too. The one count kept
 * is how many requests wait on a connection, set only off the common path: Node keeps parsing
 * while nothing is written, so without MAX_PIPELINED_REQUESTS one slow answer would let a
 * connection queue requests without end. A request alone on its connection costs two reads.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Http2ServerResponse } from 'node:http2';
import type { Duplex } from 'node:stream';
import { MAX_PIPELINED_REQUESTS } from '../../limits.js';

/** Requests waiting their turn, per connection; only connections that have any are here. */
const waiting = new WeakMap<object, number>();

/**
 * When a request's answer may be written: `now` when its response holds a socket that can still
 * carry it (the common path: one request at a time, or HTTP/2), `wait` while the answers before it
 * are written, `never` when the socket it was handed has already been told to close: Node goes on
 * parsing what follows a closing answer in the same read and hands the next response that socket.
 */
export function turnOf(res: ServerResponse): 'now' | 'wait' | 'never' {
  // Its `socket` is a proxy made on first read, and its streams take no turns.
  if ((res as unknown) instanceof Http2ServerResponse) return 'now';
  const socket = res.socket;
  if (socket === null) return 'wait';
  return socket.writable ? 'now' : 'never';
}

/**
 * For a request whose turn is `wait`: calls `start` once every answer before it has finished, or
 * never if the connection closes first. `tooDeep` is called instead, with the connection
 * destroyed, for the request past MAX_PIPELINED_REQUESTS waiting on one connection.
 */
export function waitTurn(
  req: IncomingMessage,
  res: ServerResponse,
  start: () => void,
  tooDeep: () => void,
): void {
  const socket = req.socket;
  const count = (waiting.get(socket) ?? 0) + 1;
  if (count > MAX_PIPELINED_REQUESTS) {
    socket.destroy();
    tooDeep();
    return;
  }
  // The connection closed before this request's turn: Node has destroyed every request still waiting.
  if (req.destroyed) return;
  waiting.set(socket, count);
  const leave = (): void => {
    const left = (waiting.get(socket) ?? 1) - 1;
    if (left === 0) waiting.delete(socket);
    else waiting.set(socket, left);
    res.off('socket', onSocket);
    req.off('close', leave);
  };
  const onSocket = (): void => {
    leave();
    if (turnOf(res) === 'now') start();
  };
  res.once('socket', onSocket);
  req.once('close', leave);
}

/**
 * Calls `then` once no answer is being written on the connection: at once when none is, or when
 * the one in flight belongs to the request still arriving and has written nothing (what went wrong
 * is that request's, and this is its answer); otherwise after each answer in flight, and those
 * waiting their turn behind it, has finished. Never, if the connection closes first. Used for the
 * answers written straight to the socket (a malformed request, CONNECT), so that none lands in the
 * middle of another answer or is read as the answer to an earlier request.
 */
export function afterAnswersInFlight(socket: Duplex, then: () => void): void {
  const inFlight = Reflect.get(socket, '_httpMessage') as ServerResponse | null | undefined;
  if (inFlight === null || inFlight === undefined || (!inFlight.headersSent && !inFlight.req.complete)) {
    then();
    return;
  }
  const onClose = (): void => {
    inFlight.off('finish', onFinish);
  };
  // Node's own 'finish' listener, added before any handler ran, has moved the socket on by now.
  const onFinish = (): void => {
    socket.off('close', onClose);
    afterAnswersInFlight(socket, then);
  };
  inFlight.once('finish', onFinish);
  socket.once('close', onClose);
}
