import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Frame, StdioFramer } from '../../src/wire/stdio-framer.js';
import { concat, split } from '../support/chunks.js';

// A small bound makes over-long lines, over-large frames and lines of exactly the bound common in
// short random streams; the rules do not depend on the bound's size. Sizes are 'max' throughout:
// fast-check's default keeps arrays near ten items, which would rarely reach even this bound.
const MAX = 64;

const encoder = new TextEncoder();
const LF = 0x0a;
const CR = 0x0d;

function bytes(text: string): Uint8Array {
  return encoder.encode(text);
}

function oneByteChunks(stream: Uint8Array): Uint8Array[] {
  return Array.from(stream, (_, i) => stream.subarray(i, i + 1));
}

/** A frame as comparable plain data. */
function show(frame: Frame): string {
  return frame.kind === 'message'
    ? `${frame.framing} message ${Buffer.from(frame.bytes).toString('hex')}`
    : `${frame.framing} refusal ${frame.refusal.rule} ${frame.refusal.message}`;
}

/** Every frame of `chunks` then end(), checking the held bytes after each push. */
function frameChunks(chunks: Uint8Array[]): string[] {
  const framer = new StdioFramer({ maxMessageBytes: MAX });
  const frames: Frame[] = [];
  for (const chunk of chunks) {
    frames.push(...framer.push(chunk));
    // A plain check, not expect(): it runs once per byte in the byte-by-byte cases.
    if (framer.bufferedBytes > MAX) throw new Error(`held ${framer.bufferedBytes} bytes, over ${MAX}`);
  }
  frames.push(...framer.end());
  return frames.map(show);
}

const OPENER = /^content-length:/i;
const latin1 = new TextDecoder('latin1');

function opensBlock(line: Uint8Array): boolean {
  return OPENER.test(latin1.decode(line.subarray(0, 15)));
}

function isBlank(line: Uint8Array): boolean {
  return line.every((byte) => byte === 0x20 || byte === 0x09 || byte === CR);
}

/** A message framed as a line: no newline, not blank, no final `\r`, not a block opener. */
const lineMessage = fc
  .uint8Array({ minLength: 1, maxLength: MAX, size: 'max' })
  .map((line) => line.map((byte) => (byte === LF ? 0x7b : byte)))
  .filter((line) => line[line.length - 1] !== CR && !isBlank(line) && !opensBlock(line));

interface Encoded {
  readonly wire: Uint8Array;
  readonly frame: string;
}

const lineFrame = fc.tuple(lineMessage, fc.boolean()).map(
  ([line, crlf]): Encoded => ({
    // The `\r` counts toward the bound, so a line of exactly the bound is ended by `\n` alone.
    wire: concat([line, bytes(crlf && line.length < MAX ? '\r\n' : '\n')]),
    frame: `line message ${Buffer.from(line).toString('hex')}`,
  }),
);

const legacyFrame = fc
  .record({
    body: fc.uint8Array({ maxLength: MAX, size: 'max' }),
    name: fc.constantFrom('Content-Length', 'content-length', 'CONTENT-LENGTH'),
    before: fc.constantFrom('', ' ', '\t', ' \t '),
    after: fc.constantFrom('', ' ', '\t'),
    eol: fc.constantFrom('\r\n', '\n'),
    others: fc.array(fc.constantFrom('Content-Type: application/vscode-jsonrpc; charset=utf-8', 'X-A: b'), {
      maxLength: 3,
    }),
  })
  .map(
    ({ body, name, before, after, eol, others }): Encoded => ({
      wire: concat([
        bytes(`${name}:${before}${body.length}${after}${eol}`),
        ...others.map((header) => bytes(`${header}${eol}`)),
        bytes(eol),
        body,
      ]),
      frame: `content-length message ${Buffer.from(body).toString('hex')}`,
    }),
  );

const blankLines = fc
  .array(fc.constantFrom('\n', '\r\n', ' \n', '\t\r\n'), { maxLength: 2 })
  .map((lines) => bytes(lines.join('')));

/** A valid stream of mixed frames, blank lines between some, and the frames it must yield. */
const validStream = fc
  .array(fc.tuple(blankLines, fc.oneof(lineFrame, legacyFrame)), { maxLength: 12, size: 'max' })
  .map((items) => ({
    stream: concat(items.flatMap(([blank, encoded]) => [blank, encoded.wire])),
    frames: items.map(([, encoded]) => encoded.frame),
  }));

const cuts = fc.array(fc.nat(), { maxLength: 20, size: 'max' });

/** Pieces that reach every state: whole and partial header blocks, lengths over and under the bound, long runs, stray bytes. */
const anyPiece = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .constantFrom(
        '\n',
        '\r',
        '\r\n',
        ' ',
        '\t',
        '{',
        '}',
        ':',
        '0',
        '7',
        'x',
        'Content-Length:',
        'Content-Type: x\r\n',
      )
      .map(bytes),
  },
  {
    weight: 4,
    arbitrary: fc
      .constantFrom(
        'Content-Length: 5\r\n\r\n',
        'content-length: 0\n\n',
        'Content-Length: 3\r\nX-A: b\r\n\r\n',
        'Content-Length: 70\r\n\r\n',
        'Content-Length: 0x1\r\n\r\n',
        'Content-Length: 2\nContent-Length: 2\n\n',
        'Content-Length: 4\r\n{"id":1}\r\n',
        'Content-Length: 6\r\n',
      )
      .map(bytes),
  },
  { weight: 2, arbitrary: fc.uint8Array({ maxLength: 8 }) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: MAX - 2, max: 3 * MAX }).map((length) => new Uint8Array(length).fill(0x78)),
  },
);

const anyStream = fc.array(anyPiece, { maxLength: 40, size: 'max' }).map(concat);

/** Garbage that cannot open a legacy block (which would rightly consume what follows it). */
const garbage = fc
  .array(
    fc.oneof(
      fc.constantFrom('\n', '\r', ' ', '{', ':', '5', 'Content-Length', 'Content-Type: x').map(bytes),
      fc.uint8Array({ maxLength: 8 }),
      fc.integer({ min: MAX - 2, max: 3 * MAX }).map((length) => new Uint8Array(length).fill(0x78)),
    ),
    { maxLength: 30, size: 'max' },
  )
  .map(concat)
  .filter((stream) => !/content-length:/i.test(latin1.decode(stream)));

describe('stdio framer properties', () => {
  it('yields exactly the frames a valid mixed stream encodes, however it is chunked', () => {
    fc.assert(
      fc.property(validStream, cuts, ({ stream, frames }, at) => {
        expect(frameChunks([stream])).toEqual(frames);
        expect(frameChunks(split(stream, at))).toEqual(frames);
        expect(frameChunks(oneByteChunks(stream))).toEqual(frames);
      }),
    );
  });

  it('yields the same frames for any byte stream whether pushed whole, cut at random or byte by byte', () => {
    fc.assert(
      fc.property(anyStream, cuts, (stream, at) => {
        const whole = frameChunks([stream]);
        expect(frameChunks(split(stream, at))).toEqual(whole);
        expect(frameChunks(oneByteChunks(stream))).toEqual(whole);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws and never holds more than the bound on random bytes', { tags: ['threat-model'] }, () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4 * MAX, size: 'max' }), cuts, (stream, at) => {
        frameChunks(split(stream, at));
      }),
      { numRuns: 300 },
    );
  });

  it('frames a good line after any garbage followed by a newline', () => {
    fc.assert(
      fc.property(garbage, cuts, lineMessage, (junk, at, line) => {
        const framer = new StdioFramer({ maxMessageBytes: MAX });
        for (const chunk of split(concat([junk, bytes('\n')]), at)) framer.push(chunk);
        expect(framer.push(concat([line, bytes('\n')])).map(show)).toEqual([
          `line message ${Buffer.from(line).toString('hex')}`,
        ]);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses an over-long line exactly once and frames none of its bytes', () => {
    const overLong = fc
      .uint8Array({ minLength: MAX + 1, maxLength: 4 * MAX, size: 'max' })
      .map((line) => line.map((byte) => (byte === LF ? 0x7b : byte)))
      .filter((line) => !opensBlock(line));
    fc.assert(
      fc.property(overLong, cuts, (line, at) => {
        const stream = concat([line, bytes('\n{"id":2}\n')]);
        expect(frameChunks(split(stream, at))).toEqual([
          'line refusal line-too-large Invalid request: line exceeds 64 bytes',
          `line message ${Buffer.from('{"id":2}').toString('hex')}`,
        ]);
      }),
    );
  });
});
