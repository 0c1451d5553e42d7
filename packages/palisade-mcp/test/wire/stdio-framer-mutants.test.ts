/**
 * Framer rules mutation testing found unpinned (docs/mutation-testing.md): the edges of the
 * maxMessageBytes option, how many bytes of an over-long line decide whether it opens a legacy
 * block, what a refused block still does with its body, a zero-length body at the end of a chunk,
 * and which bytes make a line blank. Each test pushes exact bytes and compares every frame.
 */
import { describe, expect, it } from 'vitest';
import { type Frame, StdioFramer } from '../../src/wire/stdio-framer.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function show(frame: Frame): string {
  return frame.kind === 'message'
    ? `${frame.framing} message ${decoder.decode(frame.bytes)}`
    : `${frame.framing} refusal ${frame.refusal.rule}`;
}

/** Every frame of `text` pushed as one chunk and then ended, shown as plain data. */
function shown(text: string, maxMessageBytes?: number): string[] {
  const framer = new StdioFramer(maxMessageBytes === undefined ? {} : { maxMessageBytes });
  return [...framer.push(encoder.encode(text)), ...framer.end()].map(show);
}

describe('the maxMessageBytes option at its edges', () => {
  it('a bound of one byte is accepted and frames a one-byte line', () => {
    expect(shown('1\n', 1)).toEqual(['line message 1']);
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

describe('an over-long line opens a legacy block only if the name fits in bound + 1 bytes', () => {
  // `Content-Length:` is 15 bytes. The line is refused either way; what differs is whether the
  // framer then reads header lines (a block) or goes straight back to lines.
  it('with a bound of 14 bytes, an over-long Content-Length line is refused as a block opener', () => {
    expect(shown('Content-Length: 2\r\n\r\n{}', 14)).toEqual(['content-length refusal line-too-large']);
  });

  it('with a bound of 4 bytes, an over-long Content-Length line is refused as a plain line', () => {
    expect(shown('Content-Length: 2\r\n\r\n{}\n', 4)).toEqual([
      'line refusal line-too-large',
      'line message {}',
    ]);
  });
});

describe('a refused legacy block', () => {
  it('whose opener line is too long still drains the body its next Content-Length declares', () => {
    const opener = `Content-Length: ${'0'.repeat(20)}7`;
    expect(shown(`${opener}\r\nContent-Length: 5\r\n\r\nab\ncd{"x":1}\n`, 20)).toEqual([
      'content-length refusal line-too-large',
      'line message {"x":1}',
    ]);
  });

  it('refused for an over-long header line frames no message, even with Content-Length 0', () => {
    expect(shown(`Content-Length: 0\r\nX-Long: ${'a'.repeat(20)}\r\n\r\n{}\n`, 20)).toEqual([
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

describe('blank lines', () => {
  it('a line of spaces, tabs and carriage returns frames nothing', () => {
    expect(shown(' \r\t\r\n{}\n')).toEqual(['line message {}']);
  });
});
