/**
 * The options of `createHttpHandler`: each refusal at construction with its exact code and
 * message, and the stderr and logger defaults a host gets when it passes no `onFault` or `onLog`.
 * Written for the mutants of src/http/http-options.ts that the `http-options` group left alive
 * (docs/mutation-testing.md).
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createHttpHandler, type HttpHandlerOptions } from '../../src/http/node/handler.js';
import type { PalisadeLogger } from '../../src/telemetry/logger.js';
import { basicServer, exchange, type Mounted, modernRequest, mount, post } from '../support/http-peer.js';

const LIST = modernRequest(1, 'tools/list');

const VALID = {
  authorize: () => ({ ok: true as const }),
  allowedOrigins: ['http://app.example'],
  allowedHosts: ['127.0.0.1'],
};

const INVALID = 'PALISADE_ERR_INVALID_OPTION';

/** What construction throws, as `{ code, message }`; 'built' when it does not. */
function build(options: unknown): unknown {
  try {
    createHttpHandler(basicServer(), options as HttpHandlerOptions);
    return 'built';
  } catch (error) {
    return { code: (error as { code?: unknown }).code, message: (error as Error).message };
  }
}

let mounted: Mounted | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await mounted?.close();
  mounted = undefined;
});

/** The handler with these options, mounted; no onLog or onFault unless the test passes one. */
async function serveWith(options: Partial<HttpHandlerOptions>): Promise<number> {
  mounted = await mount(createHttpHandler(basicServer(), { ...VALID, ...options }));
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
