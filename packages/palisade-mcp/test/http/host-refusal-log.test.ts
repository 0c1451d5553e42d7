/**
 * A 421 tells the host's log which Host was refused, so an operator can tell a misconfigured
 * allowedHosts from a rebinding attempt; the value is the client's, so it is quoted, escaped and
 * cut to MAX_LOGGED_HOST_CHARS (64), and it goes to the log only, never into the answer. Over the
 * node handler (HTTP/1.1 and HTTP/2 `:authority`) and the fetch handler, on real sockets.
 */
import { once } from 'node:events';
import { connect } from 'node:http2';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { HttpLogEvent } from '../../src/http/http-options.js';
import { createHttpHandler } from '../../src/http/node/handler.js';
import { type Serving, serve } from '../../src/http/node/serve.js';
import { mountFetchHandler } from '../support/fetch-peer.js';
import {
  basicServer,
  exchange,
  type Mounted,
  modernRequest,
  mount,
  mountHandler,
  post,
} from '../support/http-peer.js';

const LIST = modernRequest(1, 'tools/list');
const SECRET = 'SECRET-8e21';

let mounted: Mounted | Serving | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await mounted?.close();
  mounted = undefined;
});

/** The reasons onLog received for 421s after one request with this raw Host line. */
async function reasonsFor(
  mount: typeof mountHandler,
  host: string | Buffer,
): Promise<{ reasons: unknown[]; body: string; status: number }> {
  const events: HttpLogEvent[] = [];
  const server = await mount({ onLog: (event) => events.push(event) });
  mounted = server;
  const head = Buffer.from(post(LIST.body, { ...LIST.headers, Host: 'PLACEHOLDER' }), 'latin1');
  const at = head.indexOf('PLACEHOLDER');
  const bytes = Buffer.concat([
    head.subarray(0, at),
    typeof host === 'string' ? Buffer.from(host, 'latin1') : host,
    head.subarray(at + 'PLACEHOLDER'.length),
  ]);
  const reply = await exchange(server.port, bytes);
  reply.client.end();
  return {
    reasons: events.filter((event) => event.status === 421).map((event) => event.reason),
    body: reply.body,
    status: reply.status,
  };
}

describe.each([
  ['the node handler', mountHandler],
  ['the fetch handler', mountFetchHandler],
] as const)('a Host refused 421 by %s', (_name, mount) => {
  test('is named in the log line, quoted', { tags: ['threat-model'] }, async () => {
    const { reasons, status, body } = await reasonsFor(mount, 'evil.example:8080');
    expect(status).toBe(421);
    expect(reasons).toEqual(['Host "evil.example:8080" is not in allowedHosts']);
    expect(body).not.toContain('evil.example');
  });

  test('is cut at 64 characters, and nothing past the cut is logged', {
    tags: ['threat-model'],
  }, async () => {
    const { reasons } = await reasonsFor(mount, `${'a'.repeat(64)}${SECRET}.example`);
    expect(reasons).toEqual([`Host "${'a'.repeat(64)}"… is not in allowedHosts`]);
    expect(JSON.stringify(reasons)).not.toContain(SECRET);
  });
});

describe('a Host refused 421', () => {
  // The node handler only: a runtime behind the fetch handler builds its URL from Host, and refuses
  // or punycodes such a name before the handler sees it.
  test('has bytes outside printable ASCII escaped', { tags: ['threat-model'] }, async () => {
    const { reasons } = await reasonsFor(
      mountHandler,
      Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x22, 0x2e, 0x78]),
    );
    expect(reasons).toEqual(['Host "caf\\u00e9\\".x" is not in allowedHosts']);
  });
  test('is named on the default stderr line', async () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      if (String(chunk).startsWith('palisade:')) written.push(String(chunk));
      return true;
    });
    const server = await mount(
      createHttpHandler(basicServer(), {
        authorize: () => ({ ok: true }),
        allowedOrigins: [],
        allowedHosts: ['127.0.0.1'],
      }),
    );
    mounted = server;
    const reply = await exchange(server.port, post(LIST.body, { ...LIST.headers, Host: 'evil.example' }));
    reply.client.end();
    expect(written).toEqual([
      'palisade: http refusal host-not-allowed 421 (Host "evil.example" is not in allowedHosts)\n',
    ]);
  });

  test('over HTTP/2 is named by its :authority', async () => {
    const events: HttpLogEvent[] = [];
    const serving = await serve(basicServer(), {
      authorize: () => ({ ok: true }),
      allowedOrigins: [],
      port: 0,
      onLog: (event) => events.push(event),
    });
    mounted = serving;
    const session = connect(serving.url);
    session.on('error', () => {});
    const stream = session.request({
      ':method': 'POST',
      ':path': '/mcp',
      ':authority': 'rebind.example',
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    });
    stream.on('error', () => {});
    stream.end(LIST.body);
    const [headers] = (await once(stream, 'response')) as [Record<string, unknown>];
    expect(headers[':status']).toBe(421);
    session.close();
    expect(events.map((event) => event.reason)).toEqual(['Host "rebind.example" is not in allowedHosts']);
  });
});
