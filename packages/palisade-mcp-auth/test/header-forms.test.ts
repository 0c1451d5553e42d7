/**
 * The Authorization header in the forms a peer may actually send it, over real sockets: the
 * scheme's case and the run of spaces RFC 9110 §11 allows, the separators it does not, and two
 * fields on one HTTP/2 stream, sent frame by frame (a client library would not send them).
 */
import { type HttpLogEvent, type Serving, serve } from 'palisade-mcp/http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { dataFrame, H2Peer, headersFrame, postFields } from '../../palisade-mcp/test/support/h2-frames.js';
import { bearer, RULES } from '../src/index.js';
import { expectRefused } from './support/expect-refusal.js';
import { guardedCatalog, LOOPBACK, modern, post } from './support/mcp.js';
import { ISSUER, jwksOf, mint, RESOURCE, testKey } from './support/tokens.js';

const key = testKey('ES256');
const events: HttpLogEvent[] = [];
let served: Serving;
let url: string;

beforeAll(async () => {
  served = await serve(guardedCatalog(), {
    ...bearer({ resource: RESOURCE, issuer: ISSUER, jwks: jwksOf(key) }),
    allowedOrigins: [],
    allowedHosts: LOOPBACK,
    onLog: (event) => events.push(event),
  });
  url = `${served.url}/mcp`;
});

afterAll(async () => {
  await served.close();
});

const call = modern('tools/call', { name: 'whoami', arguments: {} });

describe('the Authorization header over HTTP/1.1', () => {
  test.each([
    ['the scheme in capitals', (token: string) => `BEARER ${token}`],
    ['the scheme in mixed case', (token: string) => `bEaReR ${token}`],
    ['three spaces after the scheme', (token: string) => `Bearer   ${token}`],
  ])('%s is read as a bearer token', { tags: ['threat-model'] }, async (_how, header) => {
    expect((await fetch(post(url, call, header(await mint(key))))).status).toBe(200);
  });

  test.each([
    ['a tab after the scheme', (token: string) => `Bearer\t${token}`, RULES.headerMalformed],
    ['a second token after a space', (token: string) => `Bearer ${token} ${token}`, RULES.headerMalformed],
    ['a character outside token68', (token: string) => `Bearer ${token}!`, RULES.headerMalformed],
    // With no space, RFC 9110 §11 reads one unknown scheme, and it is challenged as one.
    ['no space after the scheme', (token: string) => `Bearer${token}`, RULES.otherScheme],
  ])('%s is refused under its rule', { tags: ['threat-model'] }, async (_how, header, rule) => {
    await expectRefused(await fetch(post(url, call, header(await mint(key)))), rule, events);
  });
});

describe('the Authorization header over HTTP/2', () => {
  async function exchange(authorizations: readonly string[]): Promise<{ status: number; body: string }> {
    const peer = new H2Peer(served.port);
    try {
      await peer.ready();
      const fields = postFields([
        ...Object.entries(call.headers),
        ...authorizations.map((value): [string, string] => ['authorization', value]),
      ]).map(([name, value]): [string, string] => [
        name,
        name === ':authority' ? `127.0.0.1:${served.port}` : value,
      ]);
      peer.send(headersFrame(1, fields));
      peer.send(dataFrame(1, Buffer.from(call.body), { endStream: true }));
      await peer.streamEnd(1);
      return { status: peer.statuses(1)[0] as number, body: peer.body(1) };
    } finally {
      peer.end();
    }
  }

  test('one Authorization field on a stream is admitted', async () => {
    expect((await exchange([`Bearer ${await mint(key)}`])).status).toBe(200);
  });

  test('two Authorization fields on one stream are refused 400 as bearer-header-repeated, even both good', {
    tags: ['threat-model'],
  }, async () => {
    const token = await mint(key);
    const answer = await exchange([`Bearer ${token}`, `Bearer ${token}`]);
    expect(answer.status).toBe(400);
    expect(events.at(-1)?.rule).toBe(RULES.headerRepeated.rule);
    expect(answer.body).not.toContain(token.slice(-16));
  });

  test('a good token and a forged one on one stream are refused, whichever comes first', {
    tags: ['threat-model'],
  }, async () => {
    const token = await mint(key);
    const forged = `${token.slice(0, token.lastIndexOf('.') + 1)}${'A'.repeat(86)}`;
    for (const pair of [
      [token, forged],
      [forged, token],
    ]) {
      const answer = await exchange(pair.map((value) => `Bearer ${value}`));
      expect(answer.status).toBe(400);
      expect(events.at(-1)?.rule).toBe(RULES.headerRepeated.rule);
    }
  });
});
