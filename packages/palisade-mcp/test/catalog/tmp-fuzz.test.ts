import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileLinearRegExp } from '../../src/catalog/linear-regex.js';

/**
 * Random patterns from a small grammar over a small alphabet, checked against V8's own engine
 * under the u flag. Inputs stay short so the native backtracking engine never blows up.
 */

const atom = fc.constantFrom(
  'a',
  'b',
  'c',
  '.',
  '[ab]',
  '[^a]',
  '[a-c]',
  '[^a-c\\s]',
  '\\d',
  '\\D',
  '\\w',
  '\\W',
  '\\s',
  '\\S',
  '😀',
  '\\u{1F600}',
  '\\uD83D\\uDE00',
  '[😀a]',
  '[^😀]',
  '\\x61',
  '\\n',
  '\\.',
  '-',
  '1',
  ' ',
  '\\p{L}',
  '\\P{L}',
  '[\\p{Lu}b]',
  '[^\\p{Ll}]',
);

const assertion = fc.constantFrom('^', '$', '\\b', '\\B');

const quantifier = fc.constantFrom(
  '',
  '',
  '*',
  '+',
  '?',
  '{2}',
  '{0,2}',
  '{1,3}',
  '{2,}',
  '*?',
  '+?',
  '??',
  '{1,2}?',
);

const pattern: fc.Memo<string> = fc.memo((depth) => {
  const quantifiable =
    depth <= 1
      ? atom
      : fc.oneof(
          { arbitrary: atom, weight: 3 },
          {
            arbitrary: fc
              .tuple(fc.constantFrom('(', '(?:'), disjunction(depth - 1))
              .map(([open, inner]) => `${open}${inner})`),
            weight: 1,
          },
        );
  const term = fc.oneof(
    { arbitrary: fc.tuple(quantifiable, quantifier).map(([q, k]) => q + k), weight: 5 },
    { arbitrary: assertion, weight: 1 },
  );
  return fc.array(term, { maxLength: 4 }).map((terms) => terms.join(''));
});

function disjunction(depth: number): fc.Arbitrary<string> {
  return fc
    .array(pattern(depth), { minLength: 1, maxLength: 3 })
    .map((alternatives) => alternatives.join('|'));
}

const input = fc
  .array(fc.constantFrom('a', 'b', 'c', 'A', '1', ' ', '\n', '_', '-', '.', 'é', '😀', '\uD83D', '\u2028'), {
    maxLength: 12,
  })
  .map((chars) => chars.join(''));

/**
 * V8 lets a zero-width match start inside a surrogate pair under the u flag (`/\B/u` finds index
 * 2 of 'a😀a'); the spec advances by code point, and so does this engine. That one divergence is
 * pinned in the example tests; here a pattern with `\B` is only compared on inputs without
 * astral characters.
 */
const ASTRAL = /[\u{10000}-\u{10FFFF}]/u;
const comparable = (source: string, text: string): boolean => !source.includes('\\B') || !ASTRAL.test(text);

describe('linear regex against native RegExp', () => {
  it('agrees with native RegExp under the u flag on random patterns and inputs', () => {
    fc.assert(
      fc.property(disjunction(3), fc.array(input, { minLength: 1, maxLength: 8 }), (source, inputs) => {
        const ours = compileLinearRegExp(source);
        const native = new RegExp(source, 'u');
        for (const text of inputs.filter((candidate) => comparable(source, candidate)))
          expect(ours.test(text), `/${source}/u on ${JSON.stringify(text)}`).toBe(native.test(text));
      }),
      { numRuns: Number(process.env.RUNS ?? 1000), seed: Number(process.env.SEED ?? Date.now()) },
    );
  }, 3_600_000);
});
