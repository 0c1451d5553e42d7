import { describe, expect, it, test } from 'vitest';
import { defineTool } from '../../../src/catalog/define-tool.js';
import type { McpHeaderField } from '../../../src/catalog/mcp-header-annotations.js';
import type { HeaderCheck } from '../../../src/http/headers/check.js';
import { checkModernHeaders, readVersionHeader } from '../../../src/http/headers/match.js';
import { headerValues, indexHeaders } from '../../../src/http/headers/values.js';
import { createHttpHandler } from '../../../src/http/node/handler.js';
import { createServer } from '../../../src/server.js';
import { closeAfterEach } from '../../support/close-after-each.js';
import { ADMIT_ALL, exchange, modernRequest, mount, mountHandler, post } from '../../support/http-peer.js';
import { modernHeaderList, sentinel } from '../../support/modern-headers.js';

const closeLater = closeAfterEach();

const REGION: McpHeaderField = { header: 'Region', path: ['region'], type: 'string' };
const COUNT: McpHeaderField = { header: 'Count', path: ['count'], type: 'integer' };
const DRY_RUN: McpHeaderField = { header: 'Dry-Run', path: ['dryRun'], type: 'boolean' };

/** `accepted`, or the refusal's message: one string to compare. */
function outcome(check: HeaderCheck): string {
  return check.ok ? 'accepted' : check.message;
}

function meta(version = '2026-07-28'): Record<string, unknown> {
  return { 'io.modelcontextprotocol/protocolVersion': version };
}

/** A request (or, with `isNotification`, a notification) of `method` with `params`. */
function modern(
  rawHeaders: readonly string[],
  method: string,
  params: Record<string, unknown>,
  isNotification = false,
): string {
  return outcome(
    checkModernHeaders({ headers: indexHeaders(rawHeaders), message: { method, params, isNotification } }),
  );
}

/** A `tools/call` of `get_weather` whose fixed headers are right; `headers` come after them. */
function toolsCall(
  headers: readonly string[],
  args: Record<string, unknown>,
  fields: readonly McpHeaderField[] = [REGION],
): string {
  return outcome(
    checkModernHeaders({
      headers: indexHeaders(modernHeaderList('tools/call', 'get_weather', ...headers)),
      message: {
        method: 'tools/call',
        isNotification: false,
        params: { name: 'get_weather', arguments: args, _meta: meta() },
      },
      headerFields: fields,
    }),
  );
}

/** `tools/list` headers with `Mcp-Method` last, so a test can add after the version. */
function toolsList(rawHeaders: readonly string[]): string {
  return modern(rawHeaders, 'tools/list', { _meta: meta() });
}

describe('headerValues', () => {
  it('returns every value of a name in order, matching the name in any case', () => {
    expect(headerValues(['mcp-name', 'a', 'Host', 'h', 'MCP-NAME', 'b'], 'Mcp-Name')).toEqual(['a', 'b']);
  });

  it('gives an unpaired last name the empty value', () => {
    expect(headerValues(['Host', 'h', 'Mcp-Name'], 'mcp-name')).toEqual(['']);
  });
});

describe('checkModernHeaders: the fixed headers', () => {
  it('accepts a tools/call whose headers mirror its body', { tags: ['threat-model'] }, () => {
    expect(toolsCall(['Mcp-Param-Region', 'us-west1'], { region: 'us-west1' })).toBe('accepted');
  });

  it('refuses a request without MCP-Protocol-Version', () => {
    expect(toolsList(['Mcp-Method', 'tools/list'])).toBe('Header mismatch: MCP-Protocol-Version is missing');
  });

  it('refuses an MCP-Protocol-Version that differs from params._meta', { tags: ['threat-model'] }, () => {
    expect(toolsList(['MCP-Protocol-Version', '2025-11-25', 'Mcp-Method', 'tools/list'])).toBe(
      'Header mismatch: MCP-Protocol-Version does not match the body',
    );
  });

  it('leaves a body without a _meta protocol version to the _meta check', () => {
    expect(modern(modernHeaderList('tools/list'), 'tools/list', {})).toBe('accepted');
  });

  it('refuses a request without Mcp-Method', () => {
    expect(toolsList(['MCP-Protocol-Version', '2026-07-28'])).toBe('Header mismatch: Mcp-Method is missing');
  });

  it('compares Mcp-Method with the method case-sensitively', { tags: ['threat-model'] }, () => {
    expect(toolsList(['MCP-Protocol-Version', '2026-07-28', 'Mcp-Method', 'Tools/List'])).toBe(
      'Header mismatch: Mcp-Method does not match the body',
    );
  });

  it('compares header names case-insensitively', () => {
    expect(toolsList(['mcp-protocol-version', '2026-07-28', 'MCP-METHOD', 'tools/list'])).toBe('accepted');
  });

  it('does not fold a non-ASCII letter into a header name', () => {
    const kind: McpHeaderField = { header: 'Kind', path: ['kind'], type: 'string' };
    expect(toolsCall(['Mcp-Param-\u212Aind', 'x'], { kind: 'x' }, [kind])).toBe(
      'Header mismatch: Mcp-Param-Kind is missing',
    );
  });

  it('refuses a tools/call without Mcp-Name', () => {
    const headers = modernHeaderList('tools/call');
    expect(modern(headers, 'tools/call', { name: 'get_weather', _meta: meta() })).toBe(
      'Header mismatch: Mcp-Name is missing',
    );
  });

  it('refuses an Mcp-Name that differs from params.name on tools/call', () => {
    const headers = modernHeaderList('tools/call', 'get_time');
    expect(modern(headers, 'tools/call', { name: 'get_weather', _meta: meta() })).toBe(
      'Header mismatch: Mcp-Name does not match the body',
    );
  });

  it('refuses an Mcp-Name that differs from params.name on prompts/get', () => {
    const headers = modernHeaderList('prompts/get', 'farewell');
    expect(modern(headers, 'prompts/get', { name: 'greeting', _meta: meta() })).toBe(
      'Header mismatch: Mcp-Name does not match the body',
    );
  });

  it('holds Mcp-Name to params.uri on resources/read', { tags: ['threat-model'] }, () => {
    const headers = modernHeaderList('resources/read', 'file:///a.txt');
    expect(modern(headers, 'resources/read', { uri: 'file:///a.txt', _meta: meta() })).toBe('accepted');
  });

  it('refuses an Mcp-Name when the body name is not a string', () => {
    const headers = modernHeaderList('tools/call', '42');
    expect(modern(headers, 'tools/call', { name: 42, _meta: meta() })).toBe(
      'Header mismatch: Mcp-Name does not match the body',
    );
  });

  it('ignores Mcp-Name on a method with no name in its body', () => {
    expect(toolsList(modernHeaderList('tools/list', 'anything'))).toBe('accepted');
  });

  it('names the version header first when several headers fail', () => {
    expect(toolsList(['MCP-Protocol-Version', '2025-11-25', 'Mcp-Method', 'tools/call'])).toBe(
      'Header mismatch: MCP-Protocol-Version does not match the body',
    );
  });
});

describe('checkModernHeaders: notifications', () => {
  it('accepts a notification that carries no headers', () => {
    expect(modern([], 'notifications/initialized', {}, true)).toBe('accepted');
  });

  it('refuses a notification whose Mcp-Method disagrees with its method', () => {
    expect(modern(['Mcp-Method', 'notifications/cancelled'], 'notifications/initialized', {}, true)).toBe(
      'Header mismatch: Mcp-Method does not match the body',
    );
  });
  it('reads an unpaired last header name as an empty value', () => {
    expect(modern(['Mcp-Method'], 'notifications/initialized', {}, true)).toBe(
      'Header mismatch: Mcp-Method does not match the body',
    );
  });
});

describe('checkModernHeaders: repeated headers', () => {
  it('refuses a second Mcp-Method line that disagrees with the first', { tags: ['threat-model'] }, () => {
    expect(
      toolsList([
        'MCP-Protocol-Version',
        '2026-07-28',
        'Mcp-Method',
        'tools/list',
        'Mcp-Method',
        'tools/call',
      ]),
    ).toBe('Header mismatch: Mcp-Method is repeated; it must appear once');
  });

  it('refuses a repeated MCP-Protocol-Version even when the values agree', { tags: ['threat-model'] }, () => {
    expect(
      toolsList([
        'MCP-Protocol-Version',
        '2026-07-28',
        'mcp-protocol-version',
        '2026-07-28',
        'Mcp-Method',
        'tools/list',
      ]),
    ).toBe('Header mismatch: MCP-Protocol-Version is repeated; it must appear once');
  });

  it('refuses a repeated Mcp-Name on a method that otherwise ignores it', () => {
    expect(
      toolsList([
        'MCP-Protocol-Version',
        '2026-07-28',
        'Mcp-Method',
        'tools/list',
        'Mcp-Name',
        'a',
        'Mcp-Name',
        'a',
      ]),
    ).toBe('Header mismatch: Mcp-Name is repeated; it must appear once');
  });

  it('refuses a repeated declared Mcp-Param header even when the values agree', {
    tags: ['threat-model'],
  }, () => {
    expect(toolsCall(['Mcp-Param-Region', 'eu', 'mcp-param-region', 'eu'], { region: 'eu' })).toBe(
      'Header mismatch: Mcp-Param-Region is repeated; it must appear once',
    );
  });

  it('ignores repeats of an Mcp-Param header the tool does not declare', () => {
    expect(
      toolsCall(['Mcp-Param-Region', 'eu', 'Mcp-Param-Zone', 'a', 'Mcp-Param-Zone', 'b'], { region: 'eu' }),
    ).toBe('accepted');
  });
});

describe('checkModernHeaders: Mcp-Param headers', () => {
  it('refuses a call whose annotated argument has no header', () => {
    expect(toolsCall([], { region: 'eu' })).toBe('Header mismatch: Mcp-Param-Region is missing');
  });

  it('refuses a header whose argument is absent from the body', () => {
    expect(toolsCall(['Mcp-Param-Region', 'eu'], {})).toBe(
      'Header mismatch: Mcp-Param-Region is present but the body has no value for it',
    );
  });

  it('refuses a header whose argument is null', () => {
    expect(toolsCall(['Mcp-Param-Region', 'null'], { region: null })).toBe(
      'Header mismatch: Mcp-Param-Region is present but the body has no value for it',
    );
  });

  it('expects no header for a null argument', () => {
    expect(toolsCall([], { region: null })).toBe('accepted');
  });

  it('refuses a header when the call has no arguments at all', () => {
    const headers = modernHeaderList('tools/call', 'get_weather', 'Mcp-Param-Region', 'eu');
    const check = checkModernHeaders({
      headers: indexHeaders(headers),
      message: {
        method: 'tools/call',
        isNotification: false,
        params: { name: 'get_weather', _meta: meta() },
      },
      headerFields: [REGION],
    });
    expect(outcome(check)).toBe(
      'Header mismatch: Mcp-Param-Region is present but the body has no value for it',
    );
  });

  it('ignores an Mcp-Param header the tool does not declare', { tags: ['threat-model'] }, () => {
    expect(toolsCall(['Mcp-Param-Zone', 'b'], {}, [])).toBe('accepted');
  });

  it('reads the argument at a nested path', () => {
    const targetId: McpHeaderField = { header: 'Target-Id', path: ['target', 'id'], type: 'integer' };
    expect(toolsCall(['Mcp-Param-Target-Id', '8'], { target: { id: 7 } }, [targetId])).toBe(
      'Header mismatch: Mcp-Param-Target-Id does not match the body',
    );
  });

  it('does not read an inherited property as an argument', () => {
    const named: McpHeaderField = { header: 'Ctor', path: ['constructor'], type: 'string' };
    expect(toolsCall([], {}, [named])).toBe('accepted');
  });

  it('does not read an array element as an argument', () => {
    const first: McpHeaderField = { header: 'First', path: ['list', '0'], type: 'string' };
    expect(toolsCall([], { list: ['a'] }, [first])).toBe('accepted');
  });

  it('compares a string argument case-sensitively', () => {
    expect(toolsCall(['Mcp-Param-Region', 'US-WEST1'], { region: 'us-west1' })).toBe(
      'Header mismatch: Mcp-Param-Region does not match the body',
    );
  });

  it('matches an empty string argument with an empty header', () => {
    expect(toolsCall(['Mcp-Param-Region', ''], { region: '' })).toBe('accepted');
  });

  it('holds a header a notification carries to its body', { tags: ['threat-model'] }, () => {
    const check = checkModernHeaders({
      headers: indexHeaders(['Mcp-Param-Region', 'eu']),
      message: { method: 'tools/call', isNotification: true, params: { arguments: { region: 'us' } } },
      headerFields: [REGION],
    });
    expect(outcome(check)).toBe('Header mismatch: Mcp-Param-Region does not match the body');
  });

  it('accepts a notification that omits the header of a present argument', () => {
    const check = checkModernHeaders({
      headers: indexHeaders([]),
      message: { method: 'tools/call', isNotification: true, params: { arguments: { region: 'us' } } },
      headerFields: [REGION],
    });
    expect(outcome(check)).toBe('accepted');
  });
});

describe('checkModernHeaders: integer arguments', () => {
  it.each(['42', '42.0', '42.000', ' 42 '])('matches %j with the body integer 42', (value) => {
    expect(toolsCall(['Mcp-Param-Count', value], { count: 42 }, [COUNT])).toBe('accepted');
  });

  it('matches -0 with the body integer 0', () => {
    expect(toolsCall(['Mcp-Param-Count', '-0'], { count: 0 }, [COUNT])).toBe('accepted');
  });

  it.each(['+42', '042', '0x2A', '4.2e1', '42.', '.42', '4_2', '4 2', '', '42.5'])(
    'refuses %j as an integer',
    { tags: ['threat-model'] },
    (value) => {
      expect(toolsCall(['Mcp-Param-Count', value], { count: 42 }, [COUNT])).toBe(
        'Header mismatch: Mcp-Param-Count is not a decimal integer within the safe range',
      );
    },
  );

  it('refuses a fraction too small for a double to tell from zero', () => {
    expect(toolsCall(['Mcp-Param-Count', '42.0000000000000001'], { count: 42 }, [COUNT])).toBe(
      'Header mismatch: Mcp-Param-Count is not a decimal integer within the safe range',
    );
  });

  it('matches the largest safe integers in both signs', () => {
    expect(toolsCall(['Mcp-Param-Count', '-9007199254740991'], { count: -9007199254740991 }, [COUNT])).toBe(
      'accepted',
    );
  });

  it('refuses an integer beyond the safe range', { tags: ['threat-model'] }, () => {
    expect(toolsCall(['Mcp-Param-Count', '9007199254740992'], { count: 9007199254740992 }, [COUNT])).toBe(
      'Header mismatch: Mcp-Param-Count is not a decimal integer within the safe range',
    );
  });

  it('refuses an integer header whose body value is a string', () => {
    expect(toolsCall(['Mcp-Param-Count', '42'], { count: '42' }, [COUNT])).toBe(
      'Header mismatch: Mcp-Param-Count does not match the body',
    );
  });
});

describe('checkModernHeaders: boolean arguments', () => {
  it('matches false with the body false', () => {
    expect(toolsCall(['Mcp-Param-Dry-Run', 'false'], { dryRun: false }, [DRY_RUN])).toBe('accepted');
  });

  it('refuses true for the body false', () => {
    expect(toolsCall(['Mcp-Param-Dry-Run', 'true'], { dryRun: false }, [DRY_RUN])).toBe(
      'Header mismatch: Mcp-Param-Dry-Run does not match the body',
    );
  });

  it.each(['True', 'TRUE', '1', 'yes'])('refuses %j as a boolean', { tags: ['threat-model'] }, (value) => {
    expect(toolsCall(['Mcp-Param-Dry-Run', value], { dryRun: true }, [DRY_RUN])).toBe(
      'Header mismatch: Mcp-Param-Dry-Run is not exactly true or false',
    );
  });
});

describe('checkModernHeaders: value characters', () => {
  it('accepts spaces and tabs around a value', () => {
    expect(toolsCall(['Mcp-Param-Region', ' \t us-west1\t '], { region: 'us-west1' })).toBe('accepted');
  });

  it.each([
    ['CR', 'us\rwest'],
    ['LF', 'us\nwest'],
    ['NUL', 'us\0west'],
    ['an inner tab', 'us\twest'],
    ['another control', 'us\x01west'],
    ['DEL', 'us\x7fwest'],
    ['a Latin-1 byte', 'us\xe9west'],
    ['a character past Latin-1', 'us\u2028west'],
  ])('refuses a value holding %s', { tags: ['threat-model'] }, (_name, value) => {
    expect(toolsCall(['Mcp-Param-Region', value], { region: value })).toBe(
      'Header mismatch: Mcp-Param-Region holds a character a client must send base64-encoded',
    );
  });

  it('refuses a control character in MCP-Protocol-Version', () => {
    expect(toolsList(['MCP-Protocol-Version', '2026-07-28\0', 'Mcp-Method', 'tools/list'])).toBe(
      'Header mismatch: MCP-Protocol-Version holds a character a client must send base64-encoded',
    );
  });
});

describe('checkModernHeaders: the base64 sentinel', () => {
  it('decodes an Mcp-Param value before comparing it', () => {
    // "Zürich" as UTF-8.
    expect(toolsCall(['Mcp-Param-Region', '=?base64?WsO8cmljaA==?='], { region: 'Zürich' })).toBe('accepted');
  });

  it('decodes Mcp-Name before comparing it', () => {
    // "file:///café.txt" as UTF-8.
    const headers = modernHeaderList('resources/read', '=?base64?ZmlsZTovLy9jYWbDqS50eHQ=?=');
    expect(modern(headers, 'resources/read', { uri: 'file:///café.txt', _meta: meta() })).toBe('accepted');
  });

  it('accepts a base64 spelling of a value that could have gone plain', () => {
    expect(toolsCall(['Mcp-Param-Region', '=?base64?ZXU=?='], { region: 'eu' })).toBe('accepted');
  });

  it.each([
    ['missing padding', '=?base64?ZXU?='],
    ['a character outside the alphabet', '=?base64?ZX*=?='],
    ['the URL-safe alphabet', '=?base64?_-8=?='],
    ['set unused bits', '=?base64?ZXV=?='],
    ['an inner space', '=?base64?ZX U=?='],
    ['padding in the middle', '=?base64?ZQ==ZQ==?='],
    ['a stray padding character', '=?base64?ZXU==?='],
  ])('refuses a sentinel with %s', { tags: ['threat-model'] }, (_name, value) => {
    expect(toolsCall(['Mcp-Param-Region', value], { region: 'eu' })).toBe(
      'Header mismatch: Mcp-Param-Region holds a malformed =?base64?...?= value',
    );
  });

  it('refuses a sentinel whose bytes are not UTF-8', { tags: ['threat-model'] }, () => {
    expect(toolsCall(['Mcp-Param-Region', '=?base64?/w==?='], { region: '\ufffd' })).toBe(
      'Header mismatch: Mcp-Param-Region holds a malformed =?base64?...?= value',
    );
  });

  it('keeps a decoded byte order mark as text', () => {
    // EF BB BF then "eu".
    expect(toolsCall(['Mcp-Param-Region', '=?base64?77u/ZXU=?='], { region: 'eu' })).toBe(
      'Header mismatch: Mcp-Param-Region does not match the body',
    );
  });

  it('reads uppercase markers as a literal', () => {
    expect(toolsCall(['Mcp-Param-Region', '=?BASE64?ZXU=?='], { region: '=?BASE64?ZXU=?=' })).toBe(
      'accepted',
    );
  });

  it('reads a value with only the opening marker as a literal', () => {
    expect(toolsCall(['Mcp-Param-Region', '=?base64?ZXU='], { region: '=?base64?ZXU=' })).toBe('accepted');
  });

  it('reads markers that overlap as a literal', () => {
    expect(toolsCall(['Mcp-Param-Region', '=?base64?='], { region: '=?base64?=' })).toBe('accepted');
  });

  it('does not decode Mcp-Method', { tags: ['threat-model'] }, () => {
    // "tools/list" in base64.
    expect(
      toolsList(['MCP-Protocol-Version', '2026-07-28', 'Mcp-Method', '=?base64?dG9vbHMvbGlzdA==?=']),
    ).toBe('Header mismatch: Mcp-Method does not match the body');
  });
});

describe('checkModernHeaders: refusal messages', () => {
  const marker = 'PLANTED-MARKER';

  it.each([
    ['a mismatch', ['Mcp-Param-Region', `${marker}-header`], { region: `${marker}-body` }],
    ['a bad character', ['Mcp-Param-Region', `${marker}\r`], { region: marker }],
    ['a bad sentinel', ['Mcp-Param-Region', `=?base64?${marker}?=`], { region: marker }],
    ['a header without a body value', ['Mcp-Param-Region', marker], {}],
  ])('never quote a header or body value on %s', { tags: ['threat-model'] }, (_name, headers, args) => {
    const message = toolsCall(headers, args);
    expect(message).toMatch(/^Header mismatch: /);
    expect(message).not.toContain(marker);
  });

  it('cut a long declared header name short', () => {
    const long: McpHeaderField = { header: 'X'.repeat(500), path: ['region'], type: 'string' };
    const message = toolsCall([], { region: 'eu' }, [long]);
    expect(message).toBe(`Header mismatch: Mcp-Param-${'X'.repeat(54)}... is missing`);
  });
});

describe('readVersionHeader', () => {
  it('reads a request without MCP-Protocol-Version as naming no version', () => {
    expect(readVersionHeader(indexHeaders(['Host', 'h']))).toEqual({ ok: true, version: undefined });
  });

  it('reads the version, its surrounding whitespace trimmed', () => {
    expect(readVersionHeader(indexHeaders(['mcp-protocol-version', ' 2025-06-18 ']))).toEqual({
      ok: true,
      version: '2025-06-18',
    });
  });

  it('reads a =?base64?...?= value as it is, never decoded', () => {
    expect(readVersionHeader(indexHeaders(['MCP-Protocol-Version', '=?base64?MjAyNS0xMS0yNQ==?=']))).toEqual({
      ok: true,
      version: '=?base64?MjAyNS0xMS0yNQ==?=',
    });
  });

  it('refuses a repeated version even when the values agree', { tags: ['threat-model'] }, () => {
    const raw = ['MCP-Protocol-Version', '2025-11-25', 'MCP-Protocol-Version', '2025-11-25'];
    expect(outcome(readVersionHeader(indexHeaders(raw)))).toBe(
      'Header mismatch: MCP-Protocol-Version is repeated; it must appear once',
    );
  });

  it('refuses a control character in the value', () => {
    expect(outcome(readVersionHeader(indexHeaders(['MCP-Protocol-Version', '2025-06\u000118'])))).toBe(
      'Header mismatch: MCP-Protocol-Version holds a character a client must send base64-encoded',
    );
  });

  it('ignores the 2026 headers', () => {
    expect(readVersionHeader(indexHeaders(['Mcp-Method', 'x', 'Mcp-Method', 'y']))).toEqual({
      ok: true,
      version: undefined,
    });
  });
});

describe('MCP-Protocol-Version is compared as sent, never decoded', () => {
  test('on 2026-07-28, a version header wrapped as =?base64?...?= is answered 400 -32020, though it decodes to the body’s version', async () => {
    const mounted = await closeLater(mountHandler());
    const list = modernRequest(1, 'tools/list');
    const reply = await exchange(
      mounted.port,
      post(list.body, { ...list.headers, 'MCP-Protocol-Version': sentinel('2026-07-28') }),
    );
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32020, message: 'Header mismatch: MCP-Protocol-Version does not match the body' },
    });
  });

  test('on 2025-11-25, a version header wrapped as =?base64?...?= names no revision served: 400 -32022, though it decodes to 2025-11-25', async () => {
    const mounted = await closeLater(mountHandler());
    const body = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const reply = await exchange(
      mounted.port,
      post(body, { 'MCP-Protocol-Version': sentinel('2025-11-25') }),
    );
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toMatchObject({ jsonrpc: '2.0', id: 2, error: { code: -32022 } });
  });
});

describe('the header a refusal names', () => {
  /** A tool whose one argument is mirrored in `Mcp-Param-<name>`. */
  async function mountWithParamHeader(name: string): Promise<number> {
    const server = createServer({
      name: 'headers',
      version: '1.0.0',
      tools: [
        defineTool<{ value: string }>({
          name: 'mirror',
          description: 'Mirrors one argument in a header.',
          inputSchema: {
            type: 'object',
            properties: { value: { type: 'string', 'x-mcp-header': name } },
            required: ['value'],
            additionalProperties: false,
          },
          handler: ({ value }) => ({ content: [{ type: 'text', text: value }] }),
        }),
      ],
    });
    const mounted = await closeLater(mount(createHttpHandler(server, ADMIT_ALL)));
    return mounted.port;
  }

  async function missingHeaderMessage(port: number): Promise<unknown> {
    const call = modernRequest(3, 'tools/call', { name: 'mirror', arguments: { value: 'x' } });
    const reply = await exchange(port, post(call.body, call.headers));
    expect(reply.status).toBe(400);
    return (JSON.parse(reply.body) as { error: { message: unknown } }).error.message;
  }

  test('a header name of exactly 64 characters is shown whole', async () => {
    const header = `Mcp-Param-${'A'.repeat(54)}`;
    expect(header).toHaveLength(64);
    const port = await mountWithParamHeader('A'.repeat(54));
    expect(await missingHeaderMessage(port)).toBe(`Header mismatch: ${header} is missing`);
  });

  test('a header name of 65 characters is cut to 64 and marked with ...', async () => {
    const port = await mountWithParamHeader('A'.repeat(55));
    expect(await missingHeaderMessage(port)).toBe(
      `Header mismatch: Mcp-Param-${'A'.repeat(54)}... is missing`,
    );
  });
});

describe('case in names and media types', () => {
  test('a header name whose only capital letter is Z is matched as its lower-case name', async () => {
    const server = createServer({
      name: 'headers',
      version: '1.0.0',
      tools: [
        defineTool<{ zone: string }>({
          name: 'zoned',
          description: 'Reads a zone mirrored in a header.',
          inputSchema: {
            type: 'object',
            properties: { zone: { type: 'string', 'x-mcp-header': 'zone' } },
            required: ['zone'],
            additionalProperties: false,
          },
          handler: ({ zone }) => ({ content: [{ type: 'text', text: zone }] }),
        }),
      ],
    });
    const mounted = await closeLater(mount(createHttpHandler(server, ADMIT_ALL)));
    const call = modernRequest(4, 'tools/call', { name: 'zoned', arguments: { zone: 'eu' } });
    const reply = await exchange(mounted.port, post(call.body, { ...call.headers, 'mcp-param-Zone': 'eu' }));
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({
      id: 4,
      result: { content: [{ type: 'text', text: 'eu' }] },
    });
  });

  // Node reads header bytes as latin1: 0xA0 arrives as U+00A0, which String.prototype.trim drops.
  test('an Accept whose media type is followed by a no-break space names another type: 406', {
    tags: ['threat-model'],
  }, async () => {
    const mounted = await closeLater(mountHandler());
    const list = modernRequest(5, 'tools/list');
    const bytes = Buffer.from(
      post(list.body, { ...list.headers, Accept: 'APPLICATION/JSON\u00a0' }),
      'latin1',
    );
    const reply = await exchange(mounted.port, bytes);
    expect(reply.status).toBe(406);
  });

  test('a Content-Type of application/json followed by a no-break space is another type: 415', {
    tags: ['threat-model'],
  }, async () => {
    const mounted = await closeLater(mountHandler());
    const list = modernRequest(6, 'tools/list');
    const bytes = Buffer.from(
      post(list.body, { ...list.headers, 'Content-Type': 'application/json\u00a0; charset=utf-8' }),
      'latin1',
    );
    const reply = await exchange(mounted.port, bytes);
    expect(reply.status).toBe(415);
  });

  test('an Accept of APPLICATION / JSON with tabs and spaces around its parts admits JSON', async () => {
    const mounted = await closeLater(mountHandler());
    const list = modernRequest(7, 'tools/list');
    const reply = await exchange(
      mounted.port,
      post(list.body, { ...list.headers, Accept: 'APPLICATION\t/ JSON ;q=1' }),
    );
    expect(reply.status).toBe(200);
  });
});

describe('the version header that settles the revision', () => {
  test('a body without _meta whose MCP-Protocol-Version is 2026-07-28 followed by a no-break space is refused -32020, not read as 2026-07-28', async () => {
    const mounted = await closeLater(mountHandler());
    const body = JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/list' });
    const bytes = Buffer.from(post(body, { 'MCP-Protocol-Version': '2026-07-28\u00a0' }), 'latin1');
    const reply = await exchange(mounted.port, bytes);
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toMatchObject({ id: 8, error: { code: -32020 } });
  });
});
