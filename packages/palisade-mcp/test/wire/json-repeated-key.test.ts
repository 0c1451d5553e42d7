/**
 * Which key a repeated-key refusal names when the reader's own walk (src/wire/json-repeated-key.ts)
 * has to find it: a document with an escaped key, or an object of more than eight keys. A run of
 * backslashes escapes a quote only when the run is odd, and each nested container keeps its own
 * keys apart from the others'.
 */
import { describe, expect, it } from 'vitest';
import { readJsonMessage } from '../../src/wire/json-reader.js';
import { countParsedKeys, findRepeatedKey } from '../../src/wire/json-repeated-key.js';

function refusalMessage(text: string): string {
  const read = readJsonMessage(new TextEncoder().encode(text));
  if (read.ok) throw new Error(`expected a refusal, got ${JSON.stringify(read.value)}`);
  expect(read.refusal.rule).toBe('repeated-key');
  return read.refusal.message;
}

describe('a repeated key is named after keys ending in escaped backslashes', () => {
  it('after a key ending in one escaped backslash, the repeat is named', () => {
    // The text is {"a\\":1,"b":2,"b":3}: the first key is `a\`.
    expect(refusalMessage('{"a\\\\":1,"b":2,"b":3}')).toBe('Invalid request: message repeats the key "b"');
  });

  it('after a key ending in two escaped backslashes, the repeat is named', () => {
    expect(refusalMessage('{"a\\\\\\\\":1,"b":2,"b":3}')).toBe(
      'Invalid request: message repeats the key "b"',
    );
  });

  it('a key ending in an escaped backslash that repeats is named with its backslash', () => {
    expect(refusalMessage('{"x":0,"a\\\\":1,"a\\\\":2}')).toBe(
      'Invalid request: message repeats the key "a\\\\"',
    );
  });

  it('an escaped quote inside a key does not end it: the repeat of that key is named', () => {
    expect(refusalMessage('{"q\\"r":1,"q\\"r":2}')).toBe('Invalid request: message repeats the key "q\\"r"');
  });
});

describe('a repeated key is named in its own object, not confused with keys of others', () => {
  it('a key repeated in the outer object is named, not one that shares a name with a closed inner key', () => {
    expect(refusalMessage('{"e\\n":0,"inner":{"x":1},"x":2,"b":1,"b":2}')).toBe(
      'Invalid request: message repeats the key "b"',
    );
  });

  it('after an array of objects with the same keys, the repeat in the enclosing object is named', () => {
    expect(refusalMessage('{"e\\n":0,"list":[{"k":1},{"k":2}],"d":1,"d":2}')).toBe(
      'Invalid request: message repeats the key "d"',
    );
  });

  it('a string value equal to a later key is not taken for a key', () => {
    expect(refusalMessage('{"e\\n":0,"a":"b","b":1,"c":1,"c":2}')).toBe(
      'Invalid request: message repeats the key "c"',
    );
  });
});

describe('the key walks answer within their contract on any input', () => {
  it('a parsed string has no keys, though for...in would list its characters', () => {
    expect(countParsedKeys(JSON.parse('"ab"'))).toBe(0);
  });

  // findRepeatedKey is only called on text JSON.parse accepted; these guards keep the reader's
  // "never throws" promise should that ever change, so each answers undefined instead.
  it('findRepeatedKey answers undefined for a key inside an array', () => {
    expect(findRepeatedKey('["a":1]')).toBeUndefined();
  });

  it('findRepeatedKey answers undefined for a key outside any container', () => {
    expect(findRepeatedKey('"a":1')).toBeUndefined();
  });

  it('findRepeatedKey answers undefined for a string that never closes', () => {
    expect(findRepeatedKey('{"a')).toBeUndefined();
  });
});
