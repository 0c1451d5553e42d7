import { describe, expect, test } from 'vitest';
import { createServer, PalisadeError, type ServerDefinition } from '../../src/index.js';

const handler = () => ({ content: [] });
const open = { type: 'object' } as const;

function refusal(definition: unknown): PalisadeError {
  try {
    createServer(definition as ServerDefinition);
  } catch (error) {
    expect(error).toBeInstanceOf(PalisadeError);
    return error as PalisadeError;
  }
  throw new Error('createServer accepted the definition');
}

describe('createServer refuses a defective catalog at construction, naming the defect', () => {
  test('a minimal server is accepted', () => {
    expect(createServer({ name: 'ok', version: '1' }).info).toEqual({ name: 'ok', version: '1' });
  });

  test('an unknown option is refused by name', { tags: ['threat-model'] }, () => {
    const error = refusal({ name: 'x', version: '1', pageSzie: 10 });
    expect(error.code).toBe('PALISADE_ERR_UNKNOWN_OPTION');
    expect(error.message).toContain('"pageSzie"');
  });

  test('a missing name is refused', () => {
    expect(refusal({ version: '1' }).message).toContain('"name"');
  });

  test('a page size of 0 is refused', () => {
    expect(refusal({ name: 'x', version: '1', pageSize: 0 }).code).toBe('PALISADE_ERR_INVALID_OPTION');
  });

  test('an unknown revision in supportedVersions is refused', () => {
    expect(refusal({ name: 'x', version: '1', supportedVersions: ['2024-10-07'] }).message).toContain(
      'supportedVersions',
    );
  });

  test('an empty supportedVersions is refused', () => {
    expect(refusal({ name: 'x', version: '1', supportedVersions: [] }).message).toContain(
      'supportedVersions',
    );
  });

  test('a cache hint with a negative ttlMs is refused', () => {
    expect(
      refusal({ name: 'x', version: '1', cache: { tools: { ttlMs: -1, scope: 'public' } } }).message,
    ).toContain('cache.tools.ttlMs');
  });

  test('a duplicate tool name is refused naming it', { tags: ['threat-model'] }, () => {
    const tool = { name: 'dup', inputSchema: open, handler };
    const error = refusal({ name: 'x', version: '1', tools: [tool, tool] });
    expect(error.code).toBe('PALISADE_ERR_CATALOG_DUPLICATE');
    expect(error.message).toContain('"dup"');
  });

  test('an empty tool name is refused naming where it is', () => {
    expect(
      refusal({ name: 'x', version: '1', tools: [{ name: '', inputSchema: open, handler }] }).message,
    ).toContain('tools[0].name');
  });

  const RULE = 'a tool name is 1 to 128 characters of A-Z a-z 0-9 _ . -';
  test.each([
    ['has space', `tool "has space" (tools[1]): its name holds " " at index 3; ${RULE}`],
    ['slash/name', `tool "slash/name" (tools[1]): its name holds "/" at index 5; ${RULE}`],
    ['ünicode', `tool "\\u00fcnicode" (tools[1]): its name holds "\\u00fc" at index 0; ${RULE}`],
    ['line\nbreak', `tool "line\\nbreak" (tools[1]): its name holds "\\n" at index 4; ${RULE}`],
    ['a'.repeat(200), `tool "${'a'.repeat(128)}"… (tools[1]): its name is 200 characters long; ${RULE}`],
  ])(
    'the tool name %j is refused by the name given, quoted, escaped and cut, saying what is wrong',
    (name, message) => {
      const tools = [
        { name: 'fine', inputSchema: open, handler },
        { name, inputSchema: open, handler },
      ];
      const error = refusal({ name: 'x', version: '1', tools });
      expect(error.code).toBe('PALISADE_ERR_CATALOG_INVALID');
      expect(error.message).toBe(message);
    },
  );

  test('a tool name of exactly 128 characters is accepted', () => {
    expect(() =>
      createServer({
        name: 'x',
        version: '1',
        tools: [{ name: 'a'.repeat(128), inputSchema: open, handler }],
      }),
    ).not.toThrow();
  });

  test('a tool without a handler is refused', () => {
    expect(refusal({ name: 'x', version: '1', tools: [{ name: 't', inputSchema: open }] }).message).toContain(
      'handler',
    );
  });

  test('an unknown key on a tool is refused by name', () => {
    const error = refusal({
      name: 'x',
      version: '1',
      tools: [{ name: 't', inputSchema: open, handler, inputschema: {} }],
    });
    expect(error.message).toContain('tools[0].inputschema');
  });

  test('an inputSchema whose root is not type object is refused', () => {
    expect(() =>
      createServer({
        name: 'x',
        version: '1',
        tools: [{ name: 't', inputSchema: { type: 'string' }, handler }],
      }),
    ).toThrow(PalisadeError);
  });

  test('a schema that does not compile is refused', () => {
    expect(() =>
      createServer({
        name: 'x',
        version: '1',
        tools: [
          { name: 't', inputSchema: { type: 'object', properties: { a: { type: 'strng' } } }, handler },
        ],
      }),
    ).toThrow(PalisadeError);
  });

  test('a schema keyword the validator would not enforce is refused', () => {
    expect(() =>
      createServer({
        name: 'x',
        version: '1',
        tools: [{ name: 't', inputSchema: { type: 'object', maxPropertiez: 2 }, handler }],
      }),
    ).toThrow(PalisadeError);
  });

  test('an x-mcp-header on an object property is refused', () => {
    expect(() =>
      createServer({
        name: 'x',
        version: '1',
        tools: [
          {
            name: 't',
            inputSchema: { type: 'object', properties: { a: { type: 'object', 'x-mcp-header': 'A' } } },
            handler,
          },
        ],
      }),
    ).toThrow(PalisadeError);
  });

  test('a listed resource with no reader is refused', { tags: ['threat-model'] }, () => {
    expect(refusal({ name: 'x', version: '1', resources: [{ uri: 'a://b', name: 'b' }] }).message).toContain(
      'resources[0].read',
    );
  });

  test('a duplicate resource URI is refused', () => {
    const resource = { uri: 'a://b', name: 'b', read: () => undefined };
    expect(refusal({ name: 'x', version: '1', resources: [resource, resource] }).code).toBe(
      'PALISADE_ERR_CATALOG_DUPLICATE',
    );
  });

  test('a resource URI that is not absolute is refused', () => {
    expect(
      refusal({ name: 'x', version: '1', resources: [{ uri: 'relative', name: 'r', read: () => undefined }] })
        .message,
    ).toContain('resources[0].uri');
  });

  test.each(['demo://{#frag}', 'demo://{a,b}', 'demo://{a*}', 'demo://{a}{b}', 'demo://{', 'demo://{a}/{a}'])(
    'the template %s is refused',
    { tags: ['threat-model'] },
    (uriTemplate) => {
      expect(() =>
        createServer({
          name: 'x',
          version: '1',
          resourceTemplates: [{ uriTemplate, name: 't', read: () => undefined }],
        }),
      ).toThrow(PalisadeError);
    },
  );

  test('a completer for a variable the template lacks is refused', () => {
    const error = refusal({
      name: 'x',
      version: '1',
      resourceTemplates: [
        { uriTemplate: 'demo://{id}', name: 't', read: () => undefined, complete: { other: () => [] } },
      ],
    });
    expect(error.message).toContain('"other"');
  });

  test('a duplicate prompt argument is refused', () => {
    const error = refusal({
      name: 'x',
      version: '1',
      prompts: [{ name: 'p', arguments: [{ name: 'a' }, { name: 'a' }], get: () => ({ messages: [] }) }],
    });
    expect(error.code).toBe('PALISADE_ERR_CATALOG_DUPLICATE');
  });

  test('a PalisadeError is recognised across copies by its brand', () => {
    const foreign = Object.assign(new Error('x'), { [Symbol.for('palisade-mcp.error')]: true });
    expect(foreign instanceof PalisadeError).toBe(true);
    expect(new Error('x') instanceof PalisadeError).toBe(false);
  });
});

describe('listing metadata must be plain JSON data', () => {
  test.each([
    ['a BigInt in _meta', { _meta: { x: 10n } }],
    ['a NaN in _meta', { _meta: { x: Number.NaN } }],
    ['a function in annotations', { annotations: { f: () => 1 } }],
  ])('a tool with %s is refused at construction, not on every tools/list', (_label, extra) => {
    const error = refusal({
      name: 'x',
      version: '1',
      tools: [{ name: 't', inputSchema: open, handler, ...extra }],
    });
    expect(error.message).toContain('must be plain JSON data');
  });

  test('a cycle in a resource _meta is refused at construction', () => {
    const meta: Record<string, unknown> = {};
    meta['self'] = meta;
    const error = refusal({
      name: 'x',
      version: '1',
      resources: [{ uri: 'a://b', name: 'b', read: () => undefined, _meta: meta }],
    });
    expect(error.message).toContain('resources[0]._meta must be plain JSON data');
  });
});
