import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeHeaderValue, encodeHeaderValue } from '../../src/wire/header-value.js';

/** The sentinel of `text`'s UTF-8 bytes, spelled out here rather than by the code under test. */
function sentinelOf(text: string): string {
  return `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Printable ASCII (spaces, sentinel-like text), every code point, and any UTF-16 that has a UTF-8 form. */
const anyText = fc.oneof(
  fc.string(),
  fc
    .constantFrom('=?base64?', '?=')
    .chain((edge) => fc.string().map((middle) => `=?base64?${middle}${edge}?=`)),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }).filter((text) => !LONE_SURROGATE.test(text)),
);

describe('a header value as a client writes it', () => {
  it('plain visible ASCII goes out as it is', () => {
    expect(encodeHeaderValue('us-west-1')).toBe('us-west-1');
    expect(encodeHeaderValue('a b~!')).toBe('a b~!');
    expect(encodeHeaderValue('')).toBe('');
  });

  it.each([
    ['a leading space', ' us'],
    ['a trailing space', 'us '],
    ['a tab', 'u\ts'],
    ['a line feed', 'u\ns'],
    ['a carriage return', 'u\rs'],
    ['a NUL', 'u\0s'],
    ['DEL', 'u\x7fs'],
    ['a character past ASCII', 'Zürich'],
    ['an emoji', 'deploy 🚀'],
  ])('a value holding %s goes out as the base64 sentinel of its UTF-8 bytes', (_what, text) => {
    expect(encodeHeaderValue(text)).toBe(sentinelOf(text));
  });

  it('a literal that reads as a sentinel is itself encoded, so it is not decoded as one', () => {
    expect(encodeHeaderValue('=?base64?SGk=?=')).toBe(sentinelOf('=?base64?SGk=?='));
    // Not a sentinel by the markers' case or length: goes out as it is.
    expect(encodeHeaderValue('=?BASE64?SGk=?=')).toBe('=?BASE64?SGk=?=');
    expect(encodeHeaderValue('=?base64?=')).toBe('=?base64?=');
  });

  it('a text holding a lone surrogate, which has no UTF-8 form, has no header value', () => {
    expect(encodeHeaderValue('a\ud800b')).toBeUndefined();
    expect(encodeHeaderValue('\udc00')).toBeUndefined();
    expect(encodeHeaderValue('ok \ud83d\ude80')).toBe(sentinelOf('ok \ud83d\ude80'));
  });

  it('whatever a client writes, the server reads back the same text', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const written = encodeHeaderValue(text);
        expect(written).toMatch(/^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$|^$/);
        expect(decodeHeaderValue(written!)).toBe(text);
      }),
      { numRuns: 2_000 },
    );
  });
});
