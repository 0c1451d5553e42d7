import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { McpHeaderField } from '../../src/catalog/mcp-header-annotations.js';
import { parseStrictInteger } from '../../src/http/headers/integer.js';
import { checkModernHeaders } from '../../src/http/headers/match.js';
import { indexHeaders } from '../../src/http/headers/values.js';
import { decodeHeaderValue } from '../../src/wire/header-value.js';

const SAFE = Number.MAX_SAFE_INTEGER;
const safeInteger = fc.oneof(
  fc.integer({ min: -SAFE, max: SAFE }),
  fc.constantFrom(0, -1, 1, SAFE, -SAFE, SAFE - 1),
);
const zeros = fc.integer({ min: 0, max: 6 }).map((n) => (n === 0 ? '' : `.${'0'.repeat(n)}`));
/** The only grammar a strict integer may take: JSON digits, an optional fraction of zeros. */
const STRICT = /^-?(?:0|[1-9][0-9]*)(?:\.0+)?$/;

/** A spelling of `n` some reader accepts and the strict grammar must not. */
function loose(n: number, pick: number): string {
  const digits = String(Math.abs(n));
  const sign = n < 0 ? '-' : '';
  const choices = [
    `+${digits}`,
    `${sign}0${digits}`,
    `${sign}0x${Math.abs(n).toString(16)}`,
    `${n}e0`,
    `${n}E+0`,
    `${n}.`,
    `${sign}${digits}.5`,
    `${n}\u00a0`,
    ` ${n}`,
    `${sign}${digits.slice(0, 1)}_${digits.slice(1)}0`,
    `${sign}${digits.slice(0, 1)} ${digits.slice(1)}0`,
    `${n}n`,
    `${sign}\uff11${digits}`,
    `${sign}Infinity`,
    '',
    '-',
    '.0',
  ];
  return choices[pick % choices.length]!;
}

const FIELDS: readonly McpHeaderField[] = [{ header: 'Count', path: ['count'], type: 'integer' }];

function countCall(headerValue: string, count: unknown) {
  return checkModernHeaders({
    headers: indexHeaders([
      'MCP-Protocol-Version',
      '2026-07-28',
      'Mcp-Method',
      'tools/call',
      'Mcp-Name',
      'deploy',
      'Mcp-Param-Count',
      headerValue,
    ]),
    message: {
      method: 'tools/call',
      isNotification: false,
      params: {
        name: 'deploy',
        arguments: { count },
        _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' },
      },
    },
    headerFields: FIELDS,
  });
}

describe('integer header properties', () => {
  it('reads every strict spelling of a safe integer as that integer', () => {
    fc.assert(
      fc.property(safeInteger, zeros, (n, fraction) => {
        expect(parseStrictInteger(`${n}${fraction}`)).toBe(n === 0 ? 0 : n);
      }),
      { numRuns: 300 },
    );
  });

  it('reads any string as a safe integer only when it is in the strict grammar', () => {
    const anyText = fc.oneof(
      fc.string({ unit: fc.constantFrom(...'-+0123456789.eExn_ '), maxLength: 24 }),
      fc.string({ maxLength: 24 }),
    );
    fc.assert(
      fc.property(anyText, (text) => {
        const value = parseStrictInteger(text);
        if (value === undefined) return;
        expect(STRICT.test(text)).toBe(true);
        expect(Number.isSafeInteger(value)).toBe(true);
        expect(value).toBe(Number(text));
      }),
      { numRuns: 500 },
    );
  });

  it('refuses a loose spelling of any integer', () => {
    fc.assert(
      fc.property(safeInteger, fc.nat(), (n, pick) => {
        const text = loose(n, pick);
        fc.pre(!STRICT.test(text));
        expect(parseStrictInteger(text)).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it('refuses every integer past the safe range, however it is spelled', () => {
    const unsafe = fc
      .bigInt({ min: BigInt(SAFE) + 1n, max: 10n ** 30n })
      .chain((big) => fc.tuple(fc.constant(big), fc.boolean(), zeros));
    fc.assert(
      fc.property(unsafe, ([big, negative, fraction]) => {
        expect(parseStrictInteger(`${negative ? '-' : ''}${big}${fraction}`)).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });

  it('matches an integer header to the body exactly when both name the same number', () => {
    const bodyCount = fc.oneof(safeInteger, fc.double({ noNaN: true }), fc.constantFrom(-0, 0.5, 1e21));
    fc.assert(
      fc.property(safeInteger, zeros, bodyCount, (n, fraction, count) => {
        const check = countCall(`${n}${fraction}`, count);
        if (count === n) expect(check).toEqual({ ok: true });
        else expect(check.ok).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a loose integer header by name, never by its value', () => {
    fc.assert(
      fc.property(safeInteger, fc.nat(), (n, pick) => {
        const text = loose(n, pick);
        fc.pre(!STRICT.test(text) && text.trim() === text && text.length > 0 && /^[\x21-\x7e]+$/.test(text));
        expect(countCall(text, n)).toEqual({
          ok: false,
          header: 'Mcp-Param-Count',
          message: 'Header mismatch: Mcp-Param-Count is not a decimal integer within the safe range',
        });
      }),
      { numRuns: 300 },
    );
  });
});

describe('base64 sentinel properties', () => {
  const PREFIX = '=?base64?';
  const SUFFIX = '?=';
  const codePoints = fc.string({ unit: 'binary', maxLength: 40 });

  it('decodes the canonical sentinel of any text back to that text', () => {
    fc.assert(
      fc.property(codePoints, (text) => {
        expect(decodeHeaderValue(`${PREFIX}${Buffer.from(text, 'utf8').toString('base64')}${SUFFIX}`)).toBe(
          text,
        );
      }),
      { numRuns: 300 },
    );
  });

  it('decodes a payload only when it is the one canonical spelling of its bytes', () => {
    const payload = fc.oneof(
      fc.string({ unit: fc.constantFrom(...'AQgwBCz09+/-_=. '), maxLength: 16 }),
      fc.uint8Array({ maxLength: 12 }).map((bytes) => Buffer.from(bytes).toString('base64')),
      fc.uint8Array({ maxLength: 12 }).map((bytes) => Buffer.from(bytes).toString('base64url')),
    );
    fc.assert(
      fc.property(payload, (inner) => {
        const decoded = decodeHeaderValue(`${PREFIX}${inner}${SUFFIX}`);
        if (decoded === undefined) return;
        // Admitted: re-encoding the text gives back the very payload, so no two spellings collide.
        expect(Buffer.from(decoded, 'utf8').toString('base64')).toBe(inner);
      }),
      { numRuns: 500 },
    );
  });

  it('returns any value without both lowercase markers unchanged', () => {
    const literal = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.string({ maxLength: 12 }).map((inner) => `=?BASE64?${inner}?=`),
      fc.string({ maxLength: 12 }).map((inner) => `${PREFIX}${inner}`),
      fc.string({ maxLength: 12 }).map((inner) => `${inner}${SUFFIX}`),
      fc.constantFrom('=?base64?=', '=?base64?', '?=', ''),
    );
    fc.assert(
      fc.property(literal, (value) => {
        fc.pre(
          !(
            value.length >= PREFIX.length + SUFFIX.length &&
            value.startsWith(PREFIX) &&
            value.endsWith(SUFFIX)
          ),
        );
        expect(decodeHeaderValue(value)).toBe(value);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a sentinel whose bytes are not well-formed UTF-8', () => {
    const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 16 }), (bytes) => {
        let wellFormed = true;
        try {
          strict.decode(bytes);
        } catch {
          wellFormed = false;
        }
        const decoded = decodeHeaderValue(`${PREFIX}${Buffer.from(bytes).toString('base64')}${SUFFIX}`);
        expect(decoded === undefined).toBe(!wellFormed);
      }),
      { numRuns: 300 },
    );
  });
});
