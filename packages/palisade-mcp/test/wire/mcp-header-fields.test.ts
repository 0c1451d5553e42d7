import { describe, expect, it } from 'vitest';
import { readMcpHeaderFields } from '../../src/wire/mcp-header-fields.js';

describe('x-mcp-header fields as a client reads them from tools/list', () => {
  it('are the annotated properties reached through properties alone, in document order', () => {
    expect(
      readMcpHeaderFields({
        type: 'object',
        properties: {
          region: { type: 'string', 'x-mcp-header': 'Region' },
          target: { type: 'object', properties: { id: { type: 'integer', 'x-mcp-header': 'Target-Id' } } },
          dryRun: { type: 'boolean', 'x-mcp-header': 'dry_run' },
        },
      }),
    ).toEqual({
      ok: true,
      fields: [
        { header: 'Region', path: ['region'], type: 'string' },
        { header: 'Target-Id', path: ['target', 'id'], type: 'integer' },
        { header: 'dry_run', path: ['dryRun'], type: 'boolean' },
      ],
    });
  });

  it('an annotation under items makes the tool one to drop, naming where and why', () => {
    expect(
      readMcpHeaderFields({
        type: 'object',
        properties: { list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } },
      }),
    ).toEqual({
      ok: false,
      at: '#/properties/list/items',
      rule: 'is not on a property reached from the root through properties alone',
    });
  });

  it('two names equal but for case make the tool one to drop', () => {
    expect(
      readMcpHeaderFields({
        type: 'object',
        properties: {
          a: { type: 'string', 'x-mcp-header': 'Region' },
          b: { type: 'string', 'x-mcp-header': 'REGION' },
        },
      }),
    ).toEqual({
      ok: false,
      at: '#/properties/b (property "b")',
      rule: 'names "REGION", already used as "Region"',
    });
  });

  it('a name that is not an RFC 9110 token, or a number property, makes the tool one to drop', () => {
    const spaced = readMcpHeaderFields({
      type: 'object',
      properties: { a: { type: 'string', 'x-mcp-header': 'Two Words' } },
    });
    expect(spaced).toMatchObject({ ok: false, rule: 'names "Two Words", which is not an RFC 9110 token' });
    const number = readMcpHeaderFields({
      type: 'object',
      properties: { a: { type: 'number', 'x-mcp-header': 'A' } },
    });
    expect(number).toMatchObject({
      ok: false,
      rule: 'must annotate a property whose type is exactly "string", "integer" or "boolean"',
    });
  });

  it('any annotation in an outputSchema is refused', () => {
    expect(
      readMcpHeaderFields(
        { type: 'object', properties: { a: { type: 'string', 'x-mcp-header': 'A' } } },
        'output',
      ),
    ).toMatchObject({ ok: false, rule: 'is refused: headers mirror arguments, not results' });
  });

  it('a schema without annotations declares no field', () => {
    expect(readMcpHeaderFields({ type: 'object', properties: { a: { type: 'string' } } })).toEqual({
      ok: true,
      fields: [],
    });
  });

  it('a schema that is not an object, as a server may send, is refused rather than thrown on', () => {
    for (const schema of [null, 'object', [], 7]) {
      expect(readMcpHeaderFields(schema as never)).toEqual({
        ok: false,
        at: '#',
        rule: 'is on a schema that is not an object',
      });
    }
  });
});
