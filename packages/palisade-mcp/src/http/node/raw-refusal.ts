/**
 * A refusal written straight to a connection, for what Node hands over with no request or response
 * object to answer through (a request its parser refused, a CONNECT): the status line, JSON-RPC body
 * and `connection: close` any early refusal carries, published and logged like the handler's as it
 * is written. It is written only once no other answer is being written on the connection
 * (connection-turn.ts), so it never lands inside another answer or reads as the answer to an
 * earlier request; the connection is then closed.
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorResponse } from '../../wire/jsonrpc.js';
import { reportRefusal } from '../exchange-steps.js';
import type { HttpLogEvent } from '../http-options.js';
import type { HttpRefusal } from '../refusals.js';
import { afterAnswersInFlight } from './connection-turn.js';

/** Connections with a refusal decided and not yet written: Node's parser repeats its error on every read after it. */
const refusing = new WeakSet<Duplex>();

export function refuseOnSocket(
  socket: Duplex,
  refusal: HttpRefusal,
  onLog: (event: HttpLogEvent) => void,
  headers: Readonly<Record<string, string>> = {},
): void {
  if (refusing.has(socket)) return;
  refusing.add(socket);
  afterAnswersInFlight(socket, () => {
    // Not writable once an answer before it closed the connection: that answer was its last, and
    // what followed it is nobody's refusal (llhttp refuses any byte after a request that said
    // `Connection: close`, or after a body it cannot frame), so nothing is reported either.
    if (socket.writable) {
      reportRefusal(onLog, { refusal });
      const body = JSON.stringify(errorResponse(undefined, refusal.code, refusal.message));
      let head = `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\n`;
      for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
      socket.write(
        `${head}content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
          `connection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  });
}
