/** One HTTP/1.1 request written byte for byte over a socket, for what fetch will not send (two Authorization lines). */
import { connect } from 'node:net';

export function rawExchange(
  port: number,
  head: string,
  body: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
    });
    socket.on('error', reject);
    socket.on('close', () => resolve({ status: Number(received.split(' ')[1]), text: received }));
    socket.write(`${head}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  });
}
