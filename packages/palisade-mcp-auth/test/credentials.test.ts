/**
 * The token is read from exactly one `Authorization: Bearer` header and nowhere else: a second
 * header line, a token in the query, a token in a form body and a header that is not a bearer
 * token are each refused by name, over a real socket.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, RULES } from '../src/index.js';
import { expectRefused } from './support/expect-refusal.js';
import { fetchHandlerOf, modern, post, type Served, serveNode, whoami } from './support/mcp.js';
import { rawExchange } from './support/raw.js';
import { ISSUER, jwksOf, mint, RESOURCE, testKey } from './support/tokens.js';

const key = testKey('ES256');
const hooks = bearer({ resource: RESOURCE, issuer: ISSUER, jwks: jwksOf(key) });
let served: Served;

beforeAll(async () => {
  served = await serveNode(hooks);
});

afterAll(async () => {
  await served.close();
});

const call = modern('tools/call', { name: 'whoami', arguments: {} });

function withAuthorization(value: string): Request {
  return post(served.url, call, value);
}

describe('where the token may come from', () => {
  test('the scheme is read case-insensitively: "bearer" is admitted', async () => {
    expect((await fetch(withAuthorization(`bearer ${await mint(key)}`))).status).toBe(200);
  });

  test('two Authorization lines are refused 400 as bearer-header-repeated, even when both carry the good token', {
    tags: ['threat-model'],
  }, async () => {
    const token = await mint(key);
    const head = [
      'POST /mcp HTTP/1.1',
      `host: ${served.url.host}`,
      'content-type: application/json',
      'accept: application/json, text/event-stream',
      ...Object.entries(call.headers).map(([name, value]) => `${name}: ${value}`),
      `authorization: Bearer ${token}`,
      `authorization: Bearer ${token}`,
    ].join('\r\n');
    const answer = await rawExchange(Number(served.url.port), head, call.body);
    expect(answer.status).toBe(400);
    expect(answer.text).toContain(
      'error="invalid_request", error_description="Send exactly one Authorization header"',
    );
    expect(served.events.at(-1)?.rule).toBe(RULES.headerRepeated.rule);
    expect((await fetch(whoami(served.url, token))).status).toBe(200);
  });

  test('two Authorization lines a fetch runtime joined into one value are refused 400', {
    tags: ['threat-model'],
  }, async () => {
    const { handle, events } = fetchHandlerOf(hooks);
    const token = await mint(key);
    const request = post('http://127.0.0.1/mcp', call);
    request.headers.append('authorization', `Bearer ${token}`);
    request.headers.append('authorization', `Bearer ${token}`);
    await expectRefused(await handle(request), RULES.headerMalformed, events, token);
  });

  test('a token in the query is refused 400 as bearer-token-in-query, with or without the header', {
    tags: ['threat-model'],
  }, async () => {
    const token = await mint(key);
    for (const [query, header] of [
      [`?access_token=${token}`, `Bearer ${token}`],
      [`?access_token=${token}`, undefined],
      [`?x=1&access%5Ftoken=${token}`, `Bearer ${token}`],
    ] as const) {
      const response = await fetch(post(`${served.url}${query}`, call, header));
      await expectRefused(response, RULES.tokenInQuery, served.events, token);
    }
  });

  test('a query without access_token does not stand in the way', async () => {
    expect((await fetch(post(`${served.url}?tenant=1`, call, `Bearer ${await mint(key)}`))).status).toBe(200);
  });

  test('a token in a form body, with no header, is refused 401 as bearer-missing', {
    tags: ['threat-model'],
  }, async () => {
    const token = await mint(key);
    const response = await fetch(served.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `access_token=${token}`,
    });
    await expectRefused(response, RULES.missing, served.events, token);
  });

  test('a form body beside a good header is refused 415 by the server, so the body is never the token', {
    tags: ['threat-model'],
  }, async () => {
    const token = await mint(key);
    const response = await fetch(served.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${token}` },
      body: `access_token=${token}`,
    });
    expect(response.status).toBe(415);
  });

  test('another scheme is refused 401 as bearer-other-scheme with a challenge that carries no error', {
    tags: ['threat-model'],
  }, async () => {
    const response = await fetch(withAuthorization('Basic dXNlcjpwYXNz'));
    expect(response.headers.get('www-authenticate')).toBe(
      'Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"',
    );
    await expectRefused(response, RULES.otherScheme, served.events);
  });

  test.each([
    ['Bearer with no token', 'Bearer'],
    ['a token holding a space', 'Bearer abc def'],
    ['a token holding a comma', 'Bearer abc,def'],
    ['padding before the end', 'Bearer ab=c'],
  ])('%s is refused 400 as bearer-header-malformed', { tags: ['threat-model'] }, async (_what, value) => {
    await expectRefused(await fetch(withAuthorization(value)), RULES.headerMalformed, served.events);
  });

  test('a header of 100,000 bytes is refused as too large by its length alone', {
    tags: ['threat-model'],
  }, async () => {
    const { handle, events } = fetchHandlerOf(hooks);
    const value = `Bearer ${'a'.repeat(100_000)} trailing`;
    await expectRefused(await handle(post('http://127.0.0.1/mcp', call, value)), RULES.tooLarge, events);
  });
});
