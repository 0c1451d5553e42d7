import { describe, expect, test } from 'vitest';
import { createHttpHandler, type HttpHandlerOptions } from '../../src/http/node/handler.js';
import { basicServer } from '../support/http-peer.js';

const VALID = {
  authorize: () => ({ ok: true as const }),
  allowedOrigins: ['http://app.example'],
  allowedHosts: ['localhost'],
};

function build(options: Record<string, unknown>): unknown {
  try {
    createHttpHandler(basicServer(), options as unknown as HttpHandlerOptions);
    return 'built';
  } catch (error) {
    return { code: (error as { code?: unknown }).code, message: (error as Error).message };
  }
}

describe('createHttpHandler options', () => {
  test('valid options build a handler with a checkContinue companion', { tags: ['threat-model'] }, () => {
    const handler = createHttpHandler(basicServer(), VALID);
    expect(typeof handler).toBe('function');
    expect(typeof handler.checkContinue).toBe('function');
  });

  test('an unknown option is refused by name', () => {
    expect(build({ ...VALID, readTimeoutMS: 5 })).toMatchObject({
      code: 'PALISADE_ERR_UNKNOWN_OPTION',
      message: expect.stringContaining('"readTimeoutMS"'),
    });
  });

  test('omitting authorize throws naming it', { tags: ['threat-model'] }, () => {
    const { authorize: _, ...rest } = VALID;
    expect(build(rest)).toMatchObject({
      code: 'PALISADE_ERR_INVALID_OPTION',
      message: expect.stringContaining('"authorize"'),
    });
  });

  test('omitting allowedOrigins throws naming it', { tags: ['threat-model'] }, () => {
    const { allowedOrigins: _, ...rest } = VALID;
    expect(build(rest)).toMatchObject({
      code: 'PALISADE_ERR_INVALID_OPTION',
      message: expect.stringContaining('"allowedOrigins"'),
    });
  });

  test('omitting allowedHosts throws naming it and suggesting the loopback names', {
    tags: ['threat-model'],
  }, () => {
    const { allowedHosts: _, ...rest } = VALID;
    expect(build(rest)).toEqual({
      code: 'PALISADE_ERR_INVALID_OPTION',
      message:
        "option \"allowedHosts\" is required when the handler is mounted by hand; for a loopback server pass ['localhost', '127.0.0.1', '::1']",
    });
  });

  test.each([0, -1, 1.5, 2_147_483_648, '15000'])(
    'readTimeoutMs %s is refused',
    { tags: ['threat-model'] },
    (value) => {
      expect(build({ ...VALID, readTimeoutMs: value })).toMatchObject({
        code: 'PALISADE_ERR_INVALID_OPTION',
      });
    },
  );

  test('readTimeoutMs 2,147,483,647 is accepted', { tags: ['threat-model'] }, () => {
    expect(build({ ...VALID, readTimeoutMs: 2_147_483_647 })).toBe('built');
  });

  test.each([[['']], [[1]], ['*'], ['ANY']])(
    'allowedOrigins %j is refused',
    { tags: ['threat-model'] },
    (value) => {
      expect(build({ ...VALID, allowedOrigins: value })).toMatchObject({
        code: 'PALISADE_ERR_INVALID_OPTION',
      });
    },
  );

  test.each([
    ['https://app.example/', 'https://app.example'],
    ['https://app.example:443', 'https://app.example'],
    ['https://App.Example/path', 'https://app.example'],
    ['https://bücher.example', 'https://xn--bcher-kva.example'],
  ])(
    'allowedOrigins entry %j can never match an Origin and is refused, naming %j',
    { tags: ['threat-model'] },
    (entry, origin) => {
      expect(build({ ...VALID, allowedOrigins: ['http://ok.example', entry] })).toMatchObject({
        code: 'PALISADE_ERR_INVALID_OPTION',
        message: expect.stringMatching(
          new RegExp(`allowedOrigins\\[1\\].*${origin.replaceAll('.', '\\.')}$`),
        ),
      });
    },
  );

  test.each(['app.example', 'null', 'file:///etc/passwd'])(
    'allowedOrigins entry %j is not an http origin and is refused',
    { tags: ['threat-model'] },
    (entry) => {
      expect(build({ ...VALID, allowedOrigins: [entry] })).toMatchObject({
        code: 'PALISADE_ERR_INVALID_OPTION',
        message: expect.stringContaining('allowedOrigins[0]'),
      });
    },
  );

  test('an allowedOrigins entry with a port and upper-case letters is accepted', {
    tags: ['threat-model'],
  }, () => {
    expect(build({ ...VALID, allowedOrigins: ['HTTP://App.Example:8080'] })).toBe('built');
  });

  test.each(['mcp', '/mcp?x', '/m cp', '/mcp#a', ''])(
    'path %j is refused naming path',
    { tags: ['threat-model'] },
    (path) => {
      expect(build({ ...VALID, path })).toMatchObject({
        code: 'PALISADE_ERR_INVALID_OPTION',
        message: expect.stringContaining('"path"'),
      });
    },
  );

  test('an empty allowedOrigins list is accepted: it admits only requests without Origin', {
    tags: ['threat-model'],
  }, () => {
    expect(build({ ...VALID, allowedOrigins: [] })).toBe('built');
  });

  test('a non-function authorize is refused', { tags: ['threat-model'] }, () => {
    expect(build({ ...VALID, authorize: true })).toMatchObject({ code: 'PALISADE_ERR_INVALID_OPTION' });
  });
});
