import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readJsonMessage, readJsonValue } from '../../src/wire/json-reader.js';
import type { ReadResult } from '../../src/wire/refusal.js';

const encoder = new TextEncoder();
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** What a plain, unbounded reader makes of the bytes: the value, or `undefined` if it throws. */
function plainRead(bytes: Uint8Array): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(strictDecoder.decode(bytes)) };
  } catch {
    return undefined;
  }
}

/** Strings of whole code points: a lone surrogate would be escaped by JSON.stringify and refused. */
const key = fc.string({ unit: 'binary', maxLength: 12 });
const leaf = fc.jsonValue({ maxDepth: 5, stringUnit: 'binary' });

/** An object wrapped in up to 57 more objects or arrays: at most 1 + 57 + 6 = 64 levels. */
const boundedMessage = fc
  .tuple(
    fc.dictionary(key, leaf, { maxKeys: 8 }),
    fc.array(fc.oneof(key, fc.constant(null)), { maxLength: 57 }),
  )
  .map(([inner, wrappers]) => {
    let value: unknown = inner;
    for (const wrapper of wrappers) value = wrapper === null ? [value] : { [wrapper]: value };
    return Array.isArray(value) ? { list: value } : value;
  })
  .filter((value) => depthOf(value) <= 64);

function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  let deepest = 0;
  for (const child of Object.values(value)) deepest = Math.max(deepest, depthOf(child));
  return deepest + 1;
}

function expectWellFormed(result: ReadResult<unknown>): void {
  if (result.ok) return;
  expect([-32700, -32600]).toContain(result.refusal.code);
  expect(typeof result.refusal.message).toBe('string');
}

/** Small edits of a valid document: byte overwrites, insertions, deletions and a truncation. */
const mutatedDocument = fc
  .tuple(
    boundedMessage.map((value) => encoder.encode(JSON.stringify(value))),
    fc.array(
      fc.record({
        kind: fc.constantFrom('set', 'insert', 'delete'),
        at: fc.nat(),
        byte: fc.oneof(
          fc.integer({ min: 0, max: 255 }),
          fc.constantFrom(0x22, 0x5c, 0x5b, 0x5d, 0x7b, 0x7d, 0x3a, 0x2c, 0x75),
        ),
      }),
      { maxLength: 4 },
    ),
    fc.option(fc.nat(), { nil: undefined }),
  )
  .map(([original, edits, cut]) => {
    const bytes = [...original];
    for (const edit of edits) {
      const at = bytes.length === 0 ? 0 : edit.at % bytes.length;
      if (edit.kind === 'set') bytes[at] = edit.byte;
      else if (edit.kind === 'insert') bytes.splice(at, 0, edit.byte);
      else bytes.splice(at, 1);
    }
    const end = cut === undefined || bytes.length === 0 ? bytes.length : cut % bytes.length;
    return Uint8Array.from(bytes.slice(0, end));
  });

/** Text assembled from JSON's sharp edges: quotes, escapes, surrogate halves, brackets. */
const jsonishText = fc
  .array(
    fc.constantFrom(
      '{',
      '}',
      '[',
      ']',
      '"',
      '\\',
      '\\"',
      '\\\\',
      '\\u',
      'd800',
      'dc00',
      '0041',
      ':',
      ',',
      '1',
      'true',
      ' ',
      '\n',
      'a',
      'é',
      '\ufeff',
    ),
    { maxLength: 40 },
  )
  .map((parts) => encoder.encode(parts.join('')));

describe('properties of the JSON reader', () => {
  it('on every object inside the bounds, the value deep-equals JSON.parse’s', () => {
    fc.assert(
      fc.property(boundedMessage, (value) => {
        const text = JSON.stringify(value);
        const result = readJsonMessage(encoder.encode(text));
        expect(result.ok).toBe(true);
        if (result.ok) expect(result.value).toEqual(JSON.parse(text));
      }),
      { numRuns: 400 },
    );
  });

  it('on every byte array it answers a value or a -32700/-32600 refusal and never throws', () => {
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 200 }), mutatedDocument, jsonishText), (bytes) => {
        expectWellFormed(readJsonMessage(bytes));
        expectWellFormed(readJsonValue(bytes));
      }),
      { numRuns: 1_500 },
    );
  });

  it('it admits only what JSON.parse admits, with the same value, and calls valid JSON not-json never', () => {
    fc.assert(
      fc.property(fc.oneof(mutatedDocument, jsonishText), (bytes) => {
        const result = readJsonValue(bytes);
        const plain = plainRead(bytes);
        if (result.ok) {
          expect(plain).toBeDefined();
          expect(result.value).toEqual(plain?.value);
        } else if (result.refusal.rule === 'not-json' || result.refusal.rule === 'invalid-utf8') {
          expect(plain).toBeUndefined();
        }
      }),
      { numRuns: 1_500 },
    );
  });

  it('a chain of 1 to 80 containers is refused as too-deep exactly when it is deeper than 64', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(key, fc.constant(null)), { minLength: 1, maxLength: 80 }),
        leafValue(),
        (chain, inner) => {
          let value: unknown = inner;
          for (const link of chain) value = link === null ? [value] : { [link]: value };
          const result = readJsonValue(encoder.encode(JSON.stringify(value)));
          if (chain.length > 64) expect(!result.ok && result.refusal.rule).toBe('too-deep');
          else expect(result.ok).toBe(true);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('a duplicate key injected at any depth, in any spelling, is refused as repeated-key', {
    tags: ['threat-model'],
  }, () => {
    const level = fc.dictionary(
      key.filter((name) => name !== 'next'),
      fc.oneof(fc.integer(), fc.string({ unit: 'binary', maxLength: 6 }), fc.boolean()),
      { maxKeys: 12 },
    );
    fc.assert(
      fc.property(
        fc.array(level, { minLength: 1, maxLength: 64 }),
        fc.nat(),
        key,
        fc.boolean(),
        (levels, pick, fallbackKey, escapeAll) => {
          const target = pick % levels.length;
          const targetKeys = Object.keys(levels[target] ?? {});
          const repeated =
            targetKeys.length > 0 ? (targetKeys[pick % targetKeys.length] ?? fallbackKey) : fallbackKey;
          if (repeated === 'next') return;
          // Written a second time either as JSON.stringify writes it or with every unit escaped.
          const spelling = escapeAll ? escapeEveryUnit(repeated) : JSON.stringify(repeated);
          let text = '';
          for (let depth = levels.length - 1; depth >= 0; depth--) {
            const entries = Object.entries(levels[depth] ?? {}).map(
              ([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`,
            );
            if (depth === target) {
              if (!Object.hasOwn(levels[depth] ?? {}, repeated))
                entries.push(`${JSON.stringify(repeated)}:0`);
              entries.push(`${spelling}:1`);
            }
            if (text !== '') entries.push(`"next":${text}`);
            text = `{${entries.join(',')}}`;
          }
          const result = readJsonMessage(encoder.encode(text));
          expect(result.ok).toBe(false);
          if (!result.ok) expect(result.refusal.rule).toBe('repeated-key');
        },
      ),
      { numRuns: 400 },
    );
  });
});

/** A value without containers, so a chain's length is its depth. */
function leafValue(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.string({ unit: 'binary', maxLength: 8 }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
  );
}

function escapeEveryUnit(text: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) out += `\\u${text.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return `${out}"`;
}
