/**
 * The verified-token cache: a repeated token is verified once (counted at WebCrypto's verify,
 * which jose calls, observed and passed through), never admitted past its exp on the wall clock,
 * never once the key that verified it is withdrawn, never holding a token that did not verify,
 * and bounded in entries.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { bearer, RULES } from '../src/index.js';
import { expectRefused } from './support/expect-refusal.js';
import { json, startPeer } from './support/http-peer.js';
import { fetchHandlerOf, serveNode, whoami } from './support/mcp.js';
import { goodClaims, ISSUER, jwksOf, mint, now, RESOURCE, testKey } from './support/tokens.js';

const AT = 'http://127.0.0.1/mcp';
const key = testKey('ES256');

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
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

  test('a cached token is refused once a refetch withdraws the key that verified it', {
    tags: ['threat-model'],
  }, async () => {
    const peer = await startPeer();
    const rotated = testKey('ES256');
    peer.route('/jwks', json(jwksOf(key)));
    const served = await serveNode(
      bearer({
        resource: RESOURCE,
        issuer: ISSUER,
        jwksUri: `${peer.origin}/jwks`,
        fetch: { cooldownMs: 0 },
      }),
    );
    try {
      const token = await mint(key);
      expect((await fetch(whoami(served.url, token))).status).toBe(200);
      // The provider withdraws the key; a token under the new kid makes the server refetch.
      peer.route('/jwks', json(jwksOf(rotated)));
      expect((await fetch(whoami(served.url, await mint(rotated)))).status).toBe(200);
      expect(peer.hits.get('/jwks')).toBe(2);
      await expectRefused(await fetch(whoami(served.url, token)), RULES.keyUnknown, served.events, token);
    } finally {
      await served.close();
      await peer.close();
    }
  });

  test('a refetch that still publishes the key keeps its tokens in the cache', {
    tags: ['threat-model'],
  }, async () => {
    const peer = await startPeer();
    const added = testKey('ES256');
    peer.route('/jwks', json(jwksOf(key)));
    const served = await serveNode(
      bearer({
        resource: RESOURCE,
        issuer: ISSUER,
        jwksUri: `${peer.origin}/jwks`,
        fetch: { cooldownMs: 0 },
      }),
    );
    try {
      const token = await mint(key);
      expect((await fetch(whoami(served.url, token))).status).toBe(200);
      peer.route('/jwks', json(jwksOf(added, key)));
      expect((await fetch(whoami(served.url, await mint(added)))).status).toBe(200);
      const verifications = countVerifications();
      expect((await fetch(whoami(served.url, token))).status).toBe(200);
      expect(verifications.count()).toBe(0);
    } finally {
      await served.close();
      await peer.close();
    }
  });

  test('a cached token is refused once the wall clock passes its exp, however little the monotonic clock moved', {
    tags: ['threat-model'],
  }, async () => {
    const served = await serveNode(
      bearer({ resource: RESOURCE, issuer: ISSUER, jwks: jwksOf(key), leeway: 0 }),
    );
    try {
      // Only Date is faked: sockets, timers and the monotonic clock run for real.
      vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2026, 11, 1, 12, 0, 0, 900) });
      const exp = now() + 60;
      const token = await mint(key, goodClaims({ iat: now(), exp }));
      expect((await fetch(whoami(served.url, token))).status).toBe(200);
      // The wall clock steps past exp (an NTP correction, a resumed VM), or it is simply the
      // fraction of a second a whole-second clock hides: the token is expired now.
      vi.setSystemTime((exp + 0.1) * 1000);
      await expectRefused(await fetch(whoami(served.url, token)), RULES.expired, served.events, token);
    } finally {
      vi.useRealTimers();
      await served.close();
    }
  });
});
