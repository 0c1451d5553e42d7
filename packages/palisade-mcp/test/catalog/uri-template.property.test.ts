import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseUriTemplate } from '../../src/catalog/uri-template.js';

const template = parseUriTemplate('db://{table}/rows/{+key}.json');

const CONTROL = /[\p{Cc}\p{Cf}]/u;
const DRIVE_LETTER = /^[A-Za-z]:/;
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** What `match` may return for `{table}`: the rules, restated independently of the code. */
function validSimple(value: string): boolean {
  const folded = value.normalize('NFKC');
  return (
    value !== '' &&
    !CONTROL.test(value) &&
    !LONE_SURROGATE.test(value) &&
    !folded.includes('/') &&
    !folded.includes('\\') &&
    folded !== '.' &&
    folded !== '..'
  );
}

/** What `match` may return for `{+key}`. */
function validReserved(value: string): boolean {
  const folded = value.normalize('NFKC');
  return (
    value !== '' &&
    !CONTROL.test(value) &&
    !LONE_SURROGATE.test(value) &&
    !folded.includes('\\') &&
    !folded.startsWith('/') &&
    !DRIVE_LETTER.test(folded) &&
    folded.split('/').every((segment) => segment !== '.' && segment !== '..')
  );
}

/** Values mixing the characters the rules are about with any other code point. */
const text = fc.string({
  unit: fc.oneof(
    fc.constantFrom('%', '4', '1', 'C', '/', '.', '?', '#', '\\', ':', '@', '+', ' ', 'é', '😀', '\uFEFF'),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  ),
  maxLength: 12,
});

/** URIs of the template's shape, with values built from what matters to decoding. */
const piece = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.constantFrom('a', 'é', '.', '/', '%2e', '%2E', '%C3%A9', '%3F', '/rows/', '.json'),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom('\\', '?', '#', '%', '%2', '%2F', '%C3', '%A9', '%00', '%5C', '%zz'),
  },
);
const part = fc.array(piece, { maxLength: 6 }).map((pieces) => pieces.join(''));
const uri = fc.tuple(part, part).map(([table, key]) => `db://${table}/rows/${key}.json`);

describe('UriTemplate properties', () => {
  it('gives back every valid value it expanded', () => {
    fc.assert(
      fc.property(text.filter(validSimple), text.filter(validReserved), (table, key) => {
        expect(template.match(template.expand({ table, key }))).toEqual({ table, key });
      }),
      { numRuns: 2_000 },
    );
  });

  it('never returns a value that breaks a matching rule, whatever the URI', () => {
    let matched = 0;
    fc.assert(
      fc.property(uri, (candidate) => {
        const values = template.match(candidate);
        if (values === undefined) return;
        matched++;
        expect(validSimple(values['table']!)).toBe(true);
        expect(validReserved(values['key']!)).toBe(true);
      }),
      { numRuns: 5_000 },
    );
    // Enough of the URIs must match for the property to say anything.
    expect(matched).toBeGreaterThan(500);
  });
});
