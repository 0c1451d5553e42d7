/**
 * The stdio framer (src/wire/stdio-framer.ts): bytes pushed in any split become newline-delimited
 * lines and legacy `Content-Length` frames, each a message or a refusal naming its rule. Every test
 * pushes exact bytes and compares every frame: the line bound and its edges, which lines open a
 * legacy block and what a refused block still does with its body, blank lines, and end of input.
 */
import { describe, expect, it } from 'vitest';
import { type Frame, StdioFramer } from '../../src/wire/stdio-framer.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function bytes(text: string): Uint8Array {
  return encoder.encode(text);
}

/** `count` bytes of `x`, for lines and bodies at the bound. */
function filler(count: number): Uint8Array {
  return new Uint8Array(count).fill(0x78);
}

function join(...pieces: (string | Uint8Array)[]): Uint8Array {
  const parts = pieces.map((piece) => (typeof piece === 'string' ? bytes(piece) : piece));
  const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

/** Pushes each chunk in turn, then ends the input; every frame, in order. */
function frameAll(...chunks: (string | Uint8Array)[]): Frame[] {
  const framer = new StdioFramer();
  const frames = chunks.flatMap((chunk) => framer.push(typeof chunk === 'string' ? bytes(chunk) : chunk));
  return [...frames, ...framer.end()];
}

/** A frame as plain data: message text, or the refusal's rule. */
function show(frame: Frame): string {
  return frame.kind === 'message'
    ? `${frame.framing} message ${decoder.decode(frame.bytes)}`
    : `${frame.framing} refusal ${frame.refusal.rule}`;
}

function shown(...chunks: (string | Uint8Array)[]): string[] {
  return frameAll(...chunks).map(show);
}

/** Every frame of `text` pushed as one chunk and then ended, shown as plain data. */
function shownUnder(text: string, maxMessageBytes?: number): string[] {
  const framer = new StdioFramer(maxMessageBytes === undefined ? {} : { maxMessageBytes });
  return [...framer.push(encoder.encode(text)), ...framer.end()].map(show);
}

describe('line framing', () => {
  it('frames a newline-terminated line as one line message', () => {
    expect(shown('{"id":1}\n')).toEqual(['line message {"id":1}']);
  });

  it('frames several lines of one chunk in order', () => {
    expect(shown('{"id":1}\n{"id":2}\n')).toEqual(['line message {"id":1}', 'line message {"id":2}']);
  });

  it('joins a line that arrives across chunks', () => {
    expect(shown('{"i', 'd"', ':1}', '\n')).toEqual(['line message {"id":1}']);
  });

  it('frames nothing before the newline arrives', () => {
    const framer = new StdioFramer();
    expect(framer.push(bytes('{"id":1}'))).toEqual([]);
  });

  it('trims the carriage return before the newline', () => {
    expect(shown('{"id":1}\r\n')).toEqual(['line message {"id":1}']);
  });

  it('trims only one carriage return before the newline', () => {
    expect(shown('{"id":1}\r\r\n')).toEqual(['line message {"id":1}\r']);
  });

  it('keeps a carriage return inside a line', () => {
    expect(shown('{"a":\r1}\n')).toEqual(['line message {"a":\r1}']);
  });

  it('skips empty lines, carriage-return-only lines and whitespace-only lines silently', () => {
    expect(shown('\n\r\n  \t\r\n{"id":1}\n\n')).toEqual(['line message {"id":1}']);
  });

  it('treats a line that only resembles a header as a line message', () => {
    expect(shown('Content-Length : 5\n')).toEqual(['line message Content-Length : 5']);
  });
});

describe('blank lines', () => {
  it('a line of spaces, tabs and carriage returns frames nothing', () => {
    expect(shownUnder(' \r\t\r\n{}\n')).toEqual(['line message {}']);
  });
});

describe('the line bound', () => {
  it('frames a line of exactly 1,048,576 bytes as a message', () => {
    const frames = frameAll(filler(1_048_576), '\n');
    expect(frames).toHaveLength(1);
    expect(frames[0]).toMatchObject({ kind: 'message', framing: 'line' });
    expect(frames[0]!.kind === 'message' && frames[0]!.bytes.length).toBe(1_048_576);
  });

  it('refuses a line of 1,048,577 bytes with -32600 naming the bound', () => {
    expect(frameAll(filler(1_048_577), '\n')).toEqual([
      {
        kind: 'refusal',
        framing: 'line',
        refusal: {
          code: -32600,
          rule: 'line-too-large',
          message: 'Invalid request: line exceeds 1048576 bytes',
        },
      },
    ]);
  });

  it('counts the carriage return before the newline toward the bound', () => {
    expect(shown(filler(1_048_576), '\r\n')).toEqual(['line refusal line-too-large']);
  });

  it('refuses an over-long line as soon as the byte past the bound arrives', {
    tags: ['threat-model'],
  }, () => {
    const framer = new StdioFramer();
    expect(framer.push(filler(1_048_576))).toEqual([]);
    expect(framer.push(filler(1)).map(show)).toEqual(['line refusal line-too-large']);
  });

  it('refuses an over-long line once however many chunks it spans', () => {
    const framer = new StdioFramer();
    const frames = [];
    for (let i = 0; i < 40; i++) frames.push(...framer.push(filler(65_536)));
    frames.push(...framer.push(bytes('\n')), ...framer.end());
    expect(frames.map(show)).toEqual(['line refusal line-too-large']);
  });

  it('never frames the rest of an over-long line, even when it holds a message', () => {
    expect(shown(filler(1_048_577), '{"id":1}\n{"id":2}\n')).toEqual([
      'line refusal line-too-large',
      'line message {"id":2}',
    ]);
  });

  it('frames the line after an over-long line in the same chunk', () => {
    expect(shown(join(filler(1_048_577), '\n{"id":2}\n'))).toEqual([
      'line refusal line-too-large',
      'line message {"id":2}',
    ]);
  });

  it('holds at most 1,048,576 bytes while a 64 MiB line arrives in 64 KiB chunks, refuses it once and frames the next line', {
    tags: ['threat-model'],
  }, () => {
    const framer = new StdioFramer();
    const chunk = filler(65_536);
    const frames: Frame[] = [];
    let most = 0;
    for (let i = 0; i < 1_024; i++) {
      frames.push(...framer.push(chunk));
      most = Math.max(most, framer.bufferedBytes);
    }
    frames.push(...framer.push(bytes('\n{"id":2}\n')));
    expect(most).toBeLessThanOrEqual(1_048_576);
    expect(framer.bufferedBytes).toBe(0);
    expect(frames.map(show)).toEqual(['line refusal line-too-large', 'line message {"id":2}']);
  });

  it('releases the pending bytes of an over-long line at once', () => {
    const framer = new StdioFramer();
    framer.push(filler(1_048_576));
    expect(framer.bufferedBytes).toBe(1_048_576);
    framer.push(filler(1));
    expect(framer.bufferedBytes).toBe(0);
  });
});

describe('an over-long line opens a legacy block only if the name fits in bound + 1 bytes', () => {
  // `Content-Length:` is 15 bytes. The line is refused either way; what differs is whether the
  // framer then reads header lines (a block) or goes straight back to lines.
  it('with a bound of 14 bytes, an over-long Content-Length line is refused as a block opener', () => {
    expect(shownUnder('Content-Length: 2\r\n\r\n{}', 14)).toEqual(['content-length refusal line-too-large']);
  });

  it('with a bound of 4 bytes, an over-long Content-Length line is refused as a plain line', () => {
    expect(shownUnder('Content-Length: 2\r\n\r\n{}\n', 4)).toEqual([
      'line refusal line-too-large',
      'line message {}',
    ]);
  });
});

describe('legacy Content-Length frames', () => {
  it('frames a Content-Length frame as one content-length message', () => {
    expect(shown('Content-Length: 8\r\n\r\n{"id":1}')).toEqual(['content-length message {"id":1}']);
  });

  it('matches the Content-Length name in any case', () => {
    expect(shown('cOnTeNt-LeNgTh: 8\r\n\r\n{"id":1}')).toEqual(['content-length message {"id":1}']);
  });

  it('accepts header lines ended by a bare newline', () => {
    expect(shown('Content-Length: 8\n\n{"id":1}')).toEqual(['content-length message {"id":1}']);
  });

  it('ignores other headers such as Content-Type', () => {
    expect(
      shown('Content-Length: 8\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{"id":1}'),
    ).toEqual(['content-length message {"id":1}']);
  });

  it('reads exactly the declared bytes, newlines included', () => {
    expect(shown('Content-Length: 9\r\n\r\n{"id":\n1}')).toEqual(['content-length message {"id":\n1}']);
  });

  it('frames a frame followed at once by the next frame and by a line', () => {
    expect(shown('Content-Length: 8\r\n\r\n{"id":1}Content-Length: 8\r\n\r\n{"id":2}{"id":3}\n')).toEqual([
      'content-length message {"id":1}',
      'content-length message {"id":2}',
      'line message {"id":3}',
    ]);
  });

  it('reads a frame whose every byte arrives in its own chunk', () => {
    expect(shown(...'Content-Length: 8\r\n\r\n{"id":1}'.split(''))).toEqual([
      'content-length message {"id":1}',
    ]);
  });

  it('frames a zero-length body as an empty message', () => {
    const frames = frameAll('Content-Length: 0\r\n\r\n{"id":1}\n');
    expect(frames.map(show)).toEqual(['content-length message ', 'line message {"id":1}']);
  });

  it('accepts spaces and tabs around the length', () => {
    expect(shown('Content-Length:8\r\n\r\n{"id":1}', 'Content-Length: \t8 \t\r\n\r\n{"id":2}')).toEqual([
      'content-length message {"id":1}',
      'content-length message {"id":2}',
    ]);
  });

  it('frames a declared length of exactly 1,048,576 bytes as a message', () => {
    const frames = frameAll('Content-Length: 1048576\r\n\r\n', filler(1_048_576));
    expect(frames).toHaveLength(1);
    expect(frames[0]).toMatchObject({ kind: 'message', framing: 'content-length' });
    expect(frames[0]!.kind === 'message' && frames[0]!.bytes.length).toBe(1_048_576);
  });

  it('refuses a declared length of 1,048,577 bytes by name before its body arrives', () => {
    const framer = new StdioFramer();
    expect(framer.push(bytes('Content-Length: 1048577\r\n'))).toEqual([
      {
        kind: 'refusal',
        framing: 'content-length',
        refusal: {
          code: -32600,
          rule: 'frame-too-large',
          message: 'Invalid request: frame exceeds 1048576 bytes',
        },
      },
    ]);
  });

  it('drains the body of an over-large frame unheld and unframed, then frames what follows', {
    tags: ['threat-model'],
  }, () => {
    const framer = new StdioFramer();
    const frames = framer.push(bytes('Content-Length: 2097152\r\n\r\n'));
    const body = join('{"id":1}\n', filler(65_536 - 9));
    for (let i = 0; i < 32; i++) {
      frames.push(...framer.push(body));
      expect(framer.bufferedBytes).toBe(0);
    }
    frames.push(...framer.push(bytes('{"id":2}\n')));
    expect(frames.map(show)).toEqual(['content-length refusal frame-too-large', 'line message {"id":2}']);
  });

  it('refuses a value up to Number.MAX_SAFE_INTEGER as too large, not as malformed', () => {
    expect(shown('Content-Length: 9007199254740991\r\n\r\n')).toEqual([
      'content-length refusal frame-too-large',
    ]);
  });

  it.each([
    ['a sign', '+5'],
    ['a minus sign', '-5'],
    ['hex', '0x10'],
    ['a fraction', '5.0'],
    ['an exponent', '5e0'],
    ['a leading zero', '05'],
    ['two numbers', '5 5'],
    ['nothing', ''],
    ['only spaces', '   '],
    ['a vertical tab', '\v5'],
    ['a value past Number.MAX_SAFE_INTEGER', '9007199254740992'],
    ['seventeen digits', '10000000000000000'],
  ])('refuses a Content-Length value with %s as malformed', (_, value) => {
    expect(frameAll(`Content-Length: ${value}\r\n\r\n`)).toEqual([
      {
        kind: 'refusal',
        framing: 'content-length',
        refusal: {
          code: -32600,
          rule: 'bad-frame-header',
          message: 'Invalid request: malformed Content-Length header',
        },
      },
    ]);
  });

  it('refuses a repeated Content-Length header even with the same value', { tags: ['threat-model'] }, () => {
    expect(shown('Content-Length: 8\r\ncontent-length: 8\r\n\r\n{"id":1}\n')).toEqual([
      'content-length refusal bad-frame-header',
    ]);
  });

  it('refuses a block once, at its first fault', () => {
    expect(shown('Content-Length: 1048577\r\nContent-Length: x\r\n{"id":1}\r\n{"id":2}\n')).toEqual([
      'content-length refusal frame-too-large',
      'line message {"id":2}',
    ]);
  });

  it('discards through the next newline after a malformed length, then frames lines', () => {
    expect(shown('Content-Length: 0x8\r\n\r\n{"id":1}\n{"id":2}\n')).toEqual([
      'content-length refusal bad-frame-header',
      'line message {"id":2}',
    ]);
  });

  it('reads the rest of a block with a malformed length before resyncing', () => {
    expect(shown('Content-Length: 0x8\r\nContent-Type: x\r\n\r\n{"id":1}\n{"id":2}\n')).toEqual([
      'content-length refusal bad-frame-header',
      'line message {"id":2}',
    ]);
  });

  it('refuses a line in a header block that is not a header, and frames the next line', () => {
    expect(
      frameAll('Content-Length: 8\r\n{"id":1}\r\n{"id":2}\n').map((frame) => [
        show(frame),
        frame.kind === 'refusal' && frame.refusal.message,
      ]),
    ).toEqual([
      ['content-length refusal bad-frame-header', 'Invalid request: malformed header line'],
      ['line message {"id":2}', false],
    ]);
  });

  it('refuses a whitespace-only line inside a header block', () => {
    expect(shown('Content-Length: 8\r\n \r\n\r\n{"id":2}\n')).toEqual([
      'content-length refusal bad-frame-header',
      'line message {"id":2}',
    ]);
  });

  it('accepts a block of 32 header lines', () => {
    const headers = 'X-Pad: 1\r\n'.repeat(31);
    expect(shown(`Content-Length: 8\r\n${headers}\r\n{"id":1}`)).toEqual(['content-length message {"id":1}']);
  });

  it('refuses a block of 33 header lines by name, and frames the next line', {
    tags: ['threat-model'],
  }, () => {
    const headers = 'X-Pad: 1\r\n'.repeat(32);
    expect(
      frameAll(`Content-Length: 8\r\n${headers}{"id":2}\n`).map((frame) => [
        show(frame),
        frame.kind === 'refusal' && frame.refusal.message,
      ]),
    ).toEqual([
      ['content-length refusal bad-frame-header', 'Invalid request: header block exceeds 32 lines'],
      ['line message {"id":2}', false],
    ]);
  });

  it('frames a header line of exactly 1,048,576 bytes, its carriage return included', () => {
    const header = join('X-Pad: ', filler(1_048_576 - 8), '\r\n');
    expect(shown('Content-Length: 8\r\n', header, '\r\n{"id":1}')).toEqual([
      'content-length message {"id":1}',
    ]);
  });

  it('refuses a header line past the bound once, drains the block and its declared body, and frames what follows', {
    tags: ['threat-model'],
  }, () => {
    const header = join('X-Pad: ', filler(1_048_576 - 6), '\r\n');
    expect(shown('Content-Length: 8\r\n', header, 'X-More: 1\r\n\r\n{"id":1}{"id":2}\n')).toEqual([
      'content-length refusal line-too-large',
      'line message {"id":2}',
    ]);
  });

  it('refuses an over-long first header line as a legacy frame and resyncs after its block', () => {
    const opener = join('Content-Length: 8', filler(1_048_576), '\r\n');
    expect(shown(opener, 'Content-Type: x\r\n\r\n{"id":1}\n{"id":2}\n')).toEqual([
      'content-length refusal line-too-large',
      'line message {"id":2}',
    ]);
  });
});

describe('a refused legacy block', () => {
  it('whose opener line is too long still drains the body its next Content-Length declares', () => {
    const opener = `Content-Length: ${'0'.repeat(20)}7`;
    expect(shownUnder(`${opener}\r\nContent-Length: 5\r\n\r\nab\ncd{"x":1}\n`, 20)).toEqual([
      'content-length refusal line-too-large',
      'line message {"x":1}',
    ]);
  });

  it('refused for an over-long header line frames no message, even with Content-Length 0', () => {
    expect(shownUnder(`Content-Length: 0\r\nX-Long: ${'a'.repeat(20)}\r\n\r\n{}\n`, 20)).toEqual([
      'content-length refusal line-too-large',
      'line message {}',
    ]);
  });
});

describe('a zero-length body', () => {
  it('is framed by the push whose chunk ends with its blank line, and end adds nothing', () => {
    const framer = new StdioFramer();
    expect(framer.push(encoder.encode('Content-Length: 0\r\n\r\n')).map(show)).toEqual([
      'content-length message ',
    ]);
    expect(framer.end()).toEqual([]);
  });
});

describe('end of input', () => {
  it('frames an unterminated last line as a message', () => {
    expect(shown('{"id":1}\n{"id":2}')).toEqual(['line message {"id":1}', 'line message {"id":2}']);
  });

  it('trims the carriage return of an unterminated last line', () => {
    expect(shown('{"id":1}\r')).toEqual(['line message {"id":1}']);
  });

  it('frames nothing for an unterminated blank last line', () => {
    expect(shown(' \t\r')).toEqual([]);
  });

  it('refuses input that ends inside a header block as a truncated frame', () => {
    expect(frameAll('Content-Length: 8\r\n')).toEqual([
      {
        kind: 'refusal',
        framing: 'content-length',
        refusal: {
          code: -32600,
          rule: 'truncated-frame',
          message: 'Invalid request: input ended inside a Content-Length frame',
        },
      },
    ]);
  });

  it('refuses input that ends inside an unterminated first header line as a truncated frame', () => {
    expect(shown('Content-Length: 8')).toEqual(['content-length refusal truncated-frame']);
  });

  it('refuses input that ends inside a body as a truncated frame', () => {
    expect(shown('Content-Length: 8\r\n\r\n{"id"')).toEqual(['content-length refusal truncated-frame']);
  });

  it('adds nothing at the end for an over-long line already refused', () => {
    expect(shown(filler(1_048_577))).toEqual(['line refusal line-too-large']);
  });

  it('adds nothing at the end for a frame already refused', () => {
    expect(shown('Content-Length: 1048577\r\n\r\n{"id"')).toEqual(['content-length refusal frame-too-large']);
  });

  it('frames nothing on a second end', () => {
    const framer = new StdioFramer();
    framer.push(bytes('Content-Length: 8\r\n\r\n{'));
    expect(framer.end()).toHaveLength(1);
    expect(framer.end()).toEqual([]);
  });

  it('throws when a chunk is pushed after the end', () => {
    const framer = new StdioFramer();
    framer.end();
    expect(() => framer.push(bytes('{"id":1}\n'))).toThrow(
      expect.objectContaining({ code: 'PALISADE_ERR_TRANSPORT' }),
    );
  });
});

describe('options', () => {
  it('uses maxMessageBytes as the bound of a line', () => {
    const framer = new StdioFramer({ maxMessageBytes: 4 });
    expect(framer.push(bytes('1234\n12345\n')).map(show)).toEqual([
      'line message 1234',
      'line refusal line-too-large',
    ]);
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('rejects maxMessageBytes of %s', (value) => {
    expect(() => new StdioFramer({ maxMessageBytes: value })).toThrow(
      expect.objectContaining({ code: 'PALISADE_ERR_INVALID_OPTION' }),
    );
  });
});

describe('the maxMessageBytes option at its edges', () => {
  it('a bound of one byte is accepted and frames a one-byte line', () => {
    expect(shownUnder('1\n', 1)).toEqual(['line message 1']);
  });

  it('a bound of zero is refused with a message naming the option', () => {
    expect(() => new StdioFramer({ maxMessageBytes: 0 })).toThrow(
      'option "maxMessageBytes" must be a positive integer',
    );
  });

  it('a push after end is refused with a message naming the misuse', () => {
    const framer = new StdioFramer();
    framer.end();
    expect(() => framer.push(encoder.encode('{}\n'))).toThrow('StdioFramer.push() after end()');
  });
});
