import { describe, expect, it } from 'vitest';
import { parseUriTemplate } from '../../src/catalog/uri-template.js';
import type { PalisadeError } from '../../src/errors.js';
import { refusalOf } from '../support/refusal.js';

function refusal(template: string): PalisadeError {
  return refusalOf(() => parseUriTemplate(template), template);
}

describe('parseUriTemplate', () => {
  it('lists the variables in order, marking reserved ones', () => {
    expect(parseUriTemplate('db://{table}/rows/{+key}').variables).toEqual([
      { name: 'table', reserved: false },
      { name: 'key', reserved: true },
    ]);
  });

  it('keeps the template as its source', () => {
    expect(parseUriTemplate('users/{id}').source).toBe('users/{id}');
  });

  it('accepts RFC 6570 variable names with dots and percent-escapes', () => {
    expect(parseUriTemplate('x/{a.b}/{c%41_1}').variables.map((variable) => variable.name)).toEqual([
      'a.b',
      'c%41_1',
    ]);
  });

  it.each([
    ['{#x}', /"#" operator/],
    ['{.x}', /"\." operator/],
    ['{/x}', /"\/" operator/],
    ['{;x}', /";" operator/],
    ['{?x}', /"\?" operator/],
    ['{&x}', /"&" operator/],
    ['{=x}', /"=" operator/],
    ['{x,y}', /lists several variables/],
    ['{x*}', /explode modifier/],
    ['{x:3}', /prefix modifier/],
    ['a/{}', /empty expression/],
    ['a/{+}', /empty expression/],
    ['a/{x', /unclosed "\{" at offset 2/],
    ['a/x}', /stray "\}" at offset 3/],
    ['a/{x{y}', /"\{" inside an expression at offset 4/],
    ['a/{x y}', /invalid variable name/],
    ['a/{.x.}', /operator/],
    ['a/{x.}', /invalid variable name/],
    ['a/{x..y}', /invalid variable name/],
    ['a/{x-y}', /invalid variable name/],
    ['a/{x%4}', /invalid variable name/],
    ['a/{x}/{x}', /variable "x" twice/],
    ['a/{x}/{+x}', /variable "x" twice/],
    ['a/{x}{y}', /no literal between \{x\} and \{y\}/],
    ['a/{+x}{y}', /no literal between \{\+x\} and \{y\}/],
    ['a b/{x}', /character " " at offset 1/],
    ['a\\b/{x}', /character "\\\\" at offset 1/],
    ['a<b>/{x}', /character "<" at offset 1/],
    ['a\tb/{x}', /character "U\+0009" at offset 1/],
    ['a%zz/{x}', /invalid percent-escape at offset 1/],
    ['a%4/{x}', /invalid percent-escape at offset 1/],
  ])('refuses %s, naming the defect', (template, defect) => {
    const error = refusal(template);
    expect(error.code).toBe('PALISADE_ERR_URI_TEMPLATE');
    expect(error.message).toMatch(defect);
  });
});

describe('UriTemplate.match', () => {
  const users = parseUriTemplate('users/{id}');
  const posts = parseUriTemplate('users/{id}/posts/{post}');
  const files = parseUriTemplate('file:///{+path}');

  it('gives the value of every variable', () => {
    expect(posts.match('users/42/posts/7')).toEqual({ id: '42', post: '7' });
  });

  it('matches a template without variables only by its exact text', () => {
    const fixed = parseUriTemplate('config://app');
    expect(fixed.match('config://app')).toEqual({});
    expect(fixed.match('config://app/')).toBeUndefined();
  });

  it('compares literals exactly, with no case folding', () => {
    expect(users.match('Users/1')).toBeUndefined();
    expect(parseUriTemplate('a%7Eb/{x}').match('a%7eb/1')).toBeUndefined();
    expect(parseUriTemplate('a%7Eb/{x}').match('a%7Eb/1')).toEqual({ x: '1' });
  });

  it('compares a non-ASCII literal in its percent-encoded form', () => {
    const template = parseUriTemplate('café/{x}');
    expect(template.match('caf%C3%A9/1')).toEqual({ x: '1' });
    expect(template.match('café/1')).toBeUndefined();
  });

  it('requires the whole URI to be consumed', () => {
    expect(parseUriTemplate('users/{id}/profile').match('users/1/profiles')).toBeUndefined();
    expect(parseUriTemplate('users/{id}/profile').match('xusers/1/profile')).toBeUndefined();
  });

  it('does not match an empty value', () => {
    expect(users.match('users/')).toBeUndefined();
    expect(posts.match('users//posts/1')).toBeUndefined();
  });

  it.each(['users/a/b', 'users/a?b', 'users/a#b'])(
    'does not match a simple value holding a raw /, ? or #: %s',
    (uri) => {
      expect(users.match(uri)).toBeUndefined();
    },
  );

  it('does not match a simple value whose decoding holds a /', () => {
    expect(users.match('users/a%2Fb')).toBeUndefined();
    expect(users.match('users/a%2fb')).toBeUndefined();
  });

  it('decodes percent-escapes as UTF-8', () => {
    expect(users.match('users/%C3%A9')).toEqual({ id: 'é' });
    expect(users.match('users/%F0%9F%98%80%3F')).toEqual({ id: '😀?' });
  });

  it.each([
    ['a lone lead byte', 'users/%C3'],
    ['a truncated escape', 'users/%4'],
    ['a non-hex escape', 'users/%zz'],
    ['an overlong encoding', 'users/%C0%AF'],
    ['an encoded surrogate', 'users/%ED%A0%80'],
    ['a stray continuation byte', 'users/%80'],
  ])('does not match a value with %s', (_defect, uri) => {
    expect(users.match(uri)).toBeUndefined();
  });

  it('does not match a leading byte order mark, a format character, rather than dropping it', () => {
    expect(users.match('users/%EF%BB%BFx')).toBeUndefined();
  });

  it.each(['users/%00', 'users/a%1Fb', 'users/%7F', 'users/a\tb', 'users/a\u0000'])(
    'does not match a value holding a control character: %j',
    (uri) => {
      expect(users.match(uri)).toBeUndefined();
    },
  );

  it.each(['users/.', 'users/..', 'users/%2e%2E', 'users/a\\b', 'users/a%5Cb'])(
    'does not match a simple value that walks a path: %s',
    (uri) => {
      expect(users.match(uri)).toBeUndefined();
    },
  );

  it('matches a simple value of dots that is not . or ..', () => {
    expect(users.match('users/...')).toEqual({ id: '...' });
  });

  it('lets a reserved value span slashes', () => {
    expect(files.match('file:///a/b/c.txt')).toEqual({ path: 'a/b/c.txt' });
  });

  it.each([
    'file:///a/../secret',
    'file:///../secret',
    'file:///a/..',
    'file:///a/./b',
    'file:///%2e%2e%2fsecret',
    'file:///a%2F..%2Fb',
    'file:///a/%2E%2E',
  ])('does not match a reserved value with a . or .. segment: %s', (uri) => {
    expect(files.match(uri)).toBeUndefined();
  });

  it.each(['file:///a\\b', 'file:///a%5Cb', 'file:///a%5cb'])(
    'does not match a reserved value holding a backslash: %s',
    (uri) => {
      expect(files.match(uri)).toBeUndefined();
    },
  );

  it.each(['file:////etc/passwd', 'file:///%2Fetc/passwd'])(
    'does not match an absolute reserved value: %s',
    (uri) => {
      expect(files.match(uri)).toBeUndefined();
    },
  );

  it('does not match a reserved value holding a raw ? or #, which delimit query and fragment', () => {
    expect(files.match('file:///a?b')).toBeUndefined();
    expect(files.match('file:///a#b')).toBeUndefined();
    expect(files.match('file:///a%3Fb%23c')).toEqual({ path: 'a?b#c' });
  });

  it('does not match a reserved value holding a control character', () => {
    expect(files.match('file:///a/%0Ab')).toBeUndefined();
  });

  it('does not match a URI holding a lone surrogate', () => {
    expect(users.match('users/a\uD800')).toBeUndefined();
  });

  it('ends a value at the first occurrence of the literal that follows it', () => {
    expect(parseUriTemplate('x/{a}-{b}').match('x/p-q-r')).toEqual({ a: 'p', b: 'q-r' });
    expect(parseUriTemplate('x/{a}-{b}').match('x/-q-r')).toEqual({ a: '-q', b: 'r' });
    // The first `/x/` ends the reserved value, leaving `q/x/r` for a simple one: no match.
    expect(parseUriTemplate('{+a}/x/{b}').match('p/x/q/x/r')).toBeUndefined();
  });

  it('ends the last value where the final literal begins', () => {
    expect(parseUriTemplate('files/{+name}.json').match('files/a.json/b.json')).toEqual({ name: 'a.json/b' });
  });

  it('matches a URI of 8192 bytes and nothing longer', () => {
    const head = 'users/';
    expect(users.match(head + 'a'.repeat(8_192 - head.length))).toBeDefined();
    expect(users.match(head + 'a'.repeat(8_193 - head.length))).toBeUndefined();
  });

  it('counts the bound in UTF-8 bytes', () => {
    const head = 'users/';
    // 'é' is two bytes: 4,093 of them after the head are 8,192 bytes, one more is over.
    expect(users.match(head + 'é'.repeat(4_093))).toBeDefined();
    expect(users.match(`${head + 'é'.repeat(4_093)}a`)).toBeUndefined();
  });

  it('returns a variable named __proto__ as an own property', () => {
    const values = parseUriTemplate('x/{__proto__}').match('x/1');
    expect(Object.getOwnPropertyDescriptor(values, '__proto__')?.value).toBe('1');
  });
});

describe('UriTemplate.expand', () => {
  it('percent-encodes everything but unreserved characters in a simple value', () => {
    expect(parseUriTemplate('users/{id}').expand({ id: "a/b é~-._?#%'" })).toBe(
      'users/a%2Fb%20%C3%A9~-._%3F%23%25%27',
    );
  });

  it('keeps reserved characters raw in a reserved value, except ? # and %', () => {
    expect(parseUriTemplate('file:///{+path}').expand({ path: "a/b:c@d!$&'()*+,;=[]?#%41 é" })).toBe(
      "file:///a/b:c@d!$&'()*+,;=[]%3F%23%2541%20%C3%A9",
    );
  });

  it('expands a missing value to nothing', () => {
    expect(parseUriTemplate('users/{id}/x').expand({})).toBe('users//x');
  });

  it('reads only own values', () => {
    const inherited = Object.create({ id: 'inherited' }) as Record<string, string>;
    expect(parseUriTemplate('x/{id}').expand(inherited)).toBe('x/');
  });
});

describe('values a reader might still be walked out by', () => {
  const file = parseUriTemplate('file:///{+path}');
  const user = parseUriTemplate('users/{id}');

  it.each([
    ['a C1 control (U+0085)', 'users/%C2%85x'],
    ['a bidi override (U+202E)', 'users/%E2%80%AEx'],
    ['a zero-width space (U+200B)', 'users/a%E2%80%8Bb'],
  ])('a {var} holding %s is no match', { tags: ['threat-model'] }, (_label, uri) => {
    expect(user.match(uri)).toBeUndefined();
  });

  it.each([
    ['fullwidth dots', 'file:///a/%EF%BC%8E%EF%BC%8E/b'],
    ['dots and a fullwidth solidus', 'file:///..%EF%BC%8Fetc'],
    ['a Windows drive letter', 'file:///C:/Windows'],
    ['a lowercase drive letter', 'file:///c:/x'],
  ])('a {+var} holding %s is no match', { tags: ['threat-model'] }, (_label, uri) => {
    expect(file.match(uri)).toBeUndefined();
  });

  it('a {var} holding fullwidth dots alone is no match', () => {
    expect(user.match('users/%EF%BC%8E%EF%BC%8E')).toBeUndefined();
  });

  it('a value that merely contains a colon later is still a match', () => {
    expect(file.match('file:///notes/a:b.txt')).toEqual({ path: 'notes/a:b.txt' });
  });
});
