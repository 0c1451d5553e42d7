/**
 * The verified-token cache: a repeated token is verified once (counted at WebCrypto's verify,
 * which jose calls, observed and passed through), never admitted past its exp, never holding a
 * token that did not verify, and bounded in entries.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { bearer, RULES } from '../src/index.js';
import { expectRefused } from './support/expect-refusal.js';
import { fetchHandlerOf, whoami } from './support/mcp.js';
import { goodClaims, ISSUER, jwksOf, mint, now, RESOURCE, testKey } from './support/tokens.js';

const AT = 'http://127.0.0.1/mcp';
const key = testKey('ES256');

afterEach(() => {
  vi.restoreAllMocks();
});

function countVerifications(): { readonly count: () => number } {
  const spy = vi.spyOn(crypto.subtle, 'verify');
  return { count: () => spy.mock.calls.length };
}

describe('the verified-token cache', () => {
  test('a token repeated ten times is verified once', { tags: ['threat-model'] }, async () => {
    const { handle } = fetchHandlerOf(bearer({ resource: RESOURCE, issuer: ISSUER, jwks: jwksOf(key) }));
    const token = await mint(key);
    const verifications = countVerifications();
    for (let i = 0; i < 10; i++) expect((await handle(whoami(AT, token))).status).toBe(200);
    expect(verifications.count()).toBe(1);
  });

  test('tokenCache: 0 verifies every request', async () => {
    const { handle } = fetchHandlerOf(
      bearer({ resource: RESOURCE, issuer: ISSUER, jwks: jwksOf(key), tokenCache: 0 }),
    );
    const token = await mint(key);
    const verifications = countVerifications();
    for (let i = 0; i < 3; i++) expect((await handle(whoami(AT, token))).status).toBe(200);
    expect(verifications.count()).toBe(3);
  });

  test('a cached token is refused once it expires', { tags: ['threat-model'] }, async () => {
    const { handle, events } = fetchHandlerOf(
      bearer({ resource: RESOURCE, issuer: ISSUER, jwks: jwksOf(key), leeway: 0 }),
    );
    // Three seconds of life: a loaded machine may take more than one between minting and the first call.
    const token = await mint(key, goodClaims({ exp: now() + 3 }));
    expect((await handle(whoami(AT, token))).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 3_100));
    await expectRefused(await handle(whoami(AT, token)), RULES.expired, events, token);
  });

  test('a token that failed verification is checked again each time, never served from the cache', {
    tags: ['threat-model'],
  }, async () => {
    const { handle } = fetchHandlerOf(bearer({ resource: RESOURCE, issuer: ISSUER, jwks: jwksOf(key) }));
    const token = await mint(key);
    const forged = `${token.slice(0, token.lastIndexOf('.') + 1)}${'A'.repeat(86)}`;
    const verifications = countVerifications();
    for (let i = 0; i < 3; i++) expect((await handle(whoami(AT, forged))).status).toBe(401);
    expect(verifications.count()).toBe(3);
  });

  test('a full cache drops its oldest entry, which is then verified again', async () => {
    const { handle } = fetchHandlerOf(
      bearer({ resource: RESOURCE, issuer: ISSUER, jwks: jwksOf(key), tokenCache: 2 }),
    );
    const [first, second, third] = await Promise.all([mint(key), mint(key), mint(key)]);
    for (const token of [first, second, third]) await handle(whoami(AT, token as string));
    const verifications = countVerifications();
    await handle(whoami(AT, third as string));
    await handle(whoami(AT, second as string));
    expect(verifications.count()).toBe(0);
    await handle(whoami(AT, first as string));
    expect(verifications.count()).toBe(1);
  });
});
