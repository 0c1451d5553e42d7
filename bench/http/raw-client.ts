/**
 * A keep-alive HTTP/1.1 client on a raw socket: prebuilt request bytes out, one response at a
 * time back, framed by Content-Length or chunked encoding. It costs the load process far less
 * than `http.request`, so on a 2-core machine the servers, not the client, set the pace.
 */
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  readonly status: number;
  /** The status line and headers, as sent. */
  readonly head: string;
  readonly body: Buffer;
}

const HEAD_END = Buffer.from('\r\n\r\n');

export class KeepAliveConnection {
  readonly socket: Socket;
  private buffered: Buffer = Buffer.alloc(0);
  private pending: { resolve: (r: RawResponse) => void; reject: (e: Error) => void } | undefined;

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
      this.drain();
    });
    const fail = (): void => {
      const pending = this.pending;
      this.pending = undefined;
      pending?.reject(new Error('connection closed'));
    };
    socket.on('error', fail);
    socket.on('close', fail);
  }

  static async open(port: number): Promise<KeepAliveConnection> {
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    return new KeepAliveConnection(socket);
  }

  request(bytes: Buffer): Promise<RawResponse> {
    if (this.pending !== undefined) throw new Error('one request at a time');
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.socket.write(bytes);
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private drain(): void {
    if (this.pending === undefined) return;
    const parsed = parseResponse(this.buffered);
    if (parsed === undefined) return;
    this.buffered = this.buffered.subarray(parsed.end);
    const pending = this.pending;
    this.pending = undefined;
    pending.resolve(parsed.response);
  }
}

/** One complete response at the start of `bytes`, or undefined while more bytes are needed. */
function parseResponse(bytes: Buffer): { response: RawResponse; end: number } | undefined {
  const headEnd = bytes.indexOf(HEAD_END);
  if (headEnd === -1) return undefined;
  const raw = bytes.toString('latin1', 0, headEnd);
  const head = raw.toLowerCase();
  const status = Number(head.slice(9, 12));
  const bodyStart = headEnd + 4;
  const length = /\r\ncontent-length: *(\d+)/.exec(head);
  if (length !== null) {
    const end = bodyStart + Number(length[1]);
    return bytes.length < end
      ? undefined
      : { response: { status, head: raw, body: bytes.subarray(bodyStart, end) }, end };
  }
  if (!/\r\ntransfer-encoding: *chunked/.test(head)) throw new Error(`unframed response: ${head}`);
  const parts: Buffer[] = [];
  let at = bodyStart;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at);
    if (lineEnd === -1) return undefined;
    const size = Number.parseInt(bytes.toString('latin1', at, lineEnd), 16);
    const dataEnd = lineEnd + 2 + size;
    if (bytes.length < dataEnd + 2) return undefined;
    if (size === 0) return { response: { status, head: raw, body: Buffer.concat(parts) }, end: dataEnd + 2 };
    parts.push(bytes.subarray(lineEnd + 2, dataEnd));
    at = dataEnd + 2;
  }
}
