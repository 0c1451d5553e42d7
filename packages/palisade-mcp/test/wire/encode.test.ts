/**
 * The outbound encoder (src/wire/encode.ts) on its own: it refuses what JSON cannot carry and names
 * the reason (no JSON form, a cycle, a throwing `toJSON`, nesting too deep, data that is not
 * plain), writes exactly what JSON.stringify would for everything else, and reads a host's values
 * as JSON.stringify reads them (a getter called once, `toJSON` in place of the object).
 */
import { describe, expect, it } from 'vitest';
import { encodeMessage } from '../../src/wire/encode.js';

function reasonOf(value: unknown): string {
  const encoded = encodeMessage(value);
  if (encoded.ok) throw new Error(`expected a refusal, got ${encoded.text}`);
  return encoded.reason;
}

function textOf(value: unknown): string {
  const encoded = encodeMessage(value);
  if (!encoded.ok) throw new Error(`expected text, got the refusal ${encoded.reason}`);
  return encoded.text;
}

/** `levels` arrays nested inside each other around `inner`. */
function nested(levels: number, inner: unknown): unknown {
  let value = inner;
  for (let level = 0; level < levels; level++) value = [value];
  return value;
}

describe('the encoder refuses what JSON cannot carry, naming it', () => {
  it.each([
    ['Infinity', { result: { n: Number.POSITIVE_INFINITY } }, 'the value holds a non-finite number'],
    ['NaN', { result: [Number.NaN] }, 'the value holds a non-finite number'],
    ['a boxed NaN', { result: { n: new Number(Number.NaN) } }, 'the value holds a non-finite number'],
    ['a function', { result: { f: () => 1 } }, 'the value holds a function'],
    ['a symbol', { result: { s: Symbol('s') } }, 'the value holds a symbol'],
    ['a BigInt', { result: { b: 10n } }, 'the value holds a BigInt'],
    ['undefined in an array', { result: [1, undefined] }, 'the value holds undefined inside an array'],
    ['an invalid Date', { result: { at: new Date(Number.NaN) } }, 'the value holds an invalid Date'],
    ['a Map', { result: new Map([['a', 1]]) }, 'the value holds an object that is not plain data'],
    [
      'a class instance',
      { result: new (class Point {})() },
      'the value holds an object that is not plain data',
    ],
  ])('a message holding %s is refused with that reason', (_name, message, reason) => {
    expect(reasonOf(message)).toBe(reason);
  });

  it('a top-level undefined has no JSON form and is refused as such', () => {
    expect(reasonOf(undefined)).toBe('the value has no JSON form');
  });

  it('a cycle is refused as a cycle or a throwing toJSON', () => {
    const loop: Record<string, unknown> = {};
    loop['self'] = loop;
    expect(reasonOf({ result: loop })).toBe(
      'the value could not be serialized (a cycle, or a toJSON that throws)',
    );
  });

  it('a toJSON that throws is refused without its error', () => {
    const message = {
      result: {
        toJSON() {
          throw new Error('secret');
        },
      },
    };
    expect(reasonOf(message)).toBe('the value could not be serialized (a cycle, or a toJSON that throws)');
  });

  it('nesting past what JSON.stringify can recurse is refused as too deep, not thrown', () => {
    expect(reasonOf(nested(200_000, 1))).toBe('the value nests too deeply to serialize');
  });
});

describe('the encoder writes what JSON.stringify writes', () => {
  it.each([
    ['null', null],
    ['true', true],
    ['false', false],
    ['a negative fraction', -0.5],
    ['an empty array', []],
    ['an empty object', {}],
    ['a short plain string', 'plain text'],
    ['a string with a quote', 'say "hi"'],
    ['a string with a backslash', 'a\\b'],
    ['a string with a control character', 'line\nbreak\u0001'],
    ['a string with a lone surrogate', 'x\ud800y'],
    ['a string of exactly 64 plain characters', 'a'.repeat(64)],
    ['a string of 65 plain characters', 'b'.repeat(65)],
    ['a key that needs escaping', { 'k"ey\n': 1 }],
    ['an array of mixed values', [1, 'two', null, false, { three: [3] }]],
    ['a plain object of several members', { a: 1, b: 'two', c: [true], d: { e: null } }],
    ['a null-prototype object', Object.assign(Object.create(null) as object, { a: 1 })],
    ['a member that is undefined, which is omitted', { a: undefined, b: 1, c: undefined }],
    ['only undefined members', { a: undefined }],
    ['a valid Date, through its toJSON', { at: new Date(0) }],
    ['boxed values, unboxed', { n: new Number(2), s: new String('s'), b: new Boolean(false) }],
    ['an object with its own toJSON', { result: { toJSON: () => ({ replaced: true }) } }],
    ['arrays nested 64 levels', nested(64, 1)],
    ['arrays nested 65 levels', nested(65, 'deep')],
    ['objects nested 70 levels', nested(70, { leaf: [1, { x: 'y' }] })],
  ])('%s', (_name, value) => {
    expect(textOf(value)).toBe(JSON.stringify(value));
  });

  it('null and arrays beside a Date (the checked path) are written, not refused as not plain', () => {
    const value = { at: new Date(0), none: null, list: [1, [2], null] };
    expect(textOf(value)).toBe(JSON.stringify(value));
  });

  it('an array member that is null is written, not refused like undefined', () => {
    expect(textOf({ result: [null, 1] })).toBe('{"result":[null,1]}');
  });

  it('a getter that throws on the fast path is left to the checked path, which refuses it', () => {
    const message = {
      get result(): unknown {
        throw new Error('secret');
      },
    };
    expect(reasonOf(message)).toBe('the value could not be serialized (a cycle, or a toJSON that throws)');
  });
});

describe('the encoder reads the host’s values as JSON.stringify reads them', () => {
  it('a getter in a message of plain data is called once, and its value is what is sent', () => {
    // Behind the getter, one member of every kind the fast path writes: a path that gave up on
    // any of them and started again would call the getter a second time and send its new value.
    // It returns an object because the checked path reads an object member twice (its replacer
    // looks at the holder's own value to catch an invalid Date), so starting there calls it twice.
    let reads = 0;
    const message = {
      get first(): { read: number } {
        reads += 1;
        return { read: reads };
      },
      text: 'x',
      flag: true,
      count: 2,
      none: null,
      list: [1, 'two'],
      inner: { k: 1 },
      absent: undefined,
    };
    expect(textOf(message)).toBe(
      '{"first":{"read":1},"text":"x","flag":true,"count":2,"none":null,"list":[1,"two"],"inner":{"k":1}}',
    );
    expect(reads).toBe(1);
  });

  it('an object with a toJSON is sent as what toJSON returns, and its other members are never read', () => {
    let reads = 0;
    const message = {
      get secret(): string {
        reads += 1;
        return 'not sent';
      },
      toJSON: () => ({ replaced: true }),
    };
    expect(textOf(message)).toBe('{"replaced":true}');
    expect(reads).toBe(0);
  });

  it('a Map inside an array at the top level is refused as not plain data', () => {
    expect(reasonOf([new Map([['a', 1]])])).toBe('the value holds an object that is not plain data');
  });
});
