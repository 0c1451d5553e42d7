/**
 * Adversarial: the Host rule against an absolute-form request target (RFC 9112 §3.2.2). When the
 * target is `http://evil.example/mcp`, an origin server "MUST ignore the received Host header field
 * and instead use the host information of the request-target". The checks read only `Host`, so a
 * request naming another authority in its target passes the DNS-rebinding rule on the strength of
 * a Host line the RFC tells the server to ignore; a proxy that routes by the target and Palisade
 * then disagree about which host was asked for.
 */
import { afterEach, expect, test } from 'vitest';
import { createFetchHandler } from '../../src/http/fetch/handler.js';
import { listenFetch, mountFetchHandler } from '../support/fetch-peer.js';
import {
  ADMIT_ALL,
  basicServer,
  exchange,
  LIST,
  type Mounted,
  mountHandler,
  post,
} from '../support/http-peer.js';

const opened: Mounted[] = [];
afterEach(async () => {
  for (const mounted of opened.splice(0)) await mounted.close();
});

/** A tools/list whose target is absolute-form naming `authority`, with an allowed `Host`. */
function absoluteForm(authority: string): string {
  return post(LIST.body, LIST.headers).replace('POST /mcp HTTP/1.1', `POST http://${authority}/mcp HTTP/1.1`);
}

test('an origin-form request with an allowed Host is answered (control)', async () => {
  const mounted = await mountHandler();
  opened.push(mounted);
  const reply = await exchange(mounted.port, post(LIST.body, LIST.headers));
  expect(reply.status).toBe(200);
  reply.client.end();
});

// Was a hole: the target's host went unchecked. A target naming another host than Host is
// refused 400 host-target-mismatch: a proxy may route by either, so neither can be trusted.
test('the node handler refuses an absolute-form target naming another host than Host', {
  tags: ['threat-model'],
}, async () => {
  const mounted = await mountHandler();
  opened.push(mounted);
  const reply = await exchange(mounted.port, absoluteForm('evil.example'));
  expect(reply.status).toBe(400);
  expect(reply.body).toContain('Host disagrees with the request target');
  reply.client.end();
});

// Was a hole, same rule under @hono/node-server, which builds request.url from the target.
test('the fetch handler refuses an absolute-form target naming another host than Host', {
  tags: ['threat-model'],
}, async () => {
  const mounted = await listenFetch(createFetchHandler(basicServer(), { ...ADMIT_ALL, path: '/mcp' }));
  opened.push(mounted);
  const reply = await exchange(mounted.port, absoluteForm('evil.example'));
  expect(reply.status).toBe(400);
  expect(reply.body).toContain('Host disagrees with the request target');
  reply.client.end();
});

test('an absolute-form target naming the Host it carries is answered', async () => {
  const mounted = await mountHandler();
  opened.push(mounted);
  const host = /\r\nHost: ([^\r]*)\r\n/i.exec(post(LIST.body, LIST.headers))?.[1] ?? '';
  const reply = await exchange(mounted.port, absoluteForm(host));
  expect(reply.status).toBe(200);
  reply.client.end();
});

// Was a hole (parsing laxness): hostName() kept `[...]` and dropped whatever followed the
// bracket, and took any text after one colon as a port, so these values were read as a loopback
// name. No browser sends them (its URL parser refuses such a host), so DNS rebinding was not
// reopened, but a proxy that reads the whole value sees another name than the one admitted. Now:
// after the name, only `:` and 1-5 digits; anything else 421.
test.each(['[::1]evil.example', 'localhost:evil.example', '127.0.0.1:'])(
  'a Host of %s is refused as naming no allowed host',
  { tags: ['threat-model'] },
  async (value) => {
    const mounted = await mountHandler();
    opened.push(mounted);
    const reply = await exchange(mounted.port, post(LIST.body, { ...LIST.headers, Host: value }));
    expect(reply.status).toBe(421);
    reply.client.end();
  },
);

// Was a hole (low impact): two unreadable names both read as '' and so agreed. With
// `allowedHosts: 'any'` nothing else looked at either, and the request was served although
// neither the target nor Host names a host anyone can route by.
test('with any host allowed, an absolute-form target naming no readable host is refused beside a Host naming none either', {
  tags: ['threat-model'],
}, async () => {
  const mounted = await mountHandler({ allowedHosts: 'any' });
  opened.push(mounted);
  const request = post(LIST.body, { ...LIST.headers, Host: '[::1]evil.example' }).replace(
    'POST /mcp HTTP/1.1',
    'POST http://localhost:evil.example/mcp HTTP/1.1',
  );
  const reply = await exchange(mounted.port, request);
  expect(reply.status).toBe(400);
  expect(reply.body).toContain('Host disagrees with the request target');
  reply.client.end();
});

// Was a hole: with no Host line at all (HTTP/1.0) nothing compared the target with anything.
test('with any host allowed, an HTTP/1.0 absolute-form target naming no readable host is refused without a Host line', {
  tags: ['threat-model'],
}, async () => {
  const mounted = await mountHandler({ allowedHosts: 'any' });
  opened.push(mounted);
  const request = post(LIST.body, { ...LIST.headers, Host: undefined }).replace(
    'POST /mcp HTTP/1.1',
    'POST http://localhost:evil.example/mcp HTTP/1.0',
  );
  const reply = await exchange(mounted.port, request);
  expect(reply.status).toBe(400);
  expect(reply.body).toContain('Host disagrees with the request target');
  reply.client.end();
});

// Was a fault: @hono/node-server builds the Request's URL from the target, userinfo and all, and
// reading that Request throws; the fetch handler answered 500 and handed onFault a cause holding
// the client's URL. Userinfo is an error in an http target (RFC 9110 §4.2.4): both handlers now
// refuse it 400, and nothing reaches onFault.
test.each([
  ['the node handler', () => mountHandler()],
  ['the fetch handler', (onFault: (message: string) => void) => mountFetchHandler({ onFault })],
])(
  '%s refuses an absolute-form target carrying userinfo 400, reporting no fault',
  {
    tags: ['threat-model'],
  },
  async (_name, mountIt) => {
    const faults: string[] = [];
    const mounted = await mountIt((message: string) => faults.push(message));
    opened.push(mounted);
    const reply = await exchange(mounted.port, absoluteForm('a:b@127.0.0.1'));
    expect(reply.status).toBe(400);
    expect(reply.body).toContain('Host disagrees with the request target');
    expect(reply.body).not.toContain('a:b');
    expect(faults).toEqual([]);
    reply.client.end();
  },
);
