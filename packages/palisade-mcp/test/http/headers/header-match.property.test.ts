import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { McpHeaderField } from '../../../src/catalog/mcp-header-annotations.js';
import type { HeaderCheck } from '../../../src/http/headers/check.js';
import { checkModernHeaders } from '../../../src/http/headers/match.js';
import { indexHeaders } from '../../../src/http/headers/values.js';
import { modernHeaderList, sentinel } from '../../support/modern-headers.js';

const FIELDS: readonly McpHeaderField[] = [
  { header: 'Region', path: ['region'], type: 'string' },
  { header: 'Count', path: ['count'], type: 'integer' },
  { header: 'Dry-Run', path: ['options', 'dryRun'], type: 'boolean' },
];
const FIELD_HEADERS: Record<string, string> = { region: 'Mcp-Param-Region', count: 'Mcp-Param-Count' };

const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** A conforming client's spelling (SEP-2243 "Value Encoding"): plain only when it is header-safe. */
function encode(text: string): string {
  const plain =
    /^[\x20-\x7e]*$/.test(text) &&
    !text.startsWith(' ') &&
    !text.endsWith(' ') &&
    !(text.startsWith('=?base64?') && text.endsWith('?='));
  return plain ? text : sentinel(text);
}

interface Args {
  readonly region: string;
  readonly count: number;
  readonly dryRun: boolean;
}

/** A tools/call with all three arguments, under `headers` for the fields and the fixed headers. */
function call(args: Args, fieldHeaders: readonly string[], name = 'deploy'): HeaderCheck {
  return checkModernHeaders({
    headers: indexHeaders(modernHeaderList('tools/call', encode(name), ...fieldHeaders)),
    message: {
      method: 'tools/call',
      isNotification: false,
      params: {
        name,
        arguments: { region: args.region, count: args.count, options: { dryRun: args.dryRun } },
        _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' },
      },
    },
    headerFields: FIELDS,
  });
}

/** The field headers a conforming client sends for `args`, each wrapped in `ows`. */
function conforming(args: Args, ows: readonly [string, string] = ['', '']): string[] {
  const [before, after] = ows;
  return [
    'Mcp-Param-Region',
    before + encode(args.region) + after,
    'Mcp-Param-Count',
    before + String(args.count) + after,
    'Mcp-Param-Dry-Run',
    before + String(args.dryRun) + after,
  ];
}

/** Whole code points (no lone surrogate: UTF-8 cannot carry one), or printable ASCII, or spaces. */
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 24 }),
  fc.string({ maxLength: 24 }),
  fc.string({ unit: fc.constantFrom(' ', '\t', '=', '?', 'a', '\r', '\u00e9'), maxLength: 12 }),
  fc.string({ maxLength: 12 }).map((inner) => `=?base64?${inner}?=`),
);
const safeInteger = fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
const args = fc.record({ region: text, count: safeInteger, dryRun: fc.boolean() });
const ows = fc.tuple(fc.constantFrom('', ' ', '\t', ' \t '), fc.constantFrom('', ' ', '\t', '\t '));

/** Ways to make a canonical base64 payload non-canonical; each applies only to some payloads. */
function nonCanonical(payload: string, pick: number, at: number): string {
  const choices: string[] = [`${payload}=`, `${payload}A`];
  if (payload.endsWith('=')) choices.push(payload.replace(/=+$/, ''));
  if (payload.length > 0) {
    const i = at % payload.length;
    choices.push(
      `${payload.slice(0, i)}-${payload.slice(i + 1)}`,
      `${payload.slice(0, i)}*${payload.slice(i)}`,
    );
  }
  const padded = payload.match(/(.)(=+)$/);
  if (padded !== null) {
    // The last data character before padding carries unused bits; a canonical one has them zero.
    const last = payload.length - padded[0].length;
    const withBit = BASE64_ALPHABET[BASE64_ALPHABET.indexOf(padded[1]!) | 1]!;
    choices.push(payload.slice(0, last) + withBit + payload.slice(last + 1));
  }
  return choices[pick % choices.length]!;
}

describe('header-match properties', () => {
  it('a conforming client always matches, with any whitespace around its values', {
    tags: ['threat-model'],
  }, () => {
    fc.assert(
      fc.property(args, ows, text, (values, around, name) => {
        expect(call(values, conforming(values, around), name)).toEqual({ ok: true });
      }),
    );
  });

  it('an integer with a zero fraction matches the same integer', () => {
    fc.assert(
      fc.property(args, fc.integer({ min: 1, max: 5 }), (values, zeros) => {
        const headers = conforming(values);
        headers[3] = `${values.count}.${'0'.repeat(zeros)}`;
        expect(call(values, headers)).toEqual({ ok: true });
      }),
    );
  });

  it('a header spelling another value never matches', { tags: ['threat-model'] }, () => {
    fc.assert(
      fc.property(args, args, (sent, body) => {
        fc.pre(sent.region !== body.region || sent.count !== body.count || sent.dryRun !== body.dryRun);
        expect(call(body, conforming(sent)).ok).toBe(false);
      }),
    );
  });

  it('a repeated field header never matches, whatever the repeat says and wherever it sits', {
    tags: ['threat-model'],
  }, () => {
    fc.assert(
      fc.property(
        args,
        text,
        fc.constantFrom('region', 'count'),
        fc.constantFrom(
          (n: string) => n,
          (n: string) => n.toLowerCase(),
          (n: string) => n.toUpperCase(),
        ),
        fc.nat(6),
        (values, extra, field, spell, at) => {
          const headers = conforming(values);
          const slot = at - (at % 2);
          headers.splice(slot, 0, spell(FIELD_HEADERS[field]!), encode(extra));
          expect(call(values, headers).ok).toBe(false);
        },
      ),
    );
  });

  it('a non-canonical base64 spelling never matches', { tags: ['threat-model'] }, () => {
    fc.assert(
      fc.property(args, fc.nat(), fc.nat(), (values, pick, at) => {
        const payload = Buffer.from(values.region, 'utf8').toString('base64');
        const headers = conforming(values);
        headers[1] = `=?base64?${nonCanonical(payload, pick, at)}?=`;
        expect(call(values, headers).ok).toBe(false);
      }),
    );
  });

  it('a sentinel matches exactly when its bytes are well-formed UTF-8 of the body string', () => {
    const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    fc.assert(
      fc.property(args, fc.uint8Array({ maxLength: 12 }), (values, bytes) => {
        let decoded: string | undefined;
        try {
          decoded = strict.decode(bytes);
        } catch {
          decoded = undefined;
        }
        const body = { ...values, region: decoded ?? values.region };
        const headers = conforming(body);
        headers[1] = `=?base64?${Buffer.from(bytes).toString('base64')}?=`;
        expect(call(body, headers).ok).toBe(decoded !== undefined);
      }),
    );
  });

  it('never throws on arbitrary header arrays, and every refusal is short and names its rule', {
    tags: ['threat-model'],
  }, () => {
    const name = fc.oneof(
      fc.constantFrom(
        'MCP-Protocol-Version',
        'Mcp-Method',
        'Mcp-Name',
        'Mcp-Param-Region',
        'mcp-param-count',
      ),
      fc.constantFrom('Mcp-Param-Dry-Run', 'constructor', '__proto__', 'Mcp-Param-'),
      fc.string({ unit: 'binary', maxLength: 20 }),
    );
    const rawHeaders = fc.array(fc.oneof(name, text), { maxLength: 24 });
    const method = fc.constantFrom(
      'tools/call',
      'prompts/get',
      'resources/read',
      'tools/list',
      'constructor',
    );
    const params = fc.dictionary(
      fc.constantFrom('name', 'uri', 'arguments', '_meta', '__proto__'),
      fc.jsonValue({ maxDepth: 3 }),
    );
    fc.assert(
      fc.property(rawHeaders, method, params, fc.boolean(), (raw, m, p, isNotification) => {
        const check = checkModernHeaders({
          headers: indexHeaders(raw),
          message: { method: m, params: p, isNotification },
          headerFields: FIELDS,
        });
        if (!check.ok) {
          expect(check.message).toMatch(/^Header mismatch: \S+ /);
          expect(check.message.length).toBeLessThanOrEqual(136);
        }
      }),
    );
  });
});
