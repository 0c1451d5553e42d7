/**
 * Each hostile token of issue 21, sent over a real socket to a Palisade server behind `bearer()`:
 * each is refused 401 under its own rule, with its fixed challenge and no byte of the token in
 * the answer or the log, and the server then admits a good token on the next request.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, RULES, type Rule } from '../src/index.js';
import { expectRefused } from './support/expect-refusal.js';
import { type Served, serveNode, whoami } from './support/mcp.js';
import {
  b64,
  goodClaims,
  ISSUER,
  jwksOf,
  keyConfused,
  mint,
  now,
  RESOURCE,
  type TestKey,
  testKey,
  unsigned,
} from './support/tokens.js';

let served: Served;
let es256: TestKey;
let rs256: TestKey;
let stranger: TestKey;

beforeAll(async () => {
  es256 = testKey('ES256');
  rs256 = testKey('RS256');
  stranger = testKey('ES256');
  served = await serveNode(
    bearer({ resource: RESOURCE, issuer: ISSUER, jwks: jwksOf(es256, rs256) }),
    undefined,
    2 * 1024 * 1024,
  );
});

afterAll(async () => {
  await served.close();
});

/** The hostile token is refused under `rule`, and a good one is admitted right after. */
async function refusedThenServing(token: string, rule: Rule): Promise<void> {
  await expectRefused(await fetch(whoami(served.url, token)), rule, served.events, token);
  const good = await fetch(whoami(served.url, await mint(es256)));
  expect(good.status).toBe(200);
  expect(await good.text()).toContain('user-1');
}

describe('hostile tokens, each a named 401 with the server still serving', () => {
  test('a token with alg none is refused as bearer-alg-refused', { tags: ['threat-model'] }, async () => {
    await refusedThenServing(unsigned(goodClaims(), es256.kid), RULES.algorithm);
  });

  test('HS256 signed with the RSA public key as its secret (key confusion) is refused as bearer-alg-refused', {
    tags: ['threat-model'],
  }, async () => {
    await refusedThenServing(keyConfused(rs256), RULES.algorithm);
  });

  test('a token signed by a key not in the JWKS is refused as bearer-key-unknown', {
    tags: ['threat-model'],
  }, async () => {
    await refusedThenServing(await mint(stranger), RULES.keyUnknown);
  });

  test('a token signed by another key under a kid the JWKS holds is refused as bearer-signature', {
    tags: ['threat-model'],
  }, async () => {
    const impostor: TestKey = { ...stranger, kid: es256.kid };
    await refusedThenServing(await mint(impostor), RULES.signature);
  });

  test('a token carrying its own key in a jwk header is refused as bearer-embedded-key', {
    tags: ['threat-model'],
  }, async () => {
    const { kid: _kid, use: _use, alg: _alg, ...jwk } = stranger.jwk;
    await refusedThenServing(await mint(stranger, goodClaims(), { kid: undefined, jwk }), RULES.embeddedKey);
  });

  test('a token pointing to its own key set in a jku header is refused as bearer-embedded-key', {
    tags: ['threat-model'],
  }, async () => {
    const token = await mint(es256, goodClaims(), { jku: 'https://attacker.example/jwks.json' });
    await refusedThenServing(token, RULES.embeddedKey);
  });

  test('a token expired by the leeway plus one second is refused as bearer-expired', {
    tags: ['threat-model'],
  }, async () => {
    await refusedThenServing(await mint(es256, goodClaims({ exp: now() - 31 })), RULES.expired);
  });

  test('a token whose nbf is a minute ahead is refused as bearer-not-yet-valid', {
    tags: ['threat-model'],
  }, async () => {
    await refusedThenServing(await mint(es256, goodClaims({ nbf: now() + 60 })), RULES.notYetValid);
  });

  test('a token whose exp is a string is refused as bearer-claim-type', {
    tags: ['threat-model'],
  }, async () => {
    await refusedThenServing(await mint(es256, goodClaims({ exp: String(now() + 300) })), RULES.claimType);
  });

  test('a token without exp is refused as bearer-exp-missing', { tags: ['threat-model'] }, async () => {
    await refusedThenServing(await mint(es256, goodClaims({ exp: undefined })), RULES.expMissing);
  });

  test('a token minted for another resource is refused as bearer-audience', {
    tags: ['threat-model'],
  }, async () => {
    const token = await mint(es256, goodClaims({ aud: 'https://other.example.com/mcp' }));
    await refusedThenServing(token, RULES.audience);
  });

  test('a token from another issuer is refused as bearer-issuer', { tags: ['threat-model'] }, async () => {
    await refusedThenServing(
      await mint(es256, goodClaims({ iss: 'https://evil.example.com' })),
      RULES.issuer,
    );
  });

  test('a 1 MiB token is refused as bearer-token-too-large before it is decoded', {
    tags: ['threat-model'],
  }, async () => {
    const header = b64({ alg: 'ES256', kid: es256.kid });
    const token = `${header}.${'A'.repeat(1024 * 1024)}.sig`;
    await refusedThenServing(token, RULES.tooLarge);
  });
});

describe('what a refusal sends', () => {
  test('an expired token is answered with a challenge naming the error, its fixed description and the metadata', {
    tags: ['threat-model'],
  }, async () => {
    const response = await fetch(whoami(served.url, await mint(es256, goodClaims({ exp: now() - 3600 }))));
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      'Bearer error="invalid_token", error_description="The access token expired", ' +
        'resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"',
    );
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Unauthorized' },
    });
  });

  test('a request without a token is answered 401 with a challenge that names the metadata and no error', {
    tags: ['threat-model'],
  }, async () => {
    const response = await fetch(whoami(served.url, undefined));
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      'Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"',
    );
    expect(served.events.at(-1)?.rule).toBe('bearer-missing');
  });
});
