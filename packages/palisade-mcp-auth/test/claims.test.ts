/**
 * The claim rules at their edges, through the real fetch handler: the leeway on each side of
 * `exp`, `nbf` and `iat`, the audience in each shape RFC 7519 allows, several issuers, the RFC
 * 9068 profile, and `requireExp: false`.
 */
import { describe, expect, test } from 'vitest';
import { type BearerOptions, bearer, RULES } from '../src/index.js';
import { expectRefused } from './support/expect-refusal.js';
import { fetchHandlerOf, whoami } from './support/mcp.js';
import { goodClaims, ISSUER, jwksOf, mint, now, RESOURCE, signRaw, testKey } from './support/tokens.js';

const AT = 'http://127.0.0.1/mcp';
const key = testKey('ES256');

function guard(options: Partial<BearerOptions> = {}) {
  return fetchHandlerOf(bearer({ resource: RESOURCE, issuer: ISSUER, jwks: jwksOf(key), ...options }));
}

async function status(
  options: Partial<BearerOptions>,
  claims: Record<string, unknown>,
  header = {},
): Promise<number> {
  const { handle } = guard(options);
  return (await handle(whoami(AT, await mint(key, goodClaims(claims), header)))).status;
}

describe('time claims', () => {
  test('a token that expired less than the leeway ago is admitted', { tags: ['threat-model'] }, async () => {
    expect(await status({}, { exp: now() - 25 })).toBe(200);
  });

  test('a leeway of 0 refuses a token the moment it expires', { tags: ['threat-model'] }, async () => {
    const { handle, events } = guard({ leeway: 0 });
    await expectRefused(
      await handle(whoami(AT, await mint(key, goodClaims({ exp: now() })))),
      RULES.expired,
      events,
    );
  });

  test('an nbf within the leeway ahead is admitted', async () => {
    expect(await status({}, { nbf: now() + 20 })).toBe(200);
  });

  test('an iat further ahead than the leeway is refused as bearer-issued-in-future', {
    tags: ['threat-model'],
  }, async () => {
    const { handle, events } = guard();
    const token = await mint(key, goodClaims({ iat: now() + 120 }));
    await expectRefused(await handle(whoami(AT, token)), RULES.issuedInFuture, events, token);
  });

  test.each([
    ['nbf', 'soon'],
    ['iat', 'yesterday'],
    ['exp', null],
  ])(
    'a %s that is not a number is refused as bearer-claim-type',
    { tags: ['threat-model'] },
    async (name, value) => {
      const { handle, events } = guard();
      const token = await mint(key, goodClaims({ [name]: value }));
      await expectRefused(await handle(whoami(AT, token)), RULES.claimType, events, token);
    },
  );

  test('requireExp: false admits a token without exp', async () => {
    expect(await status({ requireExp: false }, { exp: undefined })).toBe(200);
  });
});

describe('issuer and audience', () => {
  test('an audience list naming this resource among others is admitted', async () => {
    expect(await status({}, { aud: ['https://other.example', RESOURCE] })).toBe(200);
  });

  test('an audience list without this resource is refused as bearer-audience', {
    tags: ['threat-model'],
  }, async () => {
    const { handle, events } = guard();
    const token = await mint(key, goodClaims({ aud: ['https://a.example', 'https://b.example'] }));
    await expectRefused(await handle(whoami(AT, token)), RULES.audience, events, token);
  });

  test('a token without aud is refused as bearer-audience', { tags: ['threat-model'] }, async () => {
    expect(await status({}, { aud: undefined })).toBe(401);
  });

  test('the resource with a trailing slash is another audience, refused', {
    tags: ['threat-model'],
  }, async () => {
    expect(await status({}, { aud: `${RESOURCE}/` })).toBe(401);
  });

  test('an audience option replaces the default, so the resource itself is then refused', async () => {
    expect(await status({ audience: 'api://mcp' }, { aud: 'api://mcp' })).toBe(200);
    expect(await status({ audience: 'api://mcp' }, { aud: RESOURCE })).toBe(401);
  });

  test('a token without iss is refused as bearer-issuer', { tags: ['threat-model'] }, async () => {
    expect(await status({}, { iss: undefined })).toBe(401);
  });

  test('an issuer differing only by a trailing slash is refused: issuers compare exactly', {
    tags: ['threat-model'],
  }, async () => {
    expect(await status({}, { iss: `${ISSUER}/` })).toBe(401);
  });

  test('with two issuers, a token from either is admitted', async () => {
    const both = { issuer: [ISSUER, 'https://second.example.com'] };
    expect(await status(both, { iss: 'https://second.example.com' })).toBe(200);
    expect(await status(both, {})).toBe(200);
  });
});

describe('the RFC 9068 profile', () => {
  test('a token typed JWT is refused as bearer-typ under the profile and admitted without it', {
    tags: ['threat-model'],
  }, async () => {
    expect(await status({ profile: 'rfc9068' }, {}, { typ: 'JWT' })).toBe(401);
    expect(await status({}, {}, { typ: 'JWT' })).toBe(200);
  });

  test('typ application/at+jwt is admitted under the profile', async () => {
    expect(await status({ profile: 'rfc9068' }, {}, { typ: 'application/at+jwt' })).toBe(200);
  });

  test('a token without jti is refused as bearer-claims-missing under the profile', {
    tags: ['threat-model'],
  }, async () => {
    const { handle, events } = guard({ profile: 'rfc9068' });
    const token = await mint(key, goodClaims({ jti: undefined }));
    await expectRefused(await handle(whoami(AT, token)), RULES.claimsMissing, events, token);
  });
});

describe('other claims', () => {
  test('a token bound to a key (cnf, as DPoP and mTLS bind them) is refused as bearer-sender-constrained', {
    tags: ['threat-model'],
  }, async () => {
    const { handle, events } = guard();
    const token = await mint(
      key,
      goodClaims({ cnf: { jkt: '0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I' } }),
    );
    await expectRefused(await handle(whoami(AT, token)), RULES.senderConstrained, events, token);
  });

  test('a sub that is not a string is refused as bearer-claim-type', { tags: ['threat-model'] }, async () => {
    expect(await status({}, { sub: 42 })).toBe(401);
  });

  test('a scope that is not a string is refused as bearer-claim-type', {
    tags: ['threat-model'],
  }, async () => {
    expect(await status({}, { scope: ['a', 'b'] })).toBe(401);
  });

  test('a token with an empty signature is refused as bearer-signature', {
    tags: ['threat-model'],
  }, async () => {
    const { handle, events } = guard();
    const token = await mint(key);
    const stripped = token.slice(0, token.lastIndexOf('.') + 1);
    await expectRefused(await handle(whoami(AT, stripped)), RULES.signature, events);
  });

  test('a header with crit is refused as bearer-crit-unknown, though its signature verifies', {
    tags: ['threat-model'],
  }, async () => {
    const { handle, events } = guard();
    const token = signRaw(
      key,
      { alg: 'ES256', kid: key.kid, crit: ['urn:example:bind'], 'urn:example:bind': 1 },
      goodClaims(),
    );
    await expectRefused(await handle(whoami(AT, token)), RULES.crit, events, token);
    const plain = signRaw(key, { alg: 'ES256', kid: key.kid }, goodClaims());
    expect((await handle(whoami(AT, plain))).status).toBe(200);
  });

  test('a header that is not base64url JSON is refused as bearer-malformed', {
    tags: ['threat-model'],
  }, async () => {
    const { handle, events } = guard();
    await expectRefused(await handle(whoami(AT, 'bm90IGpzb24.e30.c2ln')), RULES.malformed, events);
  });

  test('an opaque token is refused as bearer-malformed when nothing introspects it', {
    tags: ['threat-model'],
  }, async () => {
    const { handle, events } = guard();
    await expectRefused(await handle(whoami(AT, 'opaque-token-value-123')), RULES.malformed, events);
  });
});
