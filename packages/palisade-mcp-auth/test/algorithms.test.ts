/**
 * Each asymmetric family verifies (RSA PKCS#1 and PSS, ECDSA on two curves, Ed25519), and the
 * `algorithms` option narrows what is accepted; a key is used only for the algorithm it fits.
 */
import { describe, expect, test } from 'vitest';
import { bearer, RULES } from '../src/index.js';
import { expectRefused } from './support/expect-refusal.js';
import { fetchHandlerOf, whoami } from './support/mcp.js';
import { ISSUER, jwksOf, mint, RESOURCE, type TestKey, testKey } from './support/tokens.js';

const AT = 'http://127.0.0.1/mcp';

describe('signing algorithms', () => {
  test.each(['ES256', 'ES384', 'RS256', 'PS256', 'EdDSA'] as const)(
    'a token signed with %s is admitted',
    async (alg) => {
      const key = testKey(alg);
      const { handle } = fetchHandlerOf(bearer({ resource: RESOURCE, issuer: ISSUER, jwks: jwksOf(key) }));
      expect((await handle(whoami(AT, await mint(key)))).status).toBe(200);
    },
  );

  test('algorithms: [ES256] refuses an RS256 token as bearer-alg-refused before any key is tried', async () => {
    const rsa = testKey('RS256');
    const ec = testKey('ES256');
    const { handle, events } = fetchHandlerOf(
      bearer({ resource: RESOURCE, issuer: ISSUER, jwks: jwksOf(ec), algorithms: ['ES256'] }),
    );
    await expectRefused(await handle(whoami(AT, await mint(rsa))), RULES.algorithm, events);
    expect((await handle(whoami(AT, await mint(ec)))).status).toBe(200);
  });

  test('an RSA key is not used for a PS256 token when the key says it is for RS256', async () => {
    const key = testKey('RS256');
    const pss: TestKey = { ...key, alg: 'PS256' };
    const { handle, events } = fetchHandlerOf(
      bearer({ resource: RESOURCE, issuer: ISSUER, jwks: jwksOf(key) }),
    );
    await expectRefused(await handle(whoami(AT, await mint(pss))), RULES.keyUnknown, events);
  });

  test('a token naming no kid is refused as bearer-key-ambiguous when two keys fit its algorithm', async () => {
    const one = testKey('ES256');
    const two = testKey('ES256');
    const { handle, events } = fetchHandlerOf(
      bearer({ resource: RESOURCE, issuer: ISSUER, jwks: jwksOf(one, two) }),
    );
    await expectRefused(
      await handle(whoami(AT, await mint(one, undefined, { kid: undefined }))),
      RULES.keyAmbiguous,
      events,
    );
    const alone = fetchHandlerOf(bearer({ resource: RESOURCE, issuer: ISSUER, jwks: jwksOf(one) }));
    expect((await alone.handle(whoami(AT, await mint(one, undefined, { kid: undefined })))).status).toBe(200);
  });
});
