/**
 * The bounded JSON reader (src/wire/json-reader.ts), byte for byte: each check in its order (size,
 * UTF-8, the pre-scan's emptiness and depth, the parse, surrogate escapes, repeated keys, the
 * message's shape) answers its own refusal with its code, rule and message, and a document
 * malformed early is judged by its first proof, never by what follows it. Nothing of the input
 * reaches a refusal but a repeated key's name, bounded and escaped.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  readJsonDocument,
  readJsonMessage,
  readJsonValue,
  repeatedKeyOf,
} from '../../src/wire/json-reader.js';
import type { ReadResult, WireRefusal } from '../../src/wire/refusal.js';

const encoder = new TextEncoder();

function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

function concat(...parts: (Uint8Array | number[])[]): Uint8Array {
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function refusalOf(result: ReadResult<unknown>): WireRefusal {
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result.value)}`);
  return result.refusal;
}

function admittedValue<T>(result: ReadResult<T>): T {
  if (!result.ok) throw new Error(`expected a value, got ${JSON.stringify(result.refusal)}`);
  return result.value;
}

/** An object message padded with one ASCII string to exactly `size` bytes. */
function messageOfSize(size: number): Uint8Array {
  const shell = '{"pad":""}';
  return utf8(`{"pad":"${'x'.repeat(size - shell.length)}"}`);
}

const TOO_LARGE = {
  code: -32600,
  rule: 'too-large',
  message: 'Invalid request: message exceeds 1048576 bytes',
};
const EMPTY = { code: -32700, rule: 'empty', message: 'Parse error: empty message' };
const NOT_JSON = { code: -32700, rule: 'not-json', message: 'Parse error: message is not valid JSON' };
const INVALID_UTF8 = {
  code: -32700,
  rule: 'invalid-utf8',
  message: 'Parse error: message is not valid UTF-8',
};
const LONE_SURROGATE = {
  code: -32600,
  rule: 'lone-surrogate',
  message: 'Invalid request: a string holds an unpaired surrogate escape',
};
const TOO_DEEP = {
  code: -32600,
  rule: 'too-deep',
  message: 'Invalid request: message nests deeper than 64 levels',
};
const BATCH = {
  code: -32600,
  rule: 'batch',
  message: 'Invalid request: batch (array) messages are not supported',
};

function repeats(renderedKey: string): WireRefusal {
  return {
    code: -32600,
    rule: 'repeated-key',
    message: `Invalid request: message repeats the key ${renderedKey}`,
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

function read(text: string): ReadResult<Record<string, unknown>> {
  return readJsonMessage(encoder.encode(text));
}

/** More `[` than the 64 levels allowed: a scan that reaches them answers too-deep. */
const TOO_DEEP_TAIL = '['.repeat(70);

describe('size', () => {
  it('a message of exactly 1,048,576 bytes is admitted', () => {
    const bytes = messageOfSize(1_048_576);
    expect(bytes.length).toBe(1_048_576);
    expect(admittedValue(readJsonMessage(bytes))).toEqual({ pad: 'x'.repeat(1_048_576 - 10) });
  });

  it('a message of exactly 1,048,576 bytes of multi-byte text is admitted', () => {
    // 'é' is two bytes: 524,283 of them plus the 10-byte shell make 1,048,576.
    const bytes = utf8(`{"pad":"${'é'.repeat(524_283)}"}`);
    expect(bytes.length).toBe(1_048_576);
    expect(readJsonMessage(bytes).ok).toBe(true);
  });

  it('a message of 1,048,577 bytes is refused as too-large', () => {
    expect(refusalOf(readJsonMessage(messageOfSize(1_048_577)))).toEqual(TOO_LARGE);
  });

  it('size is judged before UTF-8: 1,048,577 bytes of 0xFF are too-large', () => {
    expect(refusalOf(readJsonMessage(new Uint8Array(1_048_577).fill(0xff)))).toEqual(TOO_LARGE);
  });

  it('size is judged before depth: 1,048,577 bytes of [ are too-large and never parsed', () => {
    const parse = vi.spyOn(JSON, 'parse');
    expect(refusalOf(readJsonMessage(new Uint8Array(1_048_577).fill(0x5b)))).toEqual(TOO_LARGE);
    expect(parse).not.toHaveBeenCalled();
  });
});

describe('empty input', () => {
  it('zero bytes are refused as empty', () => {
    expect(refusalOf(readJsonMessage(new Uint8Array(0)))).toEqual(EMPTY);
  });

  it('only JSON whitespace (space, tab, CR, LF) is refused as empty', () => {
    expect(refusalOf(readJsonMessage(utf8(' \t\r\n  \n')))).toEqual(EMPTY);
  });

  it('whitespace JSON does not define (form feed, no-break space, vertical tab) is not-json', () => {
    for (const text of ['\f', '\u00a0', '\v', '\u2028', ' \f{}']) {
      expect(refusalOf(readJsonMessage(utf8(text)))).toEqual(NOT_JSON);
    }
  });

  it('a view of a detached buffer is refused as empty instead of throwing', () => {
    const buffer = new ArrayBuffer(8);
    const view = new Uint8Array(buffer);
    view.set(utf8('{"a":1}'));
    structuredClone(buffer, { transfer: [buffer] });
    expect(view.length).toBe(0);
    expect(refusalOf(readJsonMessage(view))).toEqual(EMPTY);
  });
});

describe('not JSON', () => {
  it.each([
    ['{'],
    ['}'],
    ['{"a":}'],
    ['{"a":1,}'],
    ["{'a':1}"],
    ['{a:1}'],
    ['{"a":1}x'],
    ['{"a":1}{"b":2}'],
    ['{"a" 1}'],
    ['"unterminated'],
    ['{"a":"unterminated}'],
    ['{"a":"\\x"}'],
    ['{"a":"\\u12"}'],
    ['{"a":"\\uZZZZ"}'],
    ['{"a":"tab\tinside"}'],
    ['NaN'],
    ['undefined'],
    ['01'],
    ['{"a":1]'],
    ['[1,2}'],
    ['{"a":1}\\'],
  ])('%j is refused as not-json with the fixed message', (text) => {
    expect(refusalOf(readJsonMessage(utf8(text)))).toEqual(NOT_JSON);
  });

  it('JSON whitespace before and after the value is admitted', () => {
    expect(admittedValue(readJsonMessage(utf8(' \r\n\t{"a":1}\r\n ')))).toEqual({ a: 1 });
  });

  it('a NUL byte after the value is refused as not-json', () => {
    expect(refusalOf(readJsonMessage(concat(utf8('{"a":1}'), [0x00])))).toEqual(NOT_JSON);
  });

  it('input that ends inside a string, an object or an escape is refused as not-json', () => {
    for (const text of ['{"a":"b', '{"a":"b\\', '{"a":"\\u00', '{"a":[1,2', '{"a":1,"b"']) {
      expect(refusalOf(readJsonMessage(utf8(text)))).toEqual(NOT_JSON);
    }
  });

  it('the refusal does not carry V8’s parse error, which quotes the input', {
    tags: ['threat-model'],
  }, () => {
    const refusal = refusalOf(readJsonMessage(utf8('{"a": tru, "secret": "hunter2"}')));
    expect(refusal).toEqual(NOT_JSON);
    expect(refusal.message).not.toMatch(/Unexpected|position|tru|hunter2/);
  });

  it('a UTF-8 byte order mark is refused as not-json, not stripped', { tags: ['threat-model'] }, () => {
    expect(refusalOf(readJsonMessage(concat([0xef, 0xbb, 0xbf], utf8('{"a":1}'))))).toEqual(NOT_JSON);
  });

  it('a byte order mark on a message of 4 KiB or more is refused as not-json too', () => {
    const body = messageOfSize(8_192);
    expect(refusalOf(readJsonMessage(concat([0xef, 0xbb, 0xbf], body)))).toEqual(NOT_JSON);
  });
});

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

describe('UTF-8', () => {
  const invalid: [string, number[]][] = [
    ['an overlong two-byte slash (C0 AF)', [0xc0, 0xaf]],
    ['an overlong three-byte slash (E0 80 AF)', [0xe0, 0x80, 0xaf]],
    ['an overlong four-byte form (F0 80 80 80)', [0xf0, 0x80, 0x80, 0x80]],
    ['an encoded high surrogate (ED A0 80)', [0xed, 0xa0, 0x80]],
    ['an encoded low surrogate (ED B0 80)', [0xed, 0xb0, 0x80]],
    ['a truncated three-byte sequence (E2 82)', [0xe2, 0x82]],
    ['a lone continuation byte (80)', [0x80]],
    ['a code point above U+10FFFF (F4 90 80 80)', [0xf4, 0x90, 0x80, 0x80]],
    ['a byte that never occurs in UTF-8 (FF)', [0xff]],
  ];

  it.each(invalid)('%s inside a string is refused as invalid-utf8', (_name, sequence) => {
    const bytes = concat(utf8('{"a":"'), sequence, utf8('"}'));
    expect(refusalOf(readJsonMessage(bytes))).toEqual(INVALID_UTF8);
  });

  it.each(invalid)('%s in a message of 4 KiB or more is refused as invalid-utf8', (_name, sequence) => {
    const bytes = concat(utf8(`{"pad":"${'x'.repeat(8_192)}","a":"`), sequence, utf8('"}'));
    expect(refusalOf(readJsonMessage(bytes))).toEqual(INVALID_UTF8);
  });

  it('a truncated sequence at the very end of the input is refused as invalid-utf8', {
    tags: ['threat-model'],
  }, () => {
    expect(refusalOf(readJsonMessage(concat(utf8('{"a":1}'), [0xf0, 0x9f, 0x98])))).toEqual(INVALID_UTF8);
  });

  it('two-, three- and four-byte characters are admitted and decoded', () => {
    expect(admittedValue(readJsonMessage(utf8('{"é":"€ 😀 中"}')))).toEqual({ é: '€ 😀 中' });
  });
});

describe('surrogate escapes', () => {
  it.each([
    ['a lone high surrogate', '{"a":"\\ud800"}'],
    ['a lone low surrogate', '{"a":"\\udc00"}'],
    ['a lone high surrogate in upper case', '{"a":"\\uD800"}'],
    ['a lone surrogate in a key', '{"\\ud800":1}'],
    ['a high surrogate followed by a non-surrogate escape', '{"a":"\\ud800\\u0041"}'],
    ['a high surrogate followed by a plain character', '{"a":"\\ud800x"}'],
    ['a high surrogate followed by another high surrogate', '{"a":"\\ud800\\ud800"}'],
    ['a low surrogate before a high one', '{"a":"\\ude00\\ud83d"}'],
    ['a lone surrogate after an escaped backslash', '{"a":"\\\\\\ud800"}'],
    ['a lone surrogate deep in an array', '{"a":[1,[2,["\\udfff"]]]}'],
  ])('%s is refused as lone-surrogate', (_name, text) => {
    expect(refusalOf(readJsonMessage(utf8(text)))).toEqual(LONE_SURROGATE);
  });

  it('an escaped surrogate pair is admitted and decoded', { tags: ['threat-model'] }, () => {
    expect(admittedValue(readJsonMessage(utf8('{"a":"\\ud83d\\ude00","\\uD83D\\uDE00":1}')))).toEqual({
      a: '😀',
      '😀': 1,
    });
  });

  it('an escaped backslash followed by the text ud800 is not an escape and is admitted', () => {
    expect(admittedValue(readJsonMessage(utf8('{"a":"\\\\ud800"}')))).toEqual({ a: '\\ud800' });
  });

  it('a malformed document that also holds a lone surrogate is refused as not-json', () => {
    expect(refusalOf(readJsonMessage(utf8('{"a":"\\ud800",}')))).toEqual(NOT_JSON);
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

/** `levels` arrays, nested, inside an object: the message nests `levels + 1` deep. */
function arraysInObject(levels: number): Uint8Array {
  return utf8(`{"a":${'['.repeat(levels)}${']'.repeat(levels)}}`);
}

/** `levels` objects, nested: `{"a":{"a":...{}}}`. */
function objects(levels: number): Uint8Array {
  return utf8(`${'{"a":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`);
}

/** `levels` containers alternating object and array, outermost an object. */
function mixed(levels: number): Uint8Array {
  let text = levels % 2 === 1 ? '{}' : '[]';
  for (let level = levels - 1; level >= 1; level--) {
    text = level % 2 === 1 ? `{"k":${text}}` : `[${text}]`;
  }
  return utf8(text);
}

describe('depth', () => {
  it('64 levels of arrays are admitted (readJsonValue)', () => {
    expect(readJsonValue(utf8(`${'['.repeat(64)}${']'.repeat(64)}`)).ok).toBe(true);
  });

  it('65 levels of arrays are refused as too-deep (readJsonValue)', () => {
    expect(refusalOf(readJsonValue(utf8(`${'['.repeat(65)}${']'.repeat(65)}`)))).toEqual(TOO_DEEP);
  });

  it('an object holding 63 nested arrays (64 levels) is admitted', () => {
    expect(readJsonMessage(arraysInObject(63)).ok).toBe(true);
  });

  it('an object holding 64 nested arrays (65 levels) is refused as too-deep', () => {
    expect(refusalOf(readJsonMessage(arraysInObject(64)))).toEqual(TOO_DEEP);
  });

  it('64 levels of objects are admitted', { tags: ['threat-model'] }, () => {
    expect(readJsonMessage(objects(64)).ok).toBe(true);
  });

  it('65 levels of objects are refused as too-deep', { tags: ['threat-model'] }, () => {
    expect(refusalOf(readJsonMessage(objects(65)))).toEqual(TOO_DEEP);
  });

  it('64 levels alternating objects and arrays are admitted', () => {
    expect(readJsonMessage(mixed(64)).ok).toBe(true);
  });

  it('65 levels alternating objects and arrays are refused as too-deep', () => {
    expect(refusalOf(readJsonMessage(mixed(65)))).toEqual(TOO_DEEP);
  });

  it('{"a":[{}]} counts as three levels', () => {
    // Inside 61 arrays it reaches 64 levels; inside 62 it reaches 65.
    const at = (arrays: number) => utf8(`${'['.repeat(arrays)}{"a":[{}]}${']'.repeat(arrays)}`);
    expect(readJsonValue(at(61)).ok).toBe(true);
    expect(refusalOf(readJsonValue(at(62)))).toEqual(TOO_DEEP);
  });

  it('brackets inside strings and keys do not count', { tags: ['threat-model'] }, () => {
    const brackets = '[{'.repeat(70);
    expect(admittedValue(readJsonMessage(utf8(`{"${brackets}":"${brackets}"}`)))).toEqual({
      [brackets]: brackets,
    });
  });

  it('brackets after an escaped quote inside a string do not count', () => {
    const text = `{"a":"\\"${'['.repeat(70)}\\""}`;
    expect(admittedValue(readJsonMessage(utf8(text)))).toEqual({ a: `"${'['.repeat(70)}"` });
  });

  it('brackets after a string that ends in an escaped backslash do count', () => {
    // The string is `x\`; its closing quote is real, so the 64 arrays after it are structure.
    const text = `{"s":"x\\\\","a":${'['.repeat(64)}${']'.repeat(64)}}`;
    expect(refusalOf(readJsonMessage(utf8(text)))).toEqual(TOO_DEEP);
  });

  it('the worst 1 MiB body, 524,288 nested [, is refused before JSON.parse runs', {
    tags: ['threat-model'],
  }, () => {
    const parse = vi.spyOn(JSON, 'parse');
    const bytes = utf8(`${'['.repeat(524_288)}${']'.repeat(524_288)}`);
    expect(bytes.length).toBe(1_048_576);
    expect(refusalOf(readJsonMessage(bytes))).toEqual(TOO_DEEP);
    expect(parse).not.toHaveBeenCalled();
  });

  it('depth is judged before syntax: 65 unclosed [ are too-deep', () => {
    expect(refusalOf(readJsonMessage(utf8('['.repeat(65))))).toEqual(TOO_DEEP);
  });
});

describe('depth counts only the containers still open', () => {
  it('an object holding an array of 40 empty arrays is admitted', () => {
    const list = `[${'[],'.repeat(40)}[]]`;
    expect(admittedValue(read(`{"list":${list}}`))).toEqual({ list: Array.from({ length: 41 }, () => []) });
  });
});

describe('repeated keys', () => {
  it('a key repeated at the top level is refused and named', () => {
    expect(refusalOf(readJsonMessage(utf8('{"a":1,"a":2}')))).toEqual(repeats('"a"'));
  });

  it('keys are compared after unescaping', { tags: ['threat-model'] }, () => {
    expect(refusalOf(readJsonMessage(utf8('{"a":1,"\\u0061":2}')))).toEqual(repeats('"a"'));
  });

  it('a key repeated in a nested object is refused', () => {
    expect(refusalOf(readJsonMessage(utf8('{"x":{"k":1,"k":2}}')))).toEqual(repeats('"k"'));
  });

  it('a key repeated in an object inside an array is refused', () => {
    expect(refusalOf(readJsonMessage(utf8('{"l":[{"a":1},{"a":2,"a":3}]}')))).toEqual(repeats('"a"'));
  });

  it('a key repeated in the innermost of 64 levels is refused', { tags: ['threat-model'] }, () => {
    const text = `${'{"a":'.repeat(63)}{"z":1,"z":2}${'}'.repeat(63)}`;
    expect(refusalOf(readJsonMessage(utf8(text)))).toEqual(repeats('"z"'));
  });

  it('a key repeated with whitespace around its colon is refused', () => {
    expect(refusalOf(readJsonMessage(utf8('{ "a" : 1 ,\n "a"\t:\r\n2 }')))).toEqual(repeats('"a"'));
  });

  it('equal keys in different objects are admitted', { tags: ['threat-model'] }, () => {
    expect(admittedValue(readJsonMessage(utf8('{"a":{"a":1}}')))).toEqual({ a: { a: 1 } });
    expect(admittedValue(readJsonMessage(utf8('{"l":[{"a":1},{"a":2}]}')))).toEqual({
      l: [{ a: 1 }, { a: 2 }],
    });
  });

  it('a key equal to one in an object that has closed is admitted', () => {
    expect(admittedValue(readJsonMessage(utf8('{"x":{"k":1},"k":2}')))).toEqual({ x: { k: 1 }, k: 2 });
    expect(admittedValue(readJsonMessage(utf8('{"l":[{"k":{"j":1,"k":2},"j":3}],"k":4}')))).toHaveProperty(
      'k',
      4,
    );
  });

  it('a repeated __proto__ key is refused', () => {
    expect(refusalOf(readJsonMessage(utf8('{"__proto__":1,"__proto__":2}')))).toEqual(repeats('"__proto__"'));
  });

  it('a repeated integer-like key is refused although V8 lists those keys first', () => {
    expect(refusalOf(readJsonMessage(utf8('{"b":0,"1":1,"c":2,"1":3}')))).toEqual(repeats('"1"'));
  });

  it('distinct integer-like keys in any order are admitted', () => {
    expect(admittedValue(readJsonMessage(utf8('{"b":0,"2":1,"1":2,"01":3}')))).toEqual({
      b: 0,
      2: 1,
      1: 2,
      '01': 3,
    });
  });

  it('the first repetition in document order is named', () => {
    expect(refusalOf(readJsonMessage(utf8('{"b":1,"a":1,"a":2,"b":2}')))).toEqual(repeats('"a"'));
    // The inner "k" repeats before the outer "x" does.
    expect(refusalOf(readJsonMessage(utf8('{"x":{"k":1,"k":2},"x":3}')))).toEqual(repeats('"k"'));
  });

  it('a key repeated in an object of nine keys is refused', () => {
    const keys = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((k) => `"${k}":0`).join(',');
    expect(refusalOf(readJsonMessage(utf8(`{${keys},"a":1}`)))).toEqual(repeats('"a"'));
  });

  it('a key repeated in a small object is refused while another object holds nine keys', () => {
    const big = Array.from({ length: 9 }, (_, i) => `"k${i}":${i}`).join(',');
    expect(refusalOf(readJsonMessage(utf8(`{"big":{${big}},"s":{"a":1,"a":2}}`)))).toEqual(repeats('"a"'));
  });

  it('a key repeated in a 60,000-key object is refused and named', () => {
    const entries = Array.from({ length: 60_000 }, (_, i) => `"k${i}":${i}`).join(',');
    expect(admittedValue(readJsonMessage(utf8(`{${entries}}`)))).toHaveProperty('k59999', 59_999);
    expect(refusalOf(readJsonMessage(utf8(`{${entries},"k7":7}`)))).toEqual(repeats('"k7"'));
  });

  it('a repeated key is refused even while Object.prototype has an enumerable property', () => {
    // Pollution from elsewhere in the process must not let inherited keys pad the count.
    // Results are taken while polluted and checked after, so the assertions run in a clean realm.
    Object.defineProperty(Object.prototype, 'planted', {
      value: 1,
      enumerable: true,
      configurable: true,
      writable: true,
    });
    let repeated: ReadResult<unknown>;
    let distinct: ReadResult<unknown>;
    try {
      // Escaped keys take the path that counts parsed properties, where inherited keys could pad.
      repeated = readJsonMessage(utf8('{"a":1,"\\u0061":2}'));
      distinct = readJsonMessage(utf8('{"\\u0061":1,"b":{"c":2}}'));
    } finally {
      Reflect.deleteProperty(Object.prototype, 'planted');
    }
    expect(refusalOf(repeated)).toEqual(repeats('"a"'));
    expect(admittedValue(distinct)).toEqual({ a: 1, b: { c: 2 } });
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

describe('the named key', () => {
  function refusalNaming(key: string): WireRefusal {
    const literal = JSON.stringify(key);
    return refusalOf(readJsonMessage(utf8(`{${literal}:1,${literal}:2}`)));
  }

  it('a key of 32 UTF-16 units is named whole', () => {
    expect(refusalNaming('k'.repeat(32))).toEqual(repeats(`"${'k'.repeat(32)}"`));
  });

  it('a key of 33 UTF-16 units is cut to 32', { tags: ['threat-model'] }, () => {
    expect(refusalNaming(`${'k'.repeat(32)}Z`)).toEqual(repeats(`"${'k'.repeat(32)}"`));
  });

  it('a key of 10,000 units is cut to 32', () => {
    expect(refusalNaming('k'.repeat(10_000))).toEqual(repeats(`"${'k'.repeat(32)}"`));
  });

  it('a cut never splits a surrogate pair: it keeps 31 units instead', () => {
    expect(refusalNaming(`${'k'.repeat(31)}😀tail`)).toEqual(repeats(`"${'k'.repeat(31)}"`));
  });

  it('a key ending in a whole pair at 32 units keeps the pair', () => {
    expect(refusalNaming(`${'k'.repeat(30)}😀tail`)).toEqual(repeats(`"${'k'.repeat(30)}😀"`));
  });

  it('quotes, backslashes and C0 controls are escaped as JSON.stringify does', () => {
    expect(refusalNaming('a"b\\c\u001b[31m\n\u0000')).toEqual(repeats('"a\\"b\\\\c\\u001b[31m\\n\\u0000"'));
  });

  it('DEL, C1 controls, bidirectional controls and line separators are escaped too', () => {
    const refusal = refusalNaming('\u007f\u009b\u202e\u2066\u200b\u2028\ufeff');
    expect(refusal).toEqual(repeats('"\\u007f\\u009b\\u202e\\u2066\\u200b\\u2028\\ufeff"'));
    expect(refusal.message).toMatch(/^[\u0020-\u007e]*$/);
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

describe('message shape', () => {
  it('a top-level array is refused as a batch', { tags: ['threat-model'] }, () => {
    expect(refusalOf(readJsonMessage(utf8('[{"jsonrpc":"2.0","method":"ping","id":1}]')))).toEqual(BATCH);
    expect(refusalOf(readJsonMessage(utf8('[]')))).toEqual(BATCH);
  });

  it.each([
    ['"text"', 'string'],
    ['42', 'number'],
    ['-1.5e3', 'number'],
    ['true', 'boolean'],
    ['false', 'boolean'],
    ['null', 'null'],
  ])('%s is refused as not-object naming a %s', (text, kind) => {
    expect(refusalOf(readJsonMessage(utf8(` ${text} `)))).toEqual({
      code: -32600,
      rule: 'not-object',
      message: `Invalid request: message is a ${kind}, not an object`,
    });
  });

  it('readJsonValue admits every JSON type', () => {
    for (const text of ['[1,"a",null]', '"cursor-42"', '7', 'false', 'null', '{"a":[]}']) {
      expect(admittedValue(readJsonValue(utf8(text)))).toEqual(JSON.parse(text));
    }
  });

  it('readJsonValue applies the same bounds as readJsonMessage', () => {
    expect(refusalOf(readJsonValue(utf8('[{"a":1,"a":2}]')))).toEqual(repeats('"a"'));
    expect(refusalOf(readJsonValue(utf8('["\\udc00"]')))).toEqual(LONE_SURROGATE);
    expect(refusalOf(readJsonValue(utf8('')))).toEqual(EMPTY);
    expect(refusalOf(readJsonValue(utf8('[')))).toEqual(NOT_JSON);
    expect(refusalOf(readJsonValue(new Uint8Array([0x22, 0xc0, 0xaf, 0x22])))).toEqual(INVALID_UTF8);
    expect(refusalOf(readJsonValue(messageOfSize(1_048_577)))).toEqual(TOO_LARGE);
  });
});

describe('input views', () => {
  it('a view into a larger buffer reads only its own bytes', () => {
    const backing = utf8('garbage{"a":1}garbage');
    expect(admittedValue(readJsonMessage(backing.subarray(7, 14)))).toEqual({ a: 1 });
  });

  it('a view of 4 KiB or more into a larger buffer reads only its own bytes', () => {
    const message = messageOfSize(8_192);
    const backing = concat(utf8('[[[['), message, utf8(']]]]'));
    expect(admittedValue(readJsonMessage(backing.subarray(4, 4 + 8_192)))).toHaveProperty('pad');
  });

  it('a Node Buffer is read like any Uint8Array', () => {
    expect(admittedValue(readJsonMessage(Buffer.from('{"a":[true]}')))).toEqual({ a: [true] });
  });
});

describe('prototype keys', () => {
  it('a __proto__ key stays an own property and changes no prototype', { tags: ['threat-model'] }, () => {
    const value = admittedValue(
      readJsonMessage(utf8('{"__proto__":{"polluted":1},"a":{"__proto__":{"x":1}}}')),
    );
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(Object.prototype, 'polluted')).toBe(false);
    expect('polluted' in {}).toBe(false);
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toEqual({ polluted: 1 });
    const { a: inner } = value as { a: object };
    expect(Object.getPrototypeOf(inner)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(inner, '__proto__')?.value).toEqual({ x: 1 });
  });

  it('constructor and prototype keys are plain own properties', () => {
    const value = admittedValue(readJsonMessage(utf8('{"constructor":{"prototype":{"polluted":1}}}')));
    expect(Object.hasOwn(value, 'constructor')).toBe(true);
    expect(Object.hasOwn(Object.prototype, 'polluted')).toBe(false);
    expect('polluted' in {}).toBe(false);
  });
});

describe('refusals carry none of the client’s bytes', () => {
  const MARKER = 'MARKER_7f3a9c';
  // A long key whose marker lies past the 32 units a refusal may quote.
  const longKey = `${'k'.repeat(32)}${MARKER}`;
  const cases: [string, Uint8Array][] = [
    ['too-large', utf8(`{"a":"${MARKER}","pad":"${'x'.repeat(1_048_576)}"}`)],
    ['empty', utf8(' \n\t ')],
    ['not-json', utf8(`{"a": ${MARKER}}`)],
    ['not-json', utf8(`{"${MARKER}":1,}`)],
    ['not-json', utf8(`\u00a0{"${MARKER}":1}`)],
    ['invalid-utf8', concat(utf8(`{"${MARKER}":"`), [0xc0, 0xaf], utf8('"}'))],
    ['lone-surrogate', utf8(`{"${MARKER}":"\\ud800${MARKER}"}`)],
    ['too-deep', utf8(`${'['.repeat(65)}"${MARKER}"${']'.repeat(65)}`)],
    ['repeated-key', utf8(`{"${longKey}":"${MARKER}","${longKey}":"${MARKER}"}`)],
    ['batch', utf8(`[{"${MARKER}":"${MARKER}"}]`)],
    ['not-object', utf8(`"${MARKER}"`)],
  ];

  it.each(cases)('the %s refusal holds only code, rule and a message free of the marker', (rule, bytes) => {
    const refusal = refusalOf(readJsonMessage(bytes));
    expect(refusal.rule).toBe(rule);
    expect(Object.keys(refusal).sort()).toEqual(['code', 'message', 'rule']);
    expect(refusal).not.toBeInstanceOf(Error);
    expect(JSON.stringify(refusal)).not.toContain(MARKER);
    expect(refusal.message).not.toMatch(/\n\s+at |\[object|\{/);
  });
});

describe('the repeated key of a refused document, for a caller wording its own refusal', () => {
  it('is the key the refusal names, bounded and escaped as there', () => {
    const bytes = utf8(`{"a":1,"${'k'.repeat(40)}\\n":1,"${'k'.repeat(40)}\\n":2}`);
    const refusal = refusalOf(readJsonDocument(bytes));
    const key = repeatedKeyOf(bytes);
    expect(refusal.rule).toBe('repeated-key');
    expect(key).toBeDefined();
    expect(refusal.message).toBe(`Invalid request: message repeats the key ${key}`);
  });

  it('is undefined for a document that repeats no key, or is not UTF-8', () => {
    expect(repeatedKeyOf(utf8('{"a":1,"b":{"a":2}}'))).toBeUndefined();
    expect(repeatedKeyOf(new Uint8Array([0x7b, 0xff, 0x7d]))).toBeUndefined();
  });
});
