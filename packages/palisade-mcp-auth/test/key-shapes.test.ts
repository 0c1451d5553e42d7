/**
 * Which keys of a JWKS may verify a token. Each hostile or unfit key is published by a real key
 * endpoint on loopback beside a good key, and a token under its `kid` is sent over a real socket:
 * a key that is not a sound public signature key for the token's algorithm is never used, even
 * where the token's signature would verify under it. A host's own static set holding one throws.
 */
import { createPublicKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { AuthError, bearer, RULES } from '../src/index.js';
import { expectRefused } from './support/expect-refusal.js';
import { json, type Peer, startPeer } from './support/http-peer.js';
import { type Served, serveNode, whoami } from './support/mcp.js';
import {
  exponentOneForgery,
  goodClaims,
  ISSUER,
  jwksOf,
  mint,
  RESOURCE,
  signRaw,
  type TestKey,
  testKey,
} from './support/tokens.js';

let peer: Peer;
let served: Served;
let good: TestKey;

beforeEach(async () => {
  peer = await startPeer();
  good = testKey('ES256');
  served = await serveNode(
    bearer({ resource: RESOURCE, issuer: ISSUER, jwksUri: `${peer.origin}/jwks`, fetch: { cooldownMs: 0 } }),
  );
});

afterEach(async () => {
  await served.close();
  await peer.close();
});

function publish(...keys: Record<string, unknown>[]): void {
  peer.route('/jwks', json({ keys: [good.jwk, ...keys] }));
}

function staticRefusal(keys: Record<string, unknown>[]): string {
  try {
    bearer({ resource: RESOURCE, issuer: ISSUER, jwks: { keys } });
  } catch (error) {
    expect(error).toBeInstanceOf(AuthError);
    return (error as AuthError).message;
  }
  throw new Error('bearer() accepted the key set');
}

/** An RSA public JWK with the modulus of a real key and the exponent given, as base64url. */
function rsaWithExponent(exponent: bigint): Record<string, string> {
  const real = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'jwk' });
  const hex = exponent.toString(16);
  const e = Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex').toString('base64url');
  return { kty: 'RSA', kid: 'odd-one', n: real.n as string, e };
}

describe('RSA keys', () => {
  test('a key with public exponent 1, under which anyone can sign, is never used: its forged token is refused', {
    tags: ['threat-model'],
  }, async () => {
    const forgery = exponentOneForgery('e-is-one');
    publish(forgery.jwk);
    await expectRefused(
      await fetch(whoami(served.url, forgery.token)),
      RULES.keyUnknown,
      served.events,
      forgery.token,
    );
    expect((await fetch(whoami(served.url, await mint(good)))).status).toBe(200);
  });

  test.each([
    ['1', 1n],
    ['3', 3n],
    ['even', 65_538n],
    ['2^256 + 1', 2n ** 256n + 1n],
  ])(
    'a static JWKS holding an RSA key whose exponent is %s throws',
    { tags: ['threat-model'] },
    (_name, e) => {
      expect(staticRefusal([rsaWithExponent(e)])).toBe(
        'option "jwks" key 0 has an RSA public exponent that is not odd, above 2^16 and below 2^256 (FIPS 186-5)',
      );
    },
  );

  test('a static JWKS holding an RSA modulus over 8,192 bits throws', { tags: ['threat-model'] }, () => {
    const modulus = randomBytes(2_048);
    modulus[0] = 0xc5;
    modulus[2_047] = (modulus[2_047] as number) | 1;
    const huge = { kty: 'RSA', kid: 'huge', n: modulus.toString('base64url'), e: 'AQAB' };
    expect(createPublicKey({ key: huge, format: 'jwk' }).asymmetricKeyDetails?.modulusLength).toBe(16_384);
    expect(staticRefusal([huge])).toBe('option "jwks" key 0 has an RSA modulus over 8192 bits');
  });
});

describe('keys unfit for the token, though its signature would verify under them', () => {
  /** Each: a key pair whose private half signs the token, and the JWK the endpoint publishes for it. */
  const unfit: ReadonlyArray<readonly [string, (key: TestKey) => Record<string, unknown>]> = [
    ['a key for encryption (use: enc)', (key) => ({ ...key.jwk, use: 'enc' })],
    ['a key whose key_ops leave out verify', (key) => ({ ...key.jwk, use: undefined, key_ops: ['encrypt'] })],
    ['a key whose key_ops is not a list', (key) => ({ ...key.jwk, use: undefined, key_ops: 'verify' })],
    ['a P-256 key that says it is for ES384', (key) => ({ ...key.jwk, alg: 'ES384' })],
    ['a P-256 point published as P-384', (key) => ({ ...key.jwk, crv: 'P-384' })],
    ['a P-256 key whose point is off the curve', (key) => offCurve(key.jwk)],
  ];

  test.each(unfit)(
    '%s is never used: the token under its kid is refused as bearer-key-unknown',
    {
      tags: ['threat-model'],
    },
    async (_name, publishAs) => {
      const key = testKey('ES256');
      publish(publishAs(key));
      const token = await mint(key);
      await expectRefused(await fetch(whoami(served.url, token)), RULES.keyUnknown, served.events, token);
      expect((await fetch(whoami(served.url, await mint(good)))).status).toBe(200);
    },
  );

  test('an RSA key is not used for an ES256 token under its kid', async () => {
    const rsa = testKey('RS256');
    const ec = testKey('ES256', rsa.kid);
    publish(rsa.jwk);
    const token = await mint(ec);
    await expectRefused(await fetch(whoami(served.url, token)), RULES.keyUnknown, served.events, token);
  });
});

describe('two keys under one kid', () => {
  test('a token under a kid the set publishes twice is refused as bearer-key-ambiguous, whichever key signed it', {
    tags: ['threat-model'],
  }, async () => {
    const first = testKey('ES256', 'twin');
    const second = testKey('ES256', 'twin');
    publish(first.jwk, second.jwk);
    for (const signer of [first, second]) {
      const token = await mint(signer);
      await expectRefused(await fetch(whoami(served.url, token)), RULES.keyAmbiguous, served.events, token);
      expect(served.events.at(-1)?.reason).toBe(
        'the key set holds several keys under the token’s kid that fit its algorithm',
      );
    }
    expect((await fetch(whoami(served.url, await mint(good)))).status).toBe(200);
  });

  test('keys of two types under one kid are each found by the token’s algorithm', async () => {
    const ec = testKey('ES256', 'shared');
    const rsa = testKey('RS256', 'shared');
    publish(ec.jwk, rsa.jwk);
    expect((await fetch(whoami(served.url, await mint(ec)))).status).toBe(200);
    expect(
      (await fetch(whoami(served.url, signRaw(rsa, { alg: 'RS256', kid: 'shared' }, goodClaims())))).status,
    ).toBe(200);
  });

  test('a static JWKS holding two keys that share a kid and an algorithm throws', {
    tags: ['threat-model'],
  }, () => {
    const first = testKey('ES256', 'twin');
    const second = testKey('ES256', 'twin');
    expect(staticRefusal(jwksOf(first, second).keys)).toBe(
      'option "jwks" keys 0 and 1 share the kid "twin" and could verify the same algorithm',
    );
  });
});

/** The same x with y changed by one bit: no longer a point on P-256. */
function offCurve(jwk: Record<string, string>): Record<string, string> {
  const y = Buffer.from(jwk['y'] as string, 'base64url');
  y[31] = (y[31] as number) ^ 1;
  return { ...jwk, y: y.toString('base64url') };
}
