/**
 * The handler on the `node:http2` core API (`server.on('stream', handler.stream)`), through a real
 * HTTP/2 client session on 127.0.0.1: the same answers as the compatibility form, a CONNECT (which
 * has no path) answered 404, and `Expect: 100-continue`, which the core API never answers by
 * itself, sent only to a caller that passes every check before the body.
 */
import { once } from 'node:events';
import {
  type ClientHttp2Session,
  connect,
  createServer as createHttp2Server,
  type Http2Server,
} from 'node:http2';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { createHttpHandler } from '../../../src/http/node/handler.js';
import { H2Peer, headersFrame } from '../../support/h2-frames.js';
import { ADMIT_ALL, basicServer, LIST, modernRequest } from '../../support/http-peer.js';

const ECHO = modernRequest(3, 'tools/call', { name: 'echo', arguments: { text: 'over the core API' } });

let server: Http2Server;
let session: ClientHttp2Session;
beforeAll(async () => {
  const handler = createHttpHandler(basicServer(), ADMIT_ALL);
  server = createHttp2Server();
  server.on('stream', handler.stream);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  session = connect(`http://127.0.0.1:${address.port}`);
  session.on('error', () => {});
  await once(session, 'remoteSettings');
});
afterAll(async () => {
  session.close();
  server.close();
  await once(server, 'close');
});

interface Reply {
  readonly status: number;
  readonly body: string;
  readonly invited: boolean;
}

/** Sends the headers; the body goes at once, or only after `100 Continue` when `waitFor100` is set. */
function request(headers: Record<string, string>, body: string, waitFor100 = false): Promise<Reply> {
  return new Promise((resolve) => {
    const stream = session.request({
      ':method': 'POST',
      ':path': '/mcp',
      ':authority': '127.0.0.1',
      'content-type': 'application/json',
      accept: 'application/json',
      ...ECHO.headers,
      ...headers,
    } as Record<string, string>);
    let status = 0;
    let invited = false;
    const chunks: Buffer[] = [];
    stream.on('continue', () => {
      invited = true;
      stream.end(body);
    });
    stream.on('response', (received) => {
      status = Number(received[':status']);
    });
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('error', () => {});
    stream.on('close', () => resolve({ status, body: Buffer.concat(chunks).toString('utf8'), invited }));
    if (!waitFor100) stream.end(body);
  });
}

describe('the node:http2 core API', () => {
  test('a tools/call on a stream is answered 200 with the tool result', async () => {
    const reply = await request({}, ECHO.body);
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({
      id: 3,
      result: { content: [{ type: 'text', text: 'over the core API' }] },
    });
  });

  test('an Origin not on the list is answered 403 with no id', { tags: ['threat-model'] }, async () => {
    const reply = await request({ origin: 'http://evil.example' }, ECHO.body);
    expect(reply.status).toBe(403);
    expect(JSON.parse(reply.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid request: Origin not allowed' },
    });
  });

  test('a caller about to be refused is never sent 100 Continue', { tags: ['threat-model'] }, async () => {
    const reply = await request({ origin: 'http://evil.example', expect: '100-continue' }, ECHO.body, true);
    expect(reply).toMatchObject({ status: 403, invited: false });
  });

  test('an admitted caller that expects 100-continue is invited, then answered', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await request({ expect: '100-continue' }, ECHO.body, true);
    expect(reply).toMatchObject({ status: 200, invited: true });
    expect(JSON.parse(reply.body)).toMatchObject({
      id: 3,
      result: { content: [{ text: 'over the core API' }] },
    });
  });
});

describe('the node:http2 core API (handler.stream)', () => {
  let h2: Http2Server | undefined;
  afterEach(async () => {
    if (h2 === undefined) return;
    h2.close();
    await once(h2, 'close');
    h2 = undefined;
  });

  /** A tools/list with these extra fields; the body goes only once `100 Continue` arrives. */
  async function expectingContinue(
    fields: Record<string, string>,
    { sendAtOnce = false } = {},
  ): Promise<{ status: number; invited: boolean; body: string }> {
    const handler = createHttpHandler(basicServer(), { ...ADMIT_ALL, readTimeoutMs: 1_000 });
    h2 = createHttp2Server();
    h2.on('stream', handler.stream);
    h2.listen(0, '127.0.0.1');
    await once(h2, 'listening');
    const address = h2.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    const session = connect(`http://127.0.0.1:${address.port}`);
    session.on('error', () => {});
    try {
      return await new Promise((resolve) => {
        const stream = session.request({
          ':method': 'POST',
          ':path': '/mcp',
          ':authority': '127.0.0.1',
          'content-type': 'application/json',
          accept: 'application/json',
          ...(LIST.headers as Record<string, string>),
          ...fields,
        });
        let status = 0;
        let invited = false;
        const chunks: Buffer[] = [];
        stream.on('continue', () => {
          invited = true;
          if (!sendAtOnce) stream.end(LIST.body);
        });
        stream.on('response', (headers) => {
          status = Number(headers[':status']);
        });
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('error', () => {});
        stream.on('close', () => resolve({ status, invited, body: Buffer.concat(chunks).toString('utf8') }));
        if (sendAtOnce) stream.end(LIST.body);
      });
    } finally {
      session.close();
    }
  }

  test('an Expect of 100-Continue in another letter case is invited, then answered', async () => {
    const reply = await expectingContinue({ expect: '100-Continue' });
    expect(reply).toMatchObject({ status: 200, invited: true });
    expect(JSON.parse(reply.body)).toMatchObject({ id: 1, result: { tools: expect.any(Array) } });
  });

  test('an Expect of 100-continue followed by a no-break space is not invited: the body sent at once is answered', async () => {
    // Only spaces and tabs are trimmed from a field (RFC 9110 §5.5), not U+00A0 as String#trim does.
    const reply = await expectingContinue({ expect: '100-continue\u00a0' }, { sendAtOnce: true });
    expect(reply).toMatchObject({ status: 200, invited: false });
  });

  test('an Expect of anything but 100-continue is not invited: the body sent at once is answered', async () => {
    const reply = await expectingContinue({ expect: 'x-other' }, { sendAtOnce: true });
    expect(reply).toMatchObject({ status: 200, invited: false });
  });
});

test('on the HTTP/2 core API a CONNECT, which has no path, is answered 404 by a handler serving one path', async () => {
  const handler = createHttpHandler(basicServer(), { ...ADMIT_ALL, path: '/mcp' });
  const h2 = createHttp2Server();
  h2.on('stream', handler.stream);
  h2.listen(0, '127.0.0.1');
  await once(h2, 'listening');
  const address = h2.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  try {
    const peer = new H2Peer(address.port);
    await peer.ready();
    peer.send(
      headersFrame(1, [
        [':method', 'CONNECT'],
        [':authority', '127.0.0.1'],
      ]),
    );
    await peer.streamEnd(1);
    peer.end();
    expect(peer.statuses(1)).toEqual([404]);
  } finally {
    h2.close();
    await once(h2, 'close');
  }
});
