/**
 * Adversarial: a CORS preflight over HTTP/2 that carries a body without declaring a length. Over
 * HTTP/2 a body is announced by HEADERS without END_STREAM, not by Content-Length; writePreflight
 * (respond.ts) only stops the stream when `content-length` or `transfer-encoding` is present, so
 * this one is answered 204 and the client may go on sending on a stream nobody reads. The early
 * refusals stop such a stream with RST_STREAM(NO_ERROR) whenever the client has not finished
 * (`stream.state.remoteClose === 0`); docs/http.md promises the same of a preflight "declaring a
 * body".
 */
import { once } from 'node:events';
import { connect, constants, createServer, type Http2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { createHttpHandler } from '../../src/http/node/handler.js';
import { ADMIT_ALL, basicServer } from '../support/http-peer.js';

let server: Http2Server | undefined;
afterEach(() => {
  server?.close();
  server = undefined;
});

/** How the preflight stream ends: its status and the RST_STREAM code, or 'open' if it is left open. */
async function preflightWithBody(
  extra: Record<string, string> = {},
): Promise<{ status: number; ended: number | 'open' }> {
  const handler = createHttpHandler(basicServer(), { ...ADMIT_ALL, cors: {} });
  server = createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const session = connect(`http://127.0.0.1:${port}`);
  session.on('error', () => {});
  try {
    const stream = session.request(
      {
        ':method': 'OPTIONS',
        ':path': '/mcp',
        origin: 'http://app.example',
        'access-control-request-method': 'POST',
        ...extra,
      },
      { endStream: false },
    );
    stream.on('error', () => {});
    stream.write('x'.repeat(1024));
    const [response] = (await once(stream, 'response')) as [Record<string, unknown>];
    stream.resume();
    const closed = new Promise<number>((resolve) =>
      stream.once('close', () => resolve(stream.rstCode ?? -1)),
    );
    const ended = await Promise.race([closed, new Promise<'open'>((r) => setTimeout(() => r('open'), 500))]);
    return { status: Number(response[':status']), ended };
  } finally {
    session.destroy();
  }
}

test('an HTTP/2 preflight declaring a Content-Length is answered 204 and its stream stopped (control)', async () => {
  expect(await preflightWithBody({ 'content-length': '4096' })).toEqual({
    status: 204,
    ended: constants.NGHTTP2_NO_ERROR,
  });
});

// Was a hole (the stream was left open). 204, then RST_STREAM(NO_ERROR) while the client is still
// sending, as writeRefusal does for an early refusal; the stream is not left open for more DATA.
test('an HTTP/2 preflight still sending a body is answered 204 and its stream stopped', {
  tags: ['threat-model'],
}, async () => {
  expect(await preflightWithBody()).toEqual({ status: 204, ended: constants.NGHTTP2_NO_ERROR });
});
