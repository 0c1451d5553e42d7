/**
 * Claim values at the edges of what JSON can say, signed by the issuer's key and sent over a real
 * socket: numbers past a double's range or of the wrong type, a member named twice, and every
 * shape `scope` and `scp` come in. Each is admitted or refused by a rule the docs state.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, RULES } from '../src/index.js';
import { expectRefused } from './support/expect-refusal.js';
import { type Served, serveNode, whoami } from './support/mcp.js';
import {
  goodClaims,
  ISSUER,
  jwksOf,
  mint,
  now,
  RESOURCE,
  signPayloadText,
  testKey,
} from './support/tokens.js';

const key = testKey('ES256');
let served: Served;

beforeAll(async () => {
  served = await serveNode(
    bearer({ resource: RESOURCE, issuer: ISSUER, jwks: jwksOf(key), scopes: { required: ['mcp:tools'] } }),
  );
});

afterAll(async () => {
  await served.close();
});

/** The good claims as JSON text with `members` (raw JSON, in order) written over them. */
function payload(members: Record<string, string>): string {
  const base = goodClaims();
  const text = Object.entries(base)
    .filter(([name]) => !(name in members))
    .map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`);
  return `{${[...text, ...Object.entries(members).map(([name, raw]) => `${JSON.stringify(name)}:${raw}`)].join(',')}}`;
}

async function send(token: string): Promise<Response> {
  return fetch(whoami(served.url, token));
}

describe('numeric claims', () => {
  test.each([
    ['exp past a double’s range (1e400)', { exp: '1e400' }],
    ['nbf past a double’s range (1e400)', { nbf: '1e400' }],
    ['iat below a double’s range (-1e400)', { iat: '-1e400' }],
    ['exp as the string "NaN"', { exp: '"NaN"' }],
    ['exp as a numeric string', { exp: `"${now() + 300}"` }],
    ['exp as true', { exp: 'true' }],
    ['exp as a list', { exp: `[${now() + 300}]` }],
    ['exp as an object', { exp: `{"$numberLong":"${now() + 300}"}` }],
  ])('%s is refused as bearer-claim-type', { tags: ['threat-model'] }, async (_what, members) => {
    const token = signPayloadText(key, payload(members));
    await expectRefused(await send(token), RULES.claimType, served.events, token);
  });

  test('a negative exp is refused as bearer-expired', { tags: ['threat-model'] }, async () => {
    const token = signPayloadText(key, payload({ exp: '-1' }));
    await expectRefused(await send(token), RULES.expired, served.events, token);
  });

  test('a fractional exp ahead is admitted, and an exp of 1e300 (the issuer’s choice) too', {
    tags: ['threat-model'],
  }, async () => {
    expect((await send(signPayloadText(key, payload({ exp: `${now() + 300}.5` })))).status).toBe(200);
    expect((await send(signPayloadText(key, payload({ exp: '1e300' })))).status).toBe(200);
  });

  test('a member named twice is read as its last, as RFC 7519 §4 allows: the later exp and aud decide', {
    tags: ['threat-model'],
  }, async () => {
    const ahead = now() + 300;
    const laterGood = `{"exp":1,"exp":${ahead},"aud":"https://other.example","aud":"${RESOURCE}","iss":"${ISSUER}","scope":"mcp:tools"}`;
    expect((await send(signPayloadText(key, laterGood))).status).toBe(200);
    const laterExpired = `{"exp":${ahead},"exp":1,"aud":"${RESOURCE}","iss":"${ISSUER}","scope":"mcp:tools"}`;
    await expectRefused(await send(signPayloadText(key, laterExpired)), RULES.expired, served.events);
    const laterForeign = `{"exp":${ahead},"aud":"${RESOURCE}","aud":"https://other.example","iss":"${ISSUER}","scope":"mcp:tools"}`;
    await expectRefused(await send(signPayloadText(key, laterForeign)), RULES.audience, served.events);
  });
});

describe('scope and scp', () => {
  test.each([
    ['a space-separated scope', { scope: 'other mcp:tools' }],
    ['a scope with runs of spaces, leading and trailing', { scope: '  other   mcp:tools ' }],
    ['a scope naming the same scope twice', { scope: 'mcp:tools mcp:tools' }],
    ['an scp list, with no scope', { scope: undefined, scp: ['other', 'mcp:tools'] }],
    ['an scp string, with no scope', { scope: undefined, scp: 'other mcp:tools' }],
  ])('%s grants its scopes', { tags: ['threat-model'] }, async (_what, claims) => {
    expect((await send(await mint(key, goodClaims(claims)))).status).toBe(200);
  });

  test.each([
    ['an empty scope', { scope: '' }],
    ['a scope in other case (scopes are case-sensitive)', { scope: 'MCP:TOOLS' }],
    ['a scope separated by a tab (only a space separates)', { scope: 'other\tmcp:tools' }],
    [
      'an scp entry holding two scopes (an entry is one scope)',
      { scope: undefined, scp: ['other mcp:tools'] },
    ],
    ['a scope beside an scp that grants it (scope is read first)', { scope: 'other', scp: ['mcp:tools'] }],
    ['an empty scp list', { scope: undefined, scp: [] }],
  ])('%s grants nothing more: refused 403', { tags: ['threat-model'] }, async (_what, claims) => {
    const token = await mint(key, goodClaims(claims));
    await expectRefused(await send(token), RULES.insufficientScope, served.events, token);
  });

  test.each([
    ['a scope list', { scope: ['mcp:tools'] }],
    ['a scope number', { scope: 7 }],
    ['an scp list holding a number', { scope: undefined, scp: ['mcp:tools', 7] }],
    ['an scp object', { scope: undefined, scp: { 'mcp:tools': true } }],
  ])('%s is refused as bearer-claim-type', { tags: ['threat-model'] }, async (_what, claims) => {
    const token = await mint(key, goodClaims(claims));
    await expectRefused(await send(token), RULES.claimType, served.events, token);
  });
});
