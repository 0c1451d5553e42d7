/**
 * What an `authorize` hook is handed, and how each thing it may return is judged, over a real
 * socket: each test pins one behaviour a host or a client can see.
 */
import type { IncomingMessage } from 'node:http';
import { describe, expect, test, vi } from 'vitest';
import {
  type AuthorizeRequest,
  createHttpHandler,
  type HttpHandlerOptions,
  type HttpLogEvent,
} from '../../src/http/node/handler.js';
import { closeAfterEach } from '../support/close-after-each.js';
import { ADMIT_ALL, basicServer, exchange, LIST, mount, post } from '../support/http-peer.js';

const closeLater = closeAfterEach();

interface Seen {
  readonly port: number;
  /** The request as Node handed it to the listener, before Palisade saw it. */
  readonly req: () => IncomingMessage;
  /** What the hook was handed. */
  readonly request: () => AuthorizeRequest;
}

/**
 * A handler whose hook admits and records what it was handed, mounted behind a listener that
 * keeps Node's own request (after `prepare` has changed it as a host's middleware might).
 */
async function recording(prepare: (req: IncomingMessage) => void = () => {}): Promise<Seen> {
  let seenReq: IncomingMessage | undefined;
  let seenRequest: AuthorizeRequest | undefined;
  const handler = createHttpHandler(basicServer(), {
    ...ADMIT_ALL,
    authorize: (request) => {
      seenRequest = request;
      return { ok: true };
    },
  });
  const mounted = await closeLater(
    mount((req, res) => {
      seenReq = req;
      prepare(req);
      handler(req, res);
    }),
  );
  return {
    port: mounted.port,
    req: () => seenReq ?? expect.fail('the listener was not called'),
    request: () => seenRequest ?? expect.fail('authorize was not called'),
  };
}

interface Judged {
  readonly port: number;
  readonly events: HttpLogEvent[];
  readonly faults: Array<[string, unknown]>;
}

/** A handler with `authorize` (and any other option) as given, its log and faults collected. */
async function judging(options: Partial<HttpHandlerOptions>): Promise<Judged> {
  const events: HttpLogEvent[] = [];
  const faults: Array<[string, unknown]> = [];
  const handler = createHttpHandler(basicServer(), {
    ...ADMIT_ALL,
    onLog: (event) => events.push(event),
    onFault: (description, cause) => faults.push([description, cause]),
    ...options,
  });
  const mounted = await closeLater(mount(handler));
  return { port: mounted.port, events, faults };
}

/** The hook's type, for return values it does not declare: the point is how they are judged. */
function hook(result: () => unknown): HttpHandlerOptions['authorize'] {
  return result as HttpHandlerOptions['authorize'];
}

describe('what the authorize hook is handed', () => {
  test('its headers hold exactly the names of the request’s headers and no other', async () => {
    const seen = await recording();
    const reply = await exchange(seen.port, post(LIST.body, { ...LIST.headers, Authorization: 'Bearer t' }));
    expect(reply.status).toBe(200);
    expect(Object.keys(seen.request().headers)).toEqual(Object.keys(seen.req().headers));
    expect(Object.keys(seen.request().headers)).toContain('authorization');
    reply.client.end();
  });

  test('a repeated Set-Cookie reaches it as an array of its own, not as the request’s array', async () => {
    const seen = await recording();
    const reply = await exchange(
      seen.port,
      post(LIST.body, { ...LIST.headers, 'Set-Cookie': ['a=1', 'b=2'] }),
    );
    expect(reply.status).toBe(200);
    const given = seen.request().headers['set-cookie'];
    expect(given).toEqual(['a=1', 'b=2']);
    expect(given).not.toBe(seen.req().headers['set-cookie']);
    reply.client.end();
  });

  test('a header a host’s middleware set to undefined reaches it as undefined, and the request is served', async () => {
    const seen = await recording((req) => {
      req.headers['x-removed-by-host'] = undefined;
    });
    const reply = await exchange(seen.port, post(LIST.body, LIST.headers));
    expect(reply.status).toBe(200);
    expect('x-removed-by-host' in seen.request().headers).toBe(true);
    expect(seen.request().headers['x-removed-by-host']).toBeUndefined();
    reply.client.end();
  });

  test('its rawHeaders is a frozen copy: the request’s own rawHeaders is another array, left unfrozen', async () => {
    const seen = await recording();
    const reply = await exchange(seen.port, post(LIST.body, LIST.headers));
    expect(reply.status).toBe(200);
    const raw = seen.request().rawHeaders;
    expect(raw).toEqual(seen.req().rawHeaders);
    expect(raw).not.toBe(seen.req().rawHeaders);
    expect(Object.isFrozen(raw)).toBe(true);
    expect(Object.isFrozen(seen.req().rawHeaders)).toBe(false);
    reply.client.end();
  });
});

describe('how what the hook returns is judged', () => {
  test('null is refused 403 and logged as no { ok } object, not reported as a fault', async () => {
    const judged = await judging({ authorize: hook(() => null) });
    const reply = await exchange(judged.port, post(LIST.body, LIST.headers));
    expect(reply.statusLine).toBe('HTTP/1.1 403 Forbidden');
    expect(JSON.parse(reply.body)).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: 'Forbidden' } });
    expect(judged.events).toEqual([
      { kind: 'refusal', rule: 'authorize', status: 403, reason: 'authorize returned no { ok } object' },
    ]);
    expect(judged.faults).toEqual([]);
    reply.client.end();
  });

  test('a promise of null is refused 403 and logged as no { ok } object, not reported as a fault', async () => {
    const judged = await judging({ authorize: hook(async () => null) });
    const reply = await exchange(judged.port, post(LIST.body, LIST.headers));
    expect(reply.statusLine).toBe('HTTP/1.1 403 Forbidden');
    expect(judged.events).toEqual([
      { kind: 'refusal', rule: 'authorize', status: 403, reason: 'authorize returned no { ok } object' },
    ]);
    expect(judged.faults).toEqual([]);
    reply.client.end();
  });

  test('a 401 refusal whose headers are null is answered 401 without WWW-Authenticate', async () => {
    const judged = await judging({ authorize: hook(() => ({ ok: false, status: 401, headers: null })) });
    const reply = await exchange(judged.port, post(LIST.body, LIST.headers));
    expect(reply.statusLine).toBe('HTTP/1.1 401 Unauthorized');
    expect(reply.headers['www-authenticate']).toBeUndefined();
    expect(judged.faults).toEqual([]);
    reply.client.end();
  });

  test('a 401 refusal sends its WWW-Authenticate but not the Retry-After it also gave', async () => {
    const judged = await judging({
      authorize: () => ({
        ok: false,
        status: 401,
        headers: { 'www-authenticate': 'Bearer', 'retry-after': '30' },
      }),
    });
    const reply = await exchange(judged.port, post(LIST.body, LIST.headers));
    expect(reply.statusLine).toBe('HTTP/1.1 401 Unauthorized');
    expect(reply.headers['www-authenticate']).toBe('Bearer');
    expect(reply.headers['retry-after']).toBeUndefined();
    reply.client.end();
  });

  test('a 403 refusal does not send the Retry-After it gave', async () => {
    const judged = await judging({ authorize: () => ({ ok: false, headers: { 'retry-after': '30' } }) });
    const reply = await exchange(judged.port, post(LIST.body, LIST.headers));
    expect(reply.statusLine).toBe('HTTP/1.1 403 Forbidden');
    expect(reply.headers['retry-after']).toBeUndefined();
    reply.client.end();
  });

  test('a reason that is not a string is left out of the log event', async () => {
    const judged = await judging({ authorize: hook(() => ({ ok: false, reason: 42 })) });
    const reply = await exchange(judged.port, post(LIST.body, LIST.headers));
    expect(reply.status).toBe(403);
    expect(judged.events).toStrictEqual([{ kind: 'refusal', rule: 'authorize', status: 403 }]);
    reply.client.end();
  });

  test('a function with a then method is awaited as a thenable, so its { ok: true } admits', async () => {
    const thenable = Object.assign(() => {}, {
      // biome-ignore lint/suspicious/noThenProperty: a thenable function is exactly what is under test.
      then: (resolve: (value: unknown) => void) => resolve({ ok: true }),
    });
    const judged = await judging({ authorize: hook(() => thenable) });
    const reply = await exchange(judged.port, post(LIST.body, LIST.headers));
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({ jsonrpc: '2.0', id: 1 });
    reply.client.end();
  });

  test('a promise that settles leaves no deadline timer armed to hold the process open', async () => {
    // Only the global timers are faked: sockets run on Node's own. A timer left armed for the whole
    // read deadline keeps a host that has closed its server alive until it fires.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const judged = await judging({ authorize: async () => ({ ok: true }), readTimeoutMs: 60_000 });
      const reply = await exchange(judged.port, post(LIST.body, LIST.headers));
      expect(reply.status).toBe(200);
      expect(vi.getTimerCount()).toBe(0);
      reply.client.end();
    } finally {
      vi.useRealTimers();
    }
  });

  test('a hook that never settles is logged as authorize-timeout with its reason', async () => {
    const judged = await judging({ authorize: () => new Promise(() => {}), readTimeoutMs: 200 });
    const reply = await exchange(judged.port, post(LIST.body, LIST.headers));
    expect(reply.statusLine).toBe('HTTP/1.1 403 Forbidden');
    expect(judged.events).toEqual([
      {
        kind: 'refusal',
        rule: 'authorize-timeout',
        status: 403,
        reason: 'authorize did not settle before the read deadline',
      },
    ]);
    reply.client.end();
  });

  test('a rejection reaches onFault as authorize threw or rejected, with its cause, and is logged as authorize-fault', async () => {
    const cause = new Error('token store down');
    const judged = await judging({ authorize: () => Promise.reject(cause) });
    const reply = await exchange(judged.port, post(LIST.body, LIST.headers));
    expect(reply.statusLine).toBe('HTTP/1.1 500 Internal Server Error');
    expect(JSON.parse(reply.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32603, message: 'Internal error' },
    });
    expect(judged.faults).toEqual([['authorize threw or rejected', cause]]);
    expect(judged.faults[0]?.[1]).toBe(cause);
    expect(judged.events).toEqual([{ kind: 'refusal', rule: 'authorize-fault', status: 500 }]);
    reply.client.end();
  });
});
