/**
 * Records what is asked of `Buffer.allocUnsafe`, for tests of how much memory a body reader
 * takes while real sockets deliver a body. Node's parsers hand over body chunks they allocated
 * themselves; the reader's own buffers, and nothing else on a request's path at the sizes these
 * tests watch, come from here. Read in the test's own process, with no garbage collector or other
 * test file in the figure.
 */
import { LIST, post, RawClient } from './http-peer.js';

export interface Recording {
  /** The size of every call of at least `minBytes`, in order. */
  readonly sizes: number[];
  /** Puts the allocator back; the recording keeps what it saw. */
  stop(): void;
}

export function recordAllocations(minBytes: number): Recording {
  const original = Buffer.allocUnsafe;
  const sizes: number[] = [];
  Buffer.allocUnsafe = (size: number) => {
    if (size >= minBytes) sizes.push(size);
    return original(size);
  };
  return {
    sizes,
    stop: () => {
      Buffer.allocUnsafe = original;
    },
  };
}

/** The bytes of a tools/list POST whose body is padded with JSON whitespace to `bodyBytes`. */
export function paddedListPost(bodyBytes: number): Buffer {
  return Buffer.from(post(LIST.body + ' '.repeat(bodyBytes - LIST.body.length), LIST.headers), 'latin1');
}

/**
 * Posts a padded tools/list to `port` over a raw socket, the head in one write and the body in
 * writes of `writeBytes`, and answers the reply's status with every allocation of at least
 * `minBytes` made until the reply came.
 */
export async function postInWrites(
  port: number,
  bodyBytes: number,
  writeBytes: number,
  minBytes: number,
): Promise<{ readonly status: number; readonly sizes: readonly number[] }> {
  const client = new RawClient(port);
  const bytes = paddedListPost(bodyBytes);
  const head = bytes.indexOf('\r\n\r\n') + 4;
  const recording = recordAllocations(minBytes);
  try {
    client.send(bytes.subarray(0, head));
    for (let at = head; at < bytes.length; at += writeBytes) client.send(bytes.subarray(at, at + writeBytes));
    const reply = await client.response();
    return { status: reply.status, sizes: recording.sizes };
  } finally {
    recording.stop();
    client.end();
  }
}
