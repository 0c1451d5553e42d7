/**
 * Every bound docs/auth.md states is the bound the code enforces: each claim quotes the page as
 * written (whitespace collapsed) and the figure inside the quote, held to the constant in
 * src/limits.ts. A constant the page does not state is listed as such, so a new bound is a
 * decision here, not a silent gap. And every description a challenge can carry is fixed text an
 * RFC 6750 quoted string can hold, under its length bound.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { RULES } from '../src/index.js';
import * as limits from '../src/limits.js';

type LimitName = keyof typeof limits;

interface Claim {
  readonly limit: LimitName;
  readonly figure: string;
  readonly quote: string;
}

const CLAIMS: readonly Claim[] = [
  { limit: 'DEFAULT_MAX_TOKEN_BYTES', figure: '8192', quote: '| `maxTokenBytes` | `8192` |' },
  { limit: 'MAX_TOKEN_BYTES_CEILING', figure: '65536', quote: '`64` to `65536`' },
  { limit: 'DEFAULT_LEEWAY_SECONDS', figure: '30', quote: '| `leeway` | `30` |' },
  { limit: 'MAX_LEEWAY_SECONDS', figure: '300', quote: '`0` to `300`' },
  { limit: 'DEFAULT_FETCH_TIMEOUT_MS', figure: '5000', quote: '{ timeoutMs: 5000, maxBytes: 262144' },
  { limit: 'DEFAULT_FETCH_MAX_BYTES', figure: '262144', quote: 'maxBytes: 262144, cooldownMs: 30000' },
  { limit: 'DEFAULT_COOLDOWN_MS', figure: '30000', quote: 'cooldownMs: 30000, cacheMaxAgeMs: 600000 }' },
  { limit: 'DEFAULT_CACHE_MAX_AGE_MS', figure: '600000', quote: 'cacheMaxAgeMs: 600000 }' },
  { limit: 'MAX_JWKS_KEYS', figure: '100', quote: 'at most 100 keys' },
  { limit: 'MIN_RSA_BITS', figure: '2,048', quote: 'an RSA modulus under 2,048 bits' },
  { limit: 'MAX_RSA_BITS', figure: '8,192', quote: 'or over 8,192 bits' },
  { limit: 'MAX_REDIRECTS', figure: '2', quote: 'at most 2 on the same one' },
  { limit: 'MAX_TOKEN_CACHE_ENTRIES', figure: '10000', quote: '| `tokenCache` | `10000` |' },
  { limit: 'DEFAULT_INTROSPECTION_CACHE_TTL_MS', figure: '60,000', quote: '`cacheTtlMs` (60,000)' },
  { limit: 'MAX_CONCURRENT_INTROSPECTIONS', figure: '32', quote: 'at most 32 introspections are in flight' },
  { limit: 'MAX_BODY_DEPTH', figure: '64', quote: '(64 levels of nesting' },
];

/** Constants the page states no figure for: ceilings of options, and bounds only the code names. */
const NOT_STATED: readonly LimitName[] = [
  'MAX_KID_CHARS',
  'MAX_FETCH_TIMEOUT_MS',
  'MAX_FETCH_BYTES_CEILING',
  'MAX_COOLDOWN_MS',
  'MAX_CACHE_MAX_AGE_MS',
  'MAX_INTROSPECTION_CACHE_TTL_MS',
  'MAX_DESCRIPTION_CHARS',
];

const page = readFileSync(new URL('../../../docs/auth.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
const enforced: Readonly<Record<string, number>> = { ...limits };

describe('bounds docs/auth.md states', () => {
  test.each(CLAIMS)('docs/auth.md says "$quote" and $limit enforces $figure', (claim) => {
    expect(claim.quote).toContain(claim.figure);
    expect(page).toContain(claim.quote);
    expect(enforced[claim.limit]).toBe(Number(claim.figure.replaceAll(',', '')));
  });

  test('every constant in limits.ts is either checked against the page or listed as not stated there', () => {
    const decided = new Set<string>([...CLAIMS.map((claim) => claim.limit), ...NOT_STATED]);
    expect(Object.keys(enforced).filter((name) => !decided.has(name))).toEqual([]);
  });
});

describe('challenge descriptions', () => {
  test('each is RFC 6750 error_description text (no quote or backslash) within the length bound', () => {
    for (const rule of Object.values(RULES)) {
      if (rule.description === undefined) continue;
      expect(rule.description, rule.rule).toMatch(/^[\x20\x21\x23-\x5b\x5d-\x7e]+$/);
      expect(rule.description.length, rule.rule).toBeLessThanOrEqual(limits.MAX_DESCRIPTION_CHARS);
    }
  });

  test('every rule is named once and listed in docs/auth.md', () => {
    const names = Object.values(RULES).map((rule) => rule.rule);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(page, name).toContain(`| \`${name}\` |`);
  });
});
