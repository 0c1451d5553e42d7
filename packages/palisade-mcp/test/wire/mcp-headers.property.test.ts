/**
 * The client's side and the server's side of the MCP headers are one rule: whatever
 * `mcpRequestHeaders` writes for a request, the server's header match (the same function the HTTP
 * transports run) admits, whatever names, URIs and arguments the request carries.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkModernHeaders, indexHeaders } from '../../src/http/headers/index.js';
import { type McpHeaderField, META_PROTOCOL_VERSION, mcpRequestHeaders } from '../../src/wire/index.js';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }).filter((value) => !LONE_SURROGATE.test(value)),
  fc.constant('=?base64?SGk=?='),
);
const SAFE = Number.MAX_SAFE_INTEGER;
const token = fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,12}$/);

/** Up to four fields with distinct header names (case-insensitively) and distinct paths. */
const fields = fc
  .uniqueArray(fc.record({ header: token, type: fc.constantFrom('string', 'integer', 'boolean') }), {
    maxLength: 4,
    selector: (field) => field.header.toLowerCase(),
  })
  .map((list) =>
    list.map(
      (field, index): McpHeaderField => ({
        header: field.header,
        path: index % 2 === 0 ? [`p${index}`] : ['nested', `p${index}`],
        type: field.type as McpHeaderField['type'],
      }),
    ),
  );

function valueFor(type: McpHeaderField['type']): fc.Arbitrary<unknown> {
  if (type === 'integer') return fc.integer({ min: -SAFE, max: SAFE });
  if (type === 'boolean') return fc.boolean();
  return text;
}

const call = fields.chain((declared) =>
  fc
    .tuple(text, ...declared.map((field) => fc.option(valueFor(field.type), { nil: undefined })))
    .map(([name, ...values]) => {
      const args: Record<string, unknown> = {};
      declared.forEach((field, index) => {
        if (values[index] === undefined) return;
        let node = args;
        for (const key of field.path.slice(0, -1)) {
          node[key] ??= {};
          node = node[key] as Record<string, unknown>;
        }
        node[field.path.at(-1)!] = values[index];
      });
      return { declared, name, args };
    }),
);

function rawHeaders(headers: Record<string, string>): string[] {
  return Object.entries(headers).flat();
}

describe('the headers a client writes, as the server reads them', () => {
  it('a tools/call written by mcpRequestHeaders always matches its body', () => {
    fc.assert(
      fc.property(call, ({ declared, name, args }) => {
        const params = { name, arguments: args, _meta: { [META_PROTOCOL_VERSION]: '2026-07-28' } };
        const headers = mcpRequestHeaders({ method: 'tools/call', params }, '2026-07-28', declared);
        const check = checkModernHeaders({
          headers: indexHeaders(rawHeaders(headers)),
          message: { method: 'tools/call', params, isNotification: false },
          headerFields: declared,
        });
        expect(check).toEqual({ ok: true });
      }),
      { numRuns: 1_000 },
    );
  });

  it('a resources/read of any URI written by mcpRequestHeaders always matches its body', () => {
    fc.assert(
      fc.property(text, (uri) => {
        const params = { uri, _meta: { [META_PROTOCOL_VERSION]: '2026-07-28' } };
        const headers = mcpRequestHeaders({ method: 'resources/read', params }, '2026-07-28');
        const check = checkModernHeaders({
          headers: indexHeaders(rawHeaders(headers)),
          message: { method: 'resources/read', params, isNotification: false },
        });
        expect(check).toEqual({ ok: true });
      }),
      { numRuns: 500 },
    );
  });
});
