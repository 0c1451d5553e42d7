/**
 * The legacy `Content-Length` header line (src/wire/legacy-header.ts) is matched byte for byte,
 * case-folding letters only: folding any other byte would let a control byte stand in for the
 * name's `-` (0x0D | 0x20 is 0x2D) and open a legacy frame that a strict reader takes for a plain
 * line.
 */
import { describe, expect, it } from 'vitest';
import { parseHeaderLine } from '../../src/wire/legacy-header.js';
import { type Frame, StdioFramer } from '../../src/wire/stdio-framer.js';

function shown(text: string): string[] {
  const framer = new StdioFramer();
  const frames: Frame[] = [...framer.push(new TextEncoder().encode(text)), ...framer.end()];
  return frames.map((frame) => `${frame.framing} ${frame.kind}`);
}

describe('only letters are case-folded when matching the Content-Length name', () => {
  it('a carriage return where the hyphen belongs does not open a legacy frame', () => {
    expect(shown('Content\rLength: 2\n{}\n')).toEqual(['line message', 'line message']);
  });

  it('a control byte 0x1A where the colon belongs does not open a legacy frame', () => {
    expect(shown('Content-Length\u001a 2\n{}\n')).toEqual(['line message', 'line message']);
  });

  it('the same name with its hyphen and colon opens one', () => {
    expect(shown('Content-Length: 2\n\n{}')).toEqual(['content-length message']);
  });
});

describe('header lines inside a legacy block', () => {
  it('a header line that starts with its colon has no name and is refused as malformed', () => {
    expect(shown('Content-Length: 2\r\n: x\r\n\r\n{}')).toEqual(['content-length refusal', 'line message']);
  });

  it('a Content-Length line is classified as such, with its value', () => {
    expect(parseHeaderLine(new TextEncoder().encode('content-length: 12'))).toEqual({
      kind: 'content-length',
      length: 12,
    });
  });
});
