/**
 * Adversarial: `hostAllowList()` in front of an app served over HTTP/2 (`node:http2`'s
 * compatibility API, which Express-style `(req, res, next)` stacks run on). Over HTTP/2 the target
 * authority is `:authority` (RFC 9113 §8.3.1); `host` is optional and usually absent. The
 * middleware once read only `host` lines, judging a field the browser never sends and ignoring the
 * one it does; it now applies the handler's own HTTP/2 rule (checkAuthority), which reads
 * `:authority` and refuses a disagreeing `host`.
 */
import { once } from 'node:events';
import { connect, createServer, type Http2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { hostAllowList } from '../../src/http/node/host-allow-list.js';

let server: Http2Server | undefined;
afterEach(async () => {
  server?.close();
  server = undefined;
});

/** The status an HTTP/2 request with these headers gets from a hostAllowList() app. */
async function statusFor(headers: Record<string, string>): Promise<number> {
  const guard = hostAllowList();
  server = createServer((req, res) => {
    // biome-ignore lint/suspicious/noExplicitAny: the compatibility objects stand in for node:http's
    guard(req as any, res as any, () => res.end('app'));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const session = connect(`http://127.0.0.1:${port}`);
  session.on('error', () => {});
  try {
    const stream = session.request({ ':path': '/health', ...headers });
    stream.on('error', () => {});
    const [response] = (await once(stream, 'response')) as [Record<string, unknown>];
    stream.resume();
    return Number(response[':status']);
  } finally {
    session.close();
  }
}

// Was a hole (the `host` line alone was judged, so this reached the app). An `:authority` naming
// evil.example beside a `host` naming localhost is the disagreement createHttpHandler's HTTP/2
// rule refuses: 400 "Host disagrees with :authority", whichever of the two a proxy would read.
test('an :authority not on the list is refused 400 beside an allowed host field that disagrees', {
  tags: ['threat-model'],
}, async () => {
  expect(await statusFor({ ':authority': 'evil.example', host: 'localhost' })).toBe(400);
});

// Availability side of the same defect (was refused 421): a browser's HTTP/2 request to
// localhost (`:authority` only, no `host`) reaches the app.
test('an allowed :authority with no host field reaches the app', { tags: ['threat-model'] }, async () => {
  expect(await statusFor({ ':authority': 'localhost' })).toBe(200);
});

test('an :authority not on the list with no host field is refused 421', {
  tags: ['threat-model'],
}, async () => {
  expect(await statusFor({ ':authority': 'evil.example' })).toBe(421);
});
