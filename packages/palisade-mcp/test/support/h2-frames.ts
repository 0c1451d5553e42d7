/**
 * A raw HTTP/2 client for tests: it writes exact frames (RFC 9113 §4, §6) over a TCP socket and
 * parses every frame the server sends, so holds and flow control are observed frame by frame,
 * including sequences `node:http2` as a client would never send (empty DATA, a second HEADERS
 * without END_STREAM, PING-only sessions).
 *
 * HPACK (RFC 7541): requests are encoded as literal fields without indexing, new name, no Huffman.
 * Responses are decoded in full (static and dynamic table, Huffman), since nghttp2 indexes and
 * Huffman-codes what it sends.
 */
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

export const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

export const TYPE = Object.freeze({
  DATA: 0,
  HEADERS: 1,
  PRIORITY: 2,
  RST_STREAM: 3,
  SETTINGS: 4,
  PUSH_PROMISE: 5,
  PING: 6,
  GOAWAY: 7,
  WINDOW_UPDATE: 8,
  CONTINUATION: 9,
});

export const FLAG = Object.freeze({
  END_STREAM: 0x1,
  ACK: 0x1,
  END_HEADERS: 0x4,
  PADDED: 0x8,
  PRIORITY: 0x20,
});

/** SETTINGS identifiers (RFC 9113 §6.5.2). */
export const SETTING = Object.freeze({
  HEADER_TABLE_SIZE: 1,
  ENABLE_PUSH: 2,
  MAX_CONCURRENT_STREAMS: 3,
  INITIAL_WINDOW_SIZE: 4,
  MAX_FRAME_SIZE: 5,
  MAX_HEADER_LIST_SIZE: 6,
});

export const DEFAULT_WINDOW = 65_535;
export const MAX_FRAME = 16_384;

export interface Frame {
  readonly type: number;
  readonly flags: number;
  readonly streamId: number;
  readonly payload: Buffer;
  /** HEADERS (with its CONTINUATIONs): the decoded field list, in order. */
  readonly fields?: ReadonlyArray<readonly [string, string]>;
  /** `performance.now()` when the frame was parsed. */
  readonly at: number;
}

export function frame(
  type: number,
  flags: number,
  streamId: number,
  payload: Buffer = Buffer.alloc(0),
): Buffer {
  const head = Buffer.alloc(9);
  head.writeUIntBE(payload.length, 0, 3);
  head[3] = type;
  head[4] = flags;
  head.writeUInt32BE(streamId & 0x7fffffff, 5);
  return Buffer.concat([head, payload]);
}

export function settingsFrame(entries: ReadonlyArray<readonly [number, number]> = []): Buffer {
  const payload = Buffer.alloc(entries.length * 6);
  entries.forEach(([id, value], index) => {
    payload.writeUInt16BE(id, index * 6);
    payload.writeUInt32BE(value, index * 6 + 2);
  });
  return frame(TYPE.SETTINGS, 0, 0, payload);
}

export const SETTINGS_ACK = frame(TYPE.SETTINGS, FLAG.ACK, 0);

export function headersFrame(
  streamId: number,
  fields: ReadonlyArray<readonly [string, string]>,
  { endStream = false } = {},
): Buffer {
  return frame(
    TYPE.HEADERS,
    FLAG.END_HEADERS | (endStream ? FLAG.END_STREAM : 0),
    streamId,
    encodeFields(fields),
  );
}

export function dataFrame(streamId: number, bytes: Buffer, { endStream = false } = {}): Buffer {
  return frame(TYPE.DATA, endStream ? FLAG.END_STREAM : 0, streamId, bytes);
}

export function windowUpdateFrame(streamId: number, increment: number): Buffer {
  const payload = Buffer.alloc(4);
  payload.writeUInt32BE(increment, 0);
  return frame(TYPE.WINDOW_UPDATE, 0, streamId, payload);
}

export function rstStreamFrame(streamId: number, code: number): Buffer {
  const payload = Buffer.alloc(4);
  payload.writeUInt32BE(code, 0);
  return frame(TYPE.RST_STREAM, 0, streamId, payload);
}

export function pingFrame(opaque = Buffer.alloc(8), { ack = false } = {}): Buffer {
  return frame(TYPE.PING, ack ? FLAG.ACK : 0, 0, opaque);
}

/** The request fields of a JSON POST as `serve()` admits it, plus `extra`, in order. */
export function postFields(extra: ReadonlyArray<readonly [string, string]> = []): Array<[string, string]> {
  return [
    [':method', 'POST'],
    [':scheme', 'http'],
    [':path', '/mcp'],
    [':authority', '127.0.0.1'],
    ['content-type', 'application/json'],
    ['accept', 'application/json, text/event-stream'],
    ...extra.map(([name, value]): [string, string] => [name, value]),
  ];
}

// --- HPACK ---------------------------------------------------------------------------------------

function encodeInteger(value: number, prefixBits: number, firstByte: number): number[] {
  const limit = (1 << prefixBits) - 1;
  if (value < limit) return [firstByte | value];
  const out = [firstByte | limit];
  let rest = value - limit;
  while (rest >= 128) {
    out.push((rest % 128) + 128);
    rest = Math.floor(rest / 128);
  }
  out.push(rest);
  return out;
}

function encodeString(text: string): Buffer {
  const bytes = Buffer.from(text, 'latin1');
  return Buffer.concat([Buffer.from(encodeInteger(bytes.length, 7, 0)), bytes]);
}

/** Literal header fields without indexing, new name, no Huffman (RFC 7541 §6.2.2). */
export function encodeFields(fields: ReadonlyArray<readonly [string, string]>): Buffer {
  return Buffer.concat(
    fields.flatMap(([name, value]) => [Buffer.from([0]), encodeString(name), encodeString(value)]),
  );
}

const STATIC_TABLE: ReadonlyArray<readonly [string, string]> = [
  [':authority', ''],
  [':method', 'GET'],
  [':method', 'POST'],
  [':path', '/'],
  [':path', '/index.html'],
  [':scheme', 'http'],
  [':scheme', 'https'],
  [':status', '200'],
  [':status', '204'],
  [':status', '206'],
  [':status', '304'],
  [':status', '400'],
  [':status', '404'],
  [':status', '500'],
  ...(
    'accept-charset,accept-encoding,accept-language,accept-ranges,accept,access-control-allow-origin,age,' +
    'allow,authorization,cache-control,content-disposition,content-encoding,content-language,content-length,' +
    'content-location,content-range,content-type,cookie,date,etag,expect,expires,from,host,if-match,' +
    'if-modified-since,if-none-match,if-range,if-unmodified-since,last-modified,link,location,max-forwards,' +
    'proxy-authenticate,proxy-authorization,range,referer,refresh,retry-after,server,set-cookie,' +
    'strict-transport-security,transfer-encoding,user-agent,vary,via,www-authenticate'
  )
    .split(',')
    .map((name): [string, string] => [name, name === 'accept-encoding' ? 'gzip, deflate' : '']),
];

/**
 * Code lengths of the 257 symbols of RFC 7541 Appendix B. The code is canonical (codes of one
 * length are consecutive, in symbol order), so the lengths alone rebuild it.
 */
const HUFFMAN_LENGTHS = [
  13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28,
  28, 28, 28, 28, 28, 6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7,
  8, 15, 6, 12, 10, 13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19,
  13, 14, 6, 15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5, 6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13,
  28, 20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23, 24, 24, 22, 23, 24, 23, 23, 23, 23, 21,
  22, 23, 22, 23, 23, 24, 22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23, 21, 21, 22, 21, 23,
  22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23, 26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25,
  19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27, 20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25,
  25, 24, 24, 26, 23, 26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26, 30,
];

/** `${length}:${code}` → symbol. */
export const HUFFMAN_DECODE: ReadonlyMap<string, number> = (() => {
  const order = HUFFMAN_LENGTHS.map((length, symbol) => ({ length, symbol })).sort(
    (a, b) => a.length - b.length || a.symbol - b.symbol,
  );
  const table = new Map<string, number>();
  let code = 0;
  let previous = order[0]?.length ?? 0;
  for (const { length, symbol } of order) {
    code *= 2 ** (length - previous);
    previous = length;
    table.set(`${length}:${code}`, symbol);
    code += 1;
  }
  return table;
})();

function decodeHuffman(bytes: Buffer): string {
  const out: number[] = [];
  let code = 0;
  let length = 0;
  for (const byte of bytes) {
    for (let bit = 7; bit >= 0; bit -= 1) {
      code = code * 2 + ((byte >> bit) & 1);
      length += 1;
      const symbol = HUFFMAN_DECODE.get(`${length}:${code}`);
      if (symbol === undefined) continue;
      if (symbol === 256) throw new Error('HPACK: EOS in a Huffman string');
      out.push(symbol);
      code = 0;
      length = 0;
    }
  }
  // What is left is padding: at most 7 bits, all ones.
  if (length > 7 || code !== 2 ** length - 1) throw new Error('HPACK: bad Huffman padding');
  return Buffer.from(out).toString('latin1');
}

/** A response decoder: one per connection, as the dynamic table is. */
export class HpackDecoder {
  private dynamic: Array<readonly [string, string]> = [];
  private size = 0;
  private maxSize = 4_096;

  decode(block: Buffer): Array<[string, string]> {
    const fields: Array<[string, string]> = [];
    let offset = 0;
    const integer = (prefixBits: number): number => {
      const limit = (1 << prefixBits) - 1;
      let value = (block[offset] ?? 0) & limit;
      offset += 1;
      if (value < limit) return value;
      let shift = 1;
      for (;;) {
        const byte = block[offset] ?? 0;
        offset += 1;
        value += (byte & 0x7f) * shift;
        shift *= 128;
        if ((byte & 0x80) === 0) return value;
      }
    };
    const string = (): string => {
      const huffman = ((block[offset] ?? 0) & 0x80) !== 0;
      const length = integer(7);
      const bytes = block.subarray(offset, offset + length);
      offset += length;
      return huffman ? decodeHuffman(bytes) : bytes.toString('latin1');
    };
    const entry = (index: number): readonly [string, string] => {
      const found = index <= STATIC_TABLE.length ? STATIC_TABLE[index - 1] : this.dynamic[index - 62];
      if (found === undefined) throw new Error(`HPACK: no table entry ${index}`);
      return found;
    };
    while (offset < block.length) {
      const first = block[offset] ?? 0;
      if (first & 0x80) {
        const [name, value] = entry(integer(7));
        fields.push([name, value]);
      } else if (first & 0x40) {
        const index = integer(6);
        const name = index === 0 ? string() : entry(index)[0];
        const value = string();
        fields.push([name, value]);
        this.insert(name, value);
      } else if (first & 0x20) {
        this.maxSize = integer(5);
        this.evict();
      } else {
        const index = integer(4);
        const name = index === 0 ? string() : entry(index)[0];
        fields.push([name, string()]);
      }
    }
    return fields;
  }

  private insert(name: string, value: string): void {
    this.dynamic.unshift([name, value]);
    this.size += 32 + name.length + value.length;
    this.evict();
  }

  private evict(): void {
    while (this.size > this.maxSize) {
      const last = this.dynamic.pop();
      if (last === undefined) break;
      this.size -= 32 + last[0].length + last[1].length;
    }
  }
}

// --- the peer ------------------------------------------------------------------------------------

export interface H2PeerOptions {
  /** SETTINGS sent right after the preface. Default: none (all defaults). */
  readonly settings?: ReadonlyArray<readonly [number, number]>;
}

/**
 * One connection: sends the preface and SETTINGS, ACKs the server's SETTINGS, and records every
 * frame received (`frames`). It tracks the send windows the server grants (its
 * SETTINGS_INITIAL_WINDOW_SIZE plus WINDOW_UPDATEs), so `upload` can send exactly as much as
 * flow control allows and no more.
 */
export class H2Peer {
  readonly socket: Socket;
  readonly frames: Frame[] = [];
  readonly closed: Promise<void>;
  closedAt: number | undefined;
  private buffer = Buffer.alloc(0);
  private readonly decoder = new HpackDecoder();
  private pendingHeaders: { head: Frame; block: Buffer[] } | undefined;
  private waiters: Array<() => void> = [];
  private initialWindow = DEFAULT_WINDOW;
  private connectionWindow = DEFAULT_WINDOW;
  private readonly streamCredit = new Map<number, number>();
  private readonly streamSent = new Map<number, number>();

  constructor(port: number, options: H2PeerOptions = {}) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.setNoDelay(true);
    this.socket.on('error', () => {});
    this.socket.on('data', (chunk: Buffer) => this.receive(chunk));
    this.closed = new Promise((resolve) =>
      this.socket.once('close', () => {
        this.closedAt = performance.now();
        resolve();
        this.wake();
      }),
    );
    this.send(Buffer.concat([PREFACE, settingsFrame(options.settings ?? [])]));
  }

  /** Resolves once the server's first SETTINGS has arrived (and been acknowledged). */
  async ready(): Promise<void> {
    await this.waitFor((f) => f.type === TYPE.SETTINGS && (f.flags & FLAG.ACK) === 0);
  }

  send(bytes: Buffer): void {
    if (!this.socket.destroyed) this.socket.write(bytes);
  }

  get isClosed(): boolean {
    return this.closedAt !== undefined;
  }

  /** The first frame received (now or later) matching `predicate`; undefined if the socket closes first or at `timeoutMs`. */
  async waitFor(predicate: (f: Frame) => boolean, timeoutMs = 5_000): Promise<Frame | undefined> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const found = this.frames.find(predicate);
      if (found !== undefined) return found;
      if (this.isClosed || performance.now() >= deadline) return undefined;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(1, deadline - performance.now()));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Frames received on one stream, in order. */
  on(streamId: number): Frame[] {
    return this.frames.filter((f) => f.streamId === streamId);
  }

  /** Resolves once the stream has ended from the server's side (END_STREAM or RST_STREAM) or the socket closed. */
  async streamEnd(streamId: number, timeoutMs = 5_000): Promise<Frame | undefined> {
    return this.waitFor(
      (f) =>
        f.streamId === streamId &&
        (f.type === TYPE.RST_STREAM ||
          ((f.type === TYPE.DATA || f.type === TYPE.HEADERS) && (f.flags & FLAG.END_STREAM) !== 0)),
      timeoutMs,
    );
  }

  /** `:status` of each HEADERS on the stream, in order (informational 1xx included). */
  statuses(streamId: number): number[] {
    return this.on(streamId)
      .filter((f) => f.type === TYPE.HEADERS)
      .map((f) => Number(f.fields?.find(([name]) => name === ':status')?.[1]));
  }

  /** The stream's DATA payloads joined. */
  body(streamId: number): string {
    return Buffer.concat(
      this.on(streamId)
        .filter((f) => f.type === TYPE.DATA)
        .map((f) => f.payload),
    ).toString('utf8');
  }

  /** RST_STREAM error code for the stream, if one came. */
  rstCode(streamId: number): number | undefined {
    const reset = this.on(streamId).find((f) => f.type === TYPE.RST_STREAM);
    return reset?.payload.readUInt32BE(0);
  }

  /** GOAWAY error code and last-stream-id, if one came. */
  goaway(): { code: number; lastStreamId: number; at: number } | undefined {
    const away = this.frames.find((f) => f.type === TYPE.GOAWAY);
    if (away === undefined) return undefined;
    return {
      lastStreamId: away.payload.readUInt32BE(0) & 0x7fffffff,
      code: away.payload.readUInt32BE(4),
      at: away.at,
    };
  }

  /** DATA bytes the server has let this stream send so far: initial window plus its WINDOW_UPDATEs. */
  granted(streamId: number): number {
    return this.initialWindow + (this.streamCredit.get(streamId) ?? 0);
  }

  sent(streamId: number): number {
    return this.streamSent.get(streamId) ?? 0;
  }

  /**
   * Sends up to `total` DATA bytes (0x20) on the stream, never past the windows the server grants,
   * in frames of at most `frameBytes` (16,384, the largest a peer must accept, by default; several
   * small frames go out in one write). Returns the bytes sent once all are sent, the stream was
   * ended or reset by the server, or no new credit arrived for `quietMs` while blocked.
   */
  async upload(
    streamId: number,
    total: number,
    { quietMs = 300, endStream = false, frameBytes = MAX_FRAME } = {},
  ): Promise<number> {
    let quietSince = performance.now();
    for (;;) {
      const sent = this.sent(streamId);
      const ended = this.frames.some(
        (f) =>
          f.streamId === streamId &&
          (f.type === TYPE.RST_STREAM ||
            (f.type !== TYPE.WINDOW_UPDATE && (f.flags & FLAG.END_STREAM) !== 0)),
      );
      if (sent >= total || ended || this.isClosed) return sent;
      const room = Math.min(total - sent, this.granted(streamId) - sent, this.connectionWindow, MAX_FRAME);
      if (room > 0) {
        const last = sent + room === total;
        const frames: Buffer[] = [];
        for (let offset = 0; offset < room; offset += frameBytes) {
          const size = Math.min(frameBytes, room - offset);
          frames.push(
            dataFrame(streamId, Buffer.alloc(size, 0x20), {
              endStream: last && endStream && offset + size === room,
            }),
          );
        }
        this.send(Buffer.concat(frames));
        this.streamSent.set(streamId, sent + room);
        this.connectionWindow -= room;
        quietSince = performance.now();
        // Let the socket drain and the server answer between frames.
        if (this.socket.writableLength > 0) await once(this.socket, 'drain');
        else await new Promise((resolve) => setImmediate(resolve));
        continue;
      }
      if (performance.now() - quietSince >= quietMs) return sent;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  end(): void {
    this.socket.destroy();
  }

  private wake(): void {
    for (const wake of this.waiters.splice(0)) wake();
  }

  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    while (this.buffer.length >= 9) {
      const length = this.buffer.readUIntBE(0, 3);
      if (this.buffer.length < 9 + length) break;
      const type = this.buffer[3] ?? 0;
      const flags = this.buffer[4] ?? 0;
      const streamId = this.buffer.readUInt32BE(5) & 0x7fffffff;
      const payload = Buffer.from(this.buffer.subarray(9, 9 + length));
      this.buffer = this.buffer.subarray(9 + length);
      this.accept({ type, flags, streamId, payload, at: performance.now() });
    }
    this.wake();
  }

  private accept(received: Frame): void {
    if (received.type === TYPE.HEADERS || received.type === TYPE.CONTINUATION) {
      const pending = this.pendingHeaders ?? { head: received, block: [] };
      pending.block.push(received.type === TYPE.HEADERS ? headerBlock(received) : received.payload);
      if ((received.flags & FLAG.END_HEADERS) === 0) {
        this.pendingHeaders = pending;
        return;
      }
      this.pendingHeaders = undefined;
      this.frames.push({ ...pending.head, fields: this.decoder.decode(Buffer.concat(pending.block)) });
      return;
    }
    this.frames.push(received);
    if (received.type === TYPE.SETTINGS && (received.flags & FLAG.ACK) === 0) {
      for (let offset = 0; offset + 6 <= received.payload.length; offset += 6) {
        if (received.payload.readUInt16BE(offset) === SETTING.INITIAL_WINDOW_SIZE) {
          this.initialWindow = received.payload.readUInt32BE(offset + 2);
        }
      }
      this.send(SETTINGS_ACK);
    }
    if (received.type === TYPE.WINDOW_UPDATE) {
      const increment = received.payload.readUInt32BE(0) & 0x7fffffff;
      if (received.streamId === 0) this.connectionWindow += increment;
      else
        this.streamCredit.set(received.streamId, (this.streamCredit.get(received.streamId) ?? 0) + increment);
    }
  }
}

/** A HEADERS payload without its padding and priority fields. */
function headerBlock(headers: Frame): Buffer {
  let start = 0;
  let end = headers.payload.length;
  if (headers.flags & FLAG.PADDED) {
    end -= headers.payload[0] ?? 0;
    start += 1;
  }
  if (headers.flags & FLAG.PRIORITY) start += 5;
  return headers.payload.subarray(start, end);
}
