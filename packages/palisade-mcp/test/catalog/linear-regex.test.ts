import { describe, expect, it } from 'vitest';
import { compileLinearRegExp } from '../../src/catalog/linear-regex.js';
import { PalisadeError } from '../../src/errors.js';

/** Every pattern of a row is run on every input of it, by this engine and by V8 under the u flag. */
type Row = readonly [feature: string, patterns: readonly string[], inputs: readonly string[]];

const ROWS: readonly Row[] = [
  [
    'literals, searched anywhere in the input',
    ['abc', 'b', '', 'a😀b'],
    ['abc', 'xxabcxx', 'ab', '', 'ABC', 'a😀b'],
  ],
  [
    'character escapes',
    [
      '^\\n$',
      '^\\t$',
      '^\\r$',
      '^\\f$',
      '^\\v$',
      '^\\0$',
      '^\\x41$',
      '^\\u0041$',
      '^\\u{41}$',
      '^\\u{1F600}$',
      '^\\cJ$',
      '^\\.$',
      '^\\*$',
      '^\\\\$',
      '^\\/$',
      '^\\[\\]\\{\\}\\(\\)\\|\\^\\$\\?\\+$',
    ],
    ['\n', '\t', '\r', '\f', '\v', '\0', 'A', '😀', '.', '*', '\\', '/', 'x', '[]{}()|^$?+'],
  ],
  [
    'the dot, which skips line terminators',
    ['^.$', '^..$', 'a.b', '.'],
    ['a', '😀', '\n', '\r', '\u2028', '\u2029', 'a\nb', 'axb', '', '\uD83D', 'ab'],
  ],
  [
    'astral characters as single code points',
    ['^😀$', '^\\uD83D\\uDE00$', '\\uD83D', '\\uDE00', '^[😀]$', '^[^😀]$', '^😀{2}$', '^😀+$', '^[😀-😂]$'],
    ['😀', '😀😀', '\uD83D', '\uDE00', 'a', '😁', '😃', '\uDE00\uD83D'],
  ],
  [
    'classes with ranges, negation and escapes',
    [
      '^[abc]+$',
      '[^abc]',
      '^[a-z0-9_]+$',
      '^[^a-z]$',
      '[\\-]',
      '^[a-]$',
      '^[-a]$',
      '^[a-c-e]+$',
      '^[\\]]$',
      '^[\\d\\s]+$',
      '^[^\\W]$',
      '^[]$',
      '^[^]$',
      '^[\\u{1F600}-\\u{1F64F}]$',
      '^[\\b]$',
      '^[.*+?]+$',
    ],
    ['abc', 'abd', 'a_1', '-', ']', ' 1 ', 'é', '😀', '\b', 'A', '', 'e', 'ace-', '.*', 'b-d'],
  ],
  [
    'the class escapes \\d \\D \\w \\W \\s \\S',
    ['^\\d+$', '\\D', '^\\w+$', '\\W', '^\\s+$', '\\S'],
    ['0123', '١', 'abc_09', 'é', ' \t\n\u00a0\u2003\ufeff\u3000\u2028', '\u180e', '\u200b', '', 'a b'],
  ],
  [
    'word boundaries, including at the edges',
    ['\\bab\\b', '\\Bb\\B', '^\\b', '\\b$', '\\Ba', 'a\\B', '\\b', '\\B'],
    ['ab', 'xab', 'ab cd', 'a-b', '', 'é', 'abc', ' ab ', ' ', '😀'],
  ],
  [
    'anchors, also in the middle of a pattern',
    ['^a', 'a$', '^a$', '^$', 'a^b', 'a$b', '(^a|b$)', '^(?:a|^b)', 'x|^y', '(?:^)*a'],
    ['a', 'ba', 'ab', '', 'b', 'y', 'xy', 'ay', 'ca'],
  ],
  [
    'capturing, non-capturing and named groups',
    ['(ab)+', '^(?:ab)+c$', '(?<word>ab)c', '((a)(b))', '^(?<x>a(?<y>b)?)+$'],
    ['ab', 'abab', 'abc', 'ababc', 'ac', '', 'aab'],
  ],
  [
    'alternation, with empty alternatives and inside quantifiers',
    ['^(a|b)*$', '^(a|)+$', '^(|a)b$', 'a||b', '^(?:ab|cd){2}$', '^(a|bc|)*d$', '^(?:a|b|c)$'],
    ['ab', 'abba', 'abc', '', 'b', 'abcd', 'cdab', 'bcad', 'd', 'aab'],
  ],
  [
    'greedy and lazy quantifiers',
    [
      '^a*$',
      '^a+$',
      '^a?$',
      '^a{2}$',
      '^a{2,}$',
      '^a{2,3}$',
      '^a{0}$',
      '^(ab){1,2}$',
      '^(a{2,3}|b)+$',
      '^a*?$',
      '^a+?b',
      '^a{2,3}?$',
      '^a??b',
      '^(?:a*)*$',
      '^(?:a?){3}b$',
    ],
    ['', 'a', 'aa', 'aaa', 'aaaa', 'ab', 'abab', 'ababab', 'b', 'aab', 'aaab'],
  ],
  [
    'Unicode property escapes',
    [
      '^\\p{L}+$',
      '\\P{L}',
      '^[\\p{Lu}\\d]+$',
      '^[^\\p{L}]+$',
      '^\\p{Script=Greek}+$',
      '\\p{Emoji_Presentation}',
      '^\\P{Lu}$',
      '\\b\\p{L}',
    ],
    ['abc', 'éÀ', 'αβγ', 'AB12', '123', '😀', 'a1', '', 'Ω', ' x', 'a'],
  ],
];

describe('compileLinearRegExp matching', () => {
  it.each(ROWS)('agrees with native RegExp on %s', (_feature, patterns, inputs) => {
    const outcomes = new Set<boolean>();
    for (const pattern of patterns) {
      const ours = compileLinearRegExp(pattern);
      const native = new RegExp(pattern, 'u');
      for (const input of inputs) {
        const expected = native.test(input);
        expect(ours.test(input), `/${pattern}/u on ${JSON.stringify(input)}`).toBe(expected);
        outcomes.add(expected);
      }
    }
    // A row whose inputs all match (or all fail) would not test much.
    expect(outcomes).toEqual(new Set([true, false]));
  });

  it('consumes an astral character as one code point', () => {
    expect(compileLinearRegExp('^.$').test('😀')).toBe(true);
    expect(compileLinearRegExp('^..$').test('😀')).toBe(false);
  });

  it('never starts a match inside a surrogate pair, following the spec where V8 does not', () => {
    // V8 finds /\B/u at index 2 of 'a😀a', between the halves of the emoji; the spec advances
    // the search by code point, so every position here is a word boundary.
    expect(compileLinearRegExp('\\B').test('a😀a')).toBe(false);
  });

  it('matches \\s exactly where native RegExp does, on every code point', () => {
    const ours = compileLinearRegExp('\\s');
    const native = /\s/u;
    const disagreements: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      const text = String.fromCodePoint(cp);
      if (ours.test(text) !== native.test(text)) disagreements.push(cp.toString(16));
    }
    expect(disagreements).toEqual([]);
  });

  it('stays correct when the DFA cache fills up and is rebuilt', () => {
    // The 15th character from the end being `a` needs a state per suffix seen: 2^15 of them,
    // far past the cache bound on a random input.
    const pattern = '^(?:a|b)*a(?:a|b){14}$';
    const ours = compileLinearRegExp(pattern);
    const native = new RegExp(pattern, 'u');
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    for (let round = 0; round < 8; round++) {
      const input = Array.from({ length: 20_000 + round }, () => (random() < 0.5 ? 'a' : 'b')).join('');
      expect(ours.test(input)).toBe(native.test(input));
    }
  });

  it('stays correct when it meets more \\p{...} input classes than it keeps', () => {
    // Every other code point from U+0100 is its own class next to `\p{L}`: 1,500 of them.
    const singles = Array.from({ length: 1_500 }, (_, i) => String.fromCodePoint(0x100 + 2 * i)).join('');
    const ours = compileLinearRegExp(`^(?:\\p{L}|[${singles}]|\\d)+$`);
    // The oracle tests one character at a time: native RegExp would backtrack exponentially
    // on the whole pattern, whose alternatives overlap.
    const member = new RegExp(`^(?:\\p{L}|[${singles}]|\\d)$`, 'u');
    const everything = Array.from({ length: 3_200 }, (_, i) => String.fromCodePoint(0x100 + i));
    const members = everything.filter((char) => member.test(char)).join('');
    expect(members.length).toBeGreaterThan(2_000);
    expect(ours.test(members)).toBe(true);
    expect(ours.test(`${members}1`)).toBe(true);
    expect(ours.test(`${members}\u0301`)).toBe(false);
    expect(ours.test(everything.join(''))).toBe(false);
    expect(ours.test(members)).toBe(true);
  });

  it('keeps its source and prints like a RegExp, which is the key Ajv caches patterns by', () => {
    const re = compileLinearRegExp('^a+$');
    expect(re.source).toBe('^a+$');
    expect(String(re)).toBe('/^a+$/u');
    expect(String(compileLinearRegExp('^b+$'))).not.toBe(String(re));
  });

  it('gives the same answers on repeated calls, once its states are cached', () => {
    const re = compileLinearRegExp('^[a-z]+@[a-z]+\\.[a-z]{2,}$');
    for (let round = 0; round < 3; round++) {
      expect(re.test('someone@example.org')).toBe(true);
      expect(re.test('someone@example.o')).toBe(false);
      expect(re.test('someone@@example.org')).toBe(false);
    }
  });
});

describe('compileLinearRegExp refusals', () => {
  const refusal = (pattern: string): PalisadeError => {
    try {
      compileLinearRegExp(pattern);
    } catch (error) {
      if (error instanceof PalisadeError) return error;
      throw error;
    }
    throw new Error(`/${pattern}/ was not refused`);
  };

  it.each([
    ['(a)\\1', /backreference \\1/],
    ['(?<n>a)\\k<n>', /named backreference/],
    ['a(?=b)', /lookahead/],
    ['a(?!b)', /negative lookahead/],
    ['(?<=a)b', /lookbehind/],
    ['(?<!a)b', /negative lookbehind/],
  ])('refuses /%s/ and names the construct', (pattern, named) => {
    const error = refusal(pattern);
    expect(error.code).toBe('PALISADE_ERR_SCHEMA_UNSAFE');
    expect(error.message).toMatch(named);
  });

  it.each([
    '(',
    'a**',
    '[b-a]',
    '\\c',
    '{',
    'a{2,1}',
    '\\p{NoSuchProperty}',
    '\\u{110000}',
    '\\2',
    '[\\d-z]',
    ']',
  ])('refuses /%s/, which native RegExp rejects under the u flag, as invalid syntax', (pattern) => {
    const error = refusal(pattern);
    expect(error.code).toBe('PALISADE_ERR_SCHEMA_UNSAFE');
    expect(error.message).toMatch(/invalid syntax/);
  });

  it.each(['a{1001}', 'a{0,1001}', 'a{1001,}', 'a{99999999999999999999}'])(
    'refuses counted repetition above 1000 in /%s/',
    (pattern) => {
      expect(refusal(pattern).message).toMatch(/counted repetition .* exceeds 1000/);
    },
  );

  it('accepts counted repetition of exactly 1000', () => {
    expect(compileLinearRegExp('^a{1000}$').test('a'.repeat(1_000))).toBe(true);
  });

  it('refuses a program over 10000 instructions', () => {
    expect(refusal('(?:a{1000}){11}').message).toMatch(/exceed 10000 instructions/);
    expect(refusal('((a{100}){100}){100}').message).toMatch(/exceed 10000 instructions/);
  });

  it('accepts a program just under 10000 instructions', () => {
    expect(compileLinearRegExp('^(?:a{1000}){9}$').test('a'.repeat(9_000))).toBe(true);
  });

  it('refuses groups nested deeper than 64', () => {
    expect(refusal(`${'('.repeat(65)}a${')'.repeat(65)}`).message).toMatch(/nest deeper than 64/);
    expect(compileLinearRegExp(`${'('.repeat(64)}a${')'.repeat(64)}`).test('a')).toBe(true);
  });

  it('cuts a long pattern in its refusal message', () => {
    expect(refusal(`(a)${'b'.repeat(10_000)}\\1`).message.length).toBeLessThan(200);
  });
});

describe('compileLinearRegExp against catastrophic backtracking', () => {
  const MiB = 1_048_576;

  // The one timed assertion of this suite: a backtracking engine takes hours on these (2^n paths
  // for the nested ones, n^4 for the polynomial one), so a bound of two seconds is generous on
  // any machine and still fails the moment matching stops being linear.
  it.each([
    ['^(a+)+$', `${'a'.repeat(MiB)}!`],
    ['(a|a)*b', `${'a'.repeat(MiB)}!`],
    ['(\\d*)*x', `${'1'.repeat(MiB)}!`],
    ['^(\\w+\\s?)*$', `${'a'.repeat(MiB)}!`],
    ['a*a*a*a*b', `${'a'.repeat(MiB)}!`],
  ])('answers /%s/ on a 1 MiB input in linear time', (pattern, input) => {
    const re = compileLinearRegExp(pattern);
    const started = performance.now();
    expect(re.test(input)).toBe(false);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('the work budget', () => {
  it('refuses to finish a test that would build a new state for nearly every code point', {
    tags: ['threat-model'],
  }, async () => {
    const { RegexWorkExceeded } = await import('../../src/catalog/linear-regex.js');
    let seed = 7;
    const random = Array.from({ length: 1_000_000 }, () => {
      seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
      return (seed >> 16) & 1 ? 'a' : 'b';
    }).join('');
    expect(() => compileLinearRegExp('a[ab]{999}c').test(random)).toThrow(RegexWorkExceeded);
  });

  it('leaves patterns whose states repeat within budget on a 1 MiB input', () => {
    expect(compileLinearRegExp('^(a+)+$').test(`${'a'.repeat(1_048_576)}!`)).toBe(false);
    expect(compileLinearRegExp('.{1,1000}x').test('y'.repeat(1_048_576))).toBe(false);
  });
});
