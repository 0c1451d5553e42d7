import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, type ListKind } from '../../src/catalog/cursor.js';
import { MAX_CURSOR_BYTES } from '../../src/limits.js';

const KINDS: readonly ListKind[] = ['tools', 'resources', 'resourceTemplates', 'prompts'];
const MALFORMED = { ok: false, message: 'cursor is malformed' };
const OTHER_LIST = { ok: false, message: 'cursor belongs to another list' };

const kind = fc.constantFrom(...KINDS);
/** Whole code points: a lone surrogate cannot survive UTF-8, so no issued cursor carries one. */
const key = fc.string({ unit: 'binary', maxLength: 64 });
const base64url = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');

describe('cursor properties', () => {
  it('decodes every cursor it issues to the key it was issued for', () => {
    fc.assert(
      fc.property(kind, key, (list, last) => {
        expect(decodeCursor(list, encodeCursor(list, last))).toEqual({ ok: true, after: last });
      }),
      { numRuns: 200 },
    );
  });

  it('refuses a cursor issued for another list by name', () => {
    fc.assert(
      fc.property(kind, kind, key, (issued, asked, last) => {
        fc.pre(issued !== asked);
        expect(decodeCursor(asked, encodeCursor(issued, last))).toEqual(OTHER_LIST);
      }),
      { numRuns: 100 },
    );
  });

  it('never throws on any value, and answers a key or one of its two named refusals', () => {
    const anyCursor = fc.oneof(
      fc.string({ maxLength: 64 }),
      fc.string({ unit: fc.constantFrom(...'AQgwz09_-=+/ '), maxLength: 64 }),
      fc.jsonValue({ maxDepth: 3 }).map((value) => base64url(JSON.stringify(value))),
      fc.anything(),
    );
    fc.assert(
      fc.property(kind, anyCursor, (list, cursor) => {
        const result = decodeCursor(list, cursor);
        if (result.ok) expect(typeof result.after).toBe('string');
        else expect([MALFORMED, OTHER_LIST]).toContainEqual(result);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a forged body as malformed unless it is exactly version, list and key', () => {
    const field = fc.oneof(fc.jsonValue({ maxDepth: 1 }), fc.constant(undefined));
    const forged = fc.record({
      v: fc.oneof(fc.constant(1), field),
      l: fc.oneof(kind, field),
      k: fc.oneof(key, field),
      extra: fc.option(fc.dictionary(fc.constantFrom('x', 'v2', '__proto__'), fc.jsonValue({ maxDepth: 1 }))),
    });
    fc.assert(
      fc.property(kind, forged, (list, { v, l, k, extra }) => {
        const body = { v, l, k, ...(extra ?? {}) };
        const text = JSON.stringify(body);
        const cursor = base64url(text);
        fc.pre(cursor.length <= MAX_CURSOR_BYTES);
        const parsed = JSON.parse(text) as Record<string, unknown>;
        const wellFormed =
          Object.keys(parsed).length === 3 &&
          parsed['v'] === 1 &&
          typeof parsed['l'] === 'string' &&
          typeof parsed['k'] === 'string';
        const expected = !wellFormed ? MALFORMED : parsed['l'] === list ? { ok: true, after: k } : OTHER_LIST;
        expect(decodeCursor(list, cursor)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses any respelling of an issued cursor: padding, standard alphabet, set trailing bits', () => {
    fc.assert(
      fc.property(kind, key, fc.nat(), (list, last, pick) => {
        const issued = encodeCursor(list, last);
        const standard = Buffer.from(issued, 'base64url').toString('base64');
        const bytes = Buffer.from(issued, 'base64url');
        const respellings = [standard.replace(/=+$/, '') === issued ? `${issued}=` : standard, `${issued}==`];
        // A final character whose unused low bits are set decodes to the same bytes in Node.
        const spare = (bytes.length * 8) % 6 === 0 ? 0 : 6 - ((bytes.length * 8) % 6);
        if (spare > 0) {
          const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
          const last6 = alphabet.indexOf(issued[issued.length - 1]!);
          respellings.push(issued.slice(0, -1) + alphabet[last6 | 1]!);
        }
        const respelled = respellings[pick % respellings.length]!;
        fc.pre(respelled !== issued);
        expect(decodeCursor(list, respelled)).toEqual(MALFORMED);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses a cursor past MAX_CURSOR_BYTES as malformed, whatever it holds', () => {
    fc.assert(
      fc.property(kind, fc.integer({ min: MAX_CURSOR_BYTES, max: 4 * MAX_CURSOR_BYTES }), (list, length) => {
        const last = 'k'.repeat(length);
        expect(decodeCursor(list, encodeCursor(list, last))).toEqual(MALFORMED);
      }),
      { numRuns: 50 },
    );
  });
});
