/**
 * Rules of the bounded reader that mutation testing found unpinned (docs/mutation-testing.md).
 * Most are about what the pre-scan does once it has seen proof that text is not JSON: it must
 * stop there and say not-json, and not read on and judge later brackets. Each document below is
 * malformed early and nests too deep after that point, so a scan that reads past its first proof
 * answers too-deep instead. The rest pin that depth counts only open containers, which
 * surrogate escapes pair, that the scan's own key comparison stays exact after arrays close and
 * in deep, wide objects, and that a named key is cut before any high surrogate.
 */
import { describe, expect, it } from 'vitest';
import { readJsonMessage, readJsonValue } from '../../src/wire/json-reader.js';
import type { ReadResult, WireRefusal } from '../../src/wire/refusal.js';

const encoder = new TextEncoder();

function refusalOf(result: ReadResult<unknown>): WireRefusal {
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result.value)}`);
  return result.refusal;
}

function admittedValue<T>(result: ReadResult<T>): T {
  if (!result.ok) throw new Error(`expected a value, got ${JSON.stringify(result.refusal)}`);
  return result.value;
}

function read(text: string): ReadResult<Record<string, unknown>> {
  return readJsonMessage(encoder.encode(text));
}

/** More `[` than the 64 levels allowed: a scan that reaches them answers too-deep. */
const TOO_DEEP_TAIL = '['.repeat(70);

const NOT_JSON = { code: -32700, rule: 'not-json', message: 'Parse error: message is not valid JSON' };
const LONE_SURROGATE = {
  code: -32600,
  rule: 'lone-surrogate',
  message: 'Invalid request: a string holds an unpaired surrogate escape',
};

describe('the scan stops at its first proof that text is not JSON', () => {
  it('a unicode escape holding the letter g is not-json even when deep nesting follows it', () => {
    expect(refusalOf(read(`["\\u00g0",${TOO_DEEP_TAIL}`))).toEqual(NOT_JSON);
  });

  it('a unicode escape holding an at sign is not-json even when deep nesting follows it', () => {
    // `@` is 0x40: with the case bit set it is 0x60, one below `a`, the nearest miss of a range test.
    expect(refusalOf(read(`["\\u00@0",${TOO_DEEP_TAIL}`))).toEqual(NOT_JSON);
  });

  it('a closing bracket with nothing open is not-json even when deep nesting follows it', () => {
    expect(refusalOf(read(`]${TOO_DEEP_TAIL}`))).toEqual(NOT_JSON);
  });

  it('a backslash outside any string is not-json even when deep nesting follows it', () => {
    expect(refusalOf(read(`\\"a"${TOO_DEEP_TAIL}`))).toEqual(NOT_JSON);
  });

  it('a string left open after an escaped quote is not-json, however deep the text before it', () => {
    // 40 levels are allowed; reading them a second time would make 80.
    expect(refusalOf(read(`${'['.repeat(40)}"\\"`))).toEqual(NOT_JSON);
  });
});

describe('depth counts only the containers still open', () => {
  it('an object holding an array of 40 empty arrays is admitted', () => {
    const list = `[${'[],'.repeat(40)}[]]`;
    expect(admittedValue(read(`{"list":${list}}`))).toEqual({ list: Array.from({ length: 41 }, () => []) });
  });
});

describe('which surrogate escapes pair', () => {
  it('a high surrogate escape followed by two characters and then low-surrogate hex is refused', () => {
    expect(refusalOf(read('{"s":"\\ud800xxdc00"}'))).toEqual(LONE_SURROGATE);
  });

  it('a high surrogate escape followed by a u without a backslash and low-surrogate hex is refused', () => {
    expect(refusalOf(read('{"s":"\\ud800Xudc00"}'))).toEqual(LONE_SURROGATE);
  });

  it('a high surrogate escape followed by an escaped backslash and low-surrogate hex is refused', () => {
    expect(refusalOf(read('{"s":"\\ud800\\\\dc00"}'))).toEqual(LONE_SURROGATE);
  });

  it('two low surrogate escapes in a row are refused', () => {
    expect(refusalOf(read('{"s":"\\udc00\\udc00"}'))).toEqual(LONE_SURROGATE);
  });

  it('a high surrogate escape followed by the escape of U+E000, just above the low range, is refused', () => {
    expect(refusalOf(read('{"s":"\\ud800\\ue000"}'))).toEqual(LONE_SURROGATE);
  });

  it('the escaped pair of the last code point, U+10FFFF, is admitted and decoded', () => {
    expect(admittedValue(read('{"s":"\\udbff\\udfff"}'))).toEqual({ s: '\u{10FFFF}' });
  });
});

describe('repeated keys found by the scan', () => {
  it('a key repeated after a closed array in the same object is refused', () => {
    expect(refusalOf(read('{"a":[1],"b":1,"b":2}'))).toEqual({
      code: -32600,
      rule: 'repeated-key',
      message: 'Invalid request: message repeats the key "b"',
    });
  });

  it('a key repeated at the bottom of 60 nested objects of nine keys each is refused', () => {
    let text = '{"a":1,"a":2}';
    for (let level = 0; level < 60; level++) {
      text = `{"k1":0,"k2":0,"k3":0,"k4":0,"k5":0,"k6":0,"k7":0,"k8":0,"n":${text}}`;
    }
    expect(refusalOf(readJsonValue(encoder.encode(text)))).toEqual({
      code: -32600,
      rule: 'repeated-key',
      message: 'Invalid request: message repeats the key "a"',
    });
  });
});

describe('a named key is cut before a high surrogate at any point of the range', () => {
  function refusalNaming(key: string): WireRefusal {
    const literal = JSON.stringify(key);
    return refusalOf(read(`{${literal}:1,${literal}:2}`));
  }

  it('a cut that would end on U+D800, the first high surrogate, keeps 31 units', () => {
    expect(refusalNaming(`${'k'.repeat(31)}\u{10000}tail`).message).toBe(
      `Invalid request: message repeats the key "${'k'.repeat(31)}"`,
    );
  });

  it('a cut that would end on U+DBFF, the last high surrogate, keeps 31 units', () => {
    expect(refusalNaming(`${'k'.repeat(31)}\u{10FFFF}tail`).message).toBe(
      `Invalid request: message repeats the key "${'k'.repeat(31)}"`,
    );
  });
});
