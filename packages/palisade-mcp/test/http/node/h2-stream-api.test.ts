/**
 * The handler on the `node:http2` core API (`server.on('stream', handler.stream)`), through a real
 * HTTP/2 client session on 127.0.0.1: the same answers as the compatibility form, and
 * `Expect: 100-continue`, which the core API never answers by itself, sent only to a caller that
 * passes every check before the body.
 */
import { once } from 'node:events';
import {
  type ClientHttp2Session,
  connect,
  createServer as createHttp2Server,
  type Http2Server,
} from 'node:http2';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHttpHandler } from '../../../src/http/node/handler.js';
import { ADMIT_ALL, basicServer, modernRequest } from '../../support/http-peer.js';

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
