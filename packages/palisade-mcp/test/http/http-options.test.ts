import { afterEach, describe, expect, test, vi } from 'vitest';
import { createHttpHandler, type HttpHandlerOptions } from '../../src/http/node/handler.js';
import type { PalisadeLogger } from '../../src/telemetry/logger.js';
import { closeAfterEach } from '../support/close-after-each.js';
import { basicServer, exchange, LIST, mount, post } from '../support/http-peer.js';

const closeLater = closeAfterEach();

const VALID = {
  authorize: () => ({ ok: true as const }),
  allowedOrigins: ['http://app.example'],
  allowedHosts: ['127.0.0.1'],
};

/** What construction throws, as `{ code, message }`; 'built' when it does not. */
function build(options: unknown): unknown {
  try {
    createHttpHandler(basicServer(), options as HttpHandlerOptions);
    return 'built';
  } catch (error) {
    return { code: (error as { code?: unknown }).code, message: (error as Error).message };
  }
}

const INVALID = 'PALISADE_ERR_INVALID_OPTION';

afterEach(async () => {
  vi.restoreAllMocks();
});

/** The handler with these options, mounted; no onLog or onFault unless the test passes one. */
async function serveWith(options: Partial<HttpHandlerOptions>): Promise<number> {
  const mounted = await closeLater(mount(createHttpHandler(basicServer(), { ...VALID, ...options })));
  return mounted.port;
}

/** Palisade's lines on stderr from now on; anything else written there is let through unrecorded. */
function stderrLines(): string[] {
  const written: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    const text = String(chunk);
    if (text.startsWith('palisade:')) written.push(text);
    return true;
  });
  return written;
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

describe('options refused at construction', () => {
  test('options that are not a plain object are refused naming the http options', () => {
    expect(build(null)).toEqual({ code: INVALID, message: 'option "http options" must be a plain object' });
  });

  test('a missing authorize is refused as required, not as a non-function', () => {
    const { authorize: _, ...rest } = VALID;
    expect(build(rest)).toEqual({
      code: INVALID,
      message: 'option "authorize" is required: pass a function that admits or refuses each request',
    });
  });

  test('a missing allowedOrigins is refused as required, not as a non-array', () => {
    const { allowedOrigins: _, ...rest } = VALID;
    expect(build(rest)).toEqual({
      code: INVALID,
      message: 'option "allowedOrigins" is required: pass the exact origins allowed to call, or \'any\'',
    });
  });

  test('an authorize that is not a function is refused naming authorize', () => {
    expect(build({ ...VALID, authorize: true })).toEqual({
      code: INVALID,
      message: 'option "authorize" must be a function',
    });
  });

  test('allowedHosts that is not an array is refused naming allowedHosts', () => {
    expect(build({ ...VALID, allowedHosts: 'localhost' })).toEqual({
      code: INVALID,
      message: 'option "allowedHosts" must be an array',
    });
  });

  test('a readTimeoutMs of 0 is refused naming readTimeoutMs and its range', () => {
    expect(build({ ...VALID, readTimeoutMs: 0 })).toEqual({
      code: INVALID,
      message: 'option "readTimeoutMs" must be an integer from 1 to 2147483647',
    });
  });

  test('a logger without warn is refused naming logger.warn', () => {
    expect(build({ ...VALID, logger: { error: () => {} } })).toEqual({
      code: INVALID,
      message: 'option "logger.warn" must be a function taking (object, message)',
    });
  });

  test.each([
    [1, 'allowedOrigins', 'http://ok.example'],
    ['', 'allowedOrigins', 'http://ok.example'],
    [1, 'allowedHosts', 'localhost'],
    ['', 'allowedHosts', 'localhost'],
  ])(
    'an entry %j after a valid one in %s is refused by its index as no non-empty string',
    (entry, key, valid) => {
      expect(build({ ...VALID, [key]: [valid, entry] })).toEqual({
        code: INVALID,
        message: `option "${key}[1]" must be a non-empty string (or pass the whole option as 'any')`,
      });
    },
  );

  test('an allowedOrigins entry that is no URL is refused as no origin', () => {
    expect(build({ ...VALID, allowedOrigins: ['app.example'] })).toEqual({
      code: INVALID,
      message: 'option "allowedOrigins[0]" must be an origin such as https://app.example',
    });
  });

  test('an allowedOrigins entry whose URL has an opaque origin is refused as no http origin', () => {
    expect(build({ ...VALID, allowedOrigins: ['file:///etc/passwd'] })).toEqual({
      code: INVALID,
      message: 'option "allowedOrigins[0]" must be an http or https origin such as https://app.example',
    });
  });

  test('a path that is an array, even one spelling a path, is refused', () => {
    expect(build({ ...VALID, path: ['/mcp'] })).toEqual({
      code: INVALID,
      message: 'option "path" must start with / and hold no space, query or fragment (or be \'any\')',
    });
  });
});

describe('Host names compared with brackets removed only as a pair', () => {
  test('a Host ending in a stray ] is not trimmed into an allowed name', async () => {
    const port = await serveWith({ onLog: () => {} });
    const reply = await exchange(port, post(LIST.body, { ...LIST.headers, Host: 'x127.0.0.1]' }));
    expect(reply.statusLine).toBe('HTTP/1.1 421 Misdirected Request');
    reply.client.end();
  });

  test('a Host starting with a stray [ is not trimmed into an allowed name', async () => {
    const port = await serveWith({ onLog: () => {} });
    const reply = await exchange(port, post(LIST.body, { ...LIST.headers, Host: '[127.0.0.1x' }));
    expect(reply.statusLine).toBe('HTTP/1.1 421 Misdirected Request');
    reply.client.end();
  });
});

describe('with no onFault, host faults go to stderr', () => {
  test('an error is written with its stack', async () => {
    const written = stderrLines();
    const error = new Error('token store down');
    const port = await serveWith({
      onLog: () => {},
      authorize: () => {
        throw error;
      },
    });
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.status).toBe(500);
    expect(written).toEqual([`palisade: host fault: authorize threw or rejected\n${error.stack}\n`]);
    reply.client.end();
  });

  test('a thrown object that is no Error adds nothing after the description, even with a stack', async () => {
    const written = stderrLines();
    const port = await serveWith({
      onLog: () => {},
      authorize: () => {
        throw { stack: 'not an error' };
      },
    });
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.status).toBe(500);
    expect(written).toEqual(['palisade: host fault: authorize threw or rejected\n']);
    reply.client.end();
  });

  test('an error whose stack is not a string adds nothing after the description', async () => {
    const written = stderrLines();
    const error = new Error('no stack');
    Object.defineProperty(error, 'stack', { value: 42 });
    const port = await serveWith({
      onLog: () => {},
      authorize: () => {
        throw error;
      },
    });
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.status).toBe(500);
    expect(written).toEqual(['palisade: host fault: authorize threw or rejected\n']);
    reply.client.end();
  });
});

describe('with no onLog, refusals go to stderr', () => {
  test('a refusal is written by rule and status', async () => {
    const written = stderrLines();
    const port = await serveWith({});
    const reply = await exchange(port, post(LIST.body, LIST.headers, 'PUT'));
    expect(reply.status).toBe(405);
    expect(written).toEqual(['palisade: http refusal method-not-allowed 405\n']);
    reply.client.end();
  });

  test('an authorize refusal’s reason is written after its status, and never sent to the client', async () => {
    const written = stderrLines();
    const port = await serveWith({ authorize: () => ({ ok: false, status: 401, reason: 'token expired' }) });
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.statusLine).toBe('HTTP/1.1 401 Unauthorized');
    expect(reply.client.text()).not.toContain('token expired');
    expect(written).toEqual(['palisade: http refusal authorize 401 (token expired)\n']);
    reply.client.end();
  });
});

describe('with a logger and neither onLog nor onFault', () => {
  function recordingLogger(): { warn: unknown[]; error: unknown[]; logger: PalisadeLogger } {
    const warn: unknown[] = [];
    const error: unknown[] = [];
    return {
      warn,
      error,
      logger: {
        warn: (record, message) => warn.push([record, message]),
        error: (record, message) => error.push([record, message]),
      },
    };
  }

  test('a refusal with no reason is a warn record of exactly event, transport, rule and status', async () => {
    const log = recordingLogger();
    const port = await serveWith({ logger: log.logger });
    const reply = await exchange(port, post(LIST.body, LIST.headers, 'PUT'));
    expect(reply.status).toBe(405);
    expect(log.warn).toStrictEqual([
      [
        { event: 'palisade.refusal', transport: 'http', rule: 'method-not-allowed', status: 405 },
        'palisade: request refused',
      ],
    ]);
    reply.client.end();
  });

  test('an authorize refusal’s reason is in its warn record', async () => {
    const log = recordingLogger();
    const port = await serveWith({
      logger: log.logger,
      authorize: () => ({ ok: false, reason: 'revoked key' }),
    });
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.status).toBe(403);
    expect(log.warn).toStrictEqual([
      [
        {
          event: 'palisade.refusal',
          transport: 'http',
          rule: 'authorize',
          status: 403,
          reason: 'revoked key',
        },
        'palisade: request refused',
      ],
    ]);
    reply.client.end();
  });

  test('a host fault is an http fault record on logger.error', async () => {
    const log = recordingLogger();
    const port = await serveWith({
      logger: log.logger,
      authorize: () => {
        throw new TypeError('bad token shape');
      },
    });
    const reply = await exchange(port, post(LIST.body, LIST.headers));
    expect(reply.status).toBe(500);
    expect(log.error).toStrictEqual([
      [
        {
          event: 'palisade.fault',
          transport: 'http',
          description: 'authorize threw or rejected',
          error: { name: 'TypeError' },
        },
        'palisade: host fault',
      ],
    ]);
    reply.client.end();
  });
});
