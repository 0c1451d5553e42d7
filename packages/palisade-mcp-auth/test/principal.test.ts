/**
 * What an admitted request carries to its handler: the principal, frozen to the bottom, and
 * never the token; and what a refused one leaves on the server's refusal channel: its rule.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { HTTP_REFUSAL_CHANNEL } from 'palisade-mcp';
import { describe, expect, test } from 'vitest';
import { bearer, type Principal } from '../src/index.js';
import { fetchHandlerOf, guardedCatalog, whoami } from './support/mcp.js';
import { goodClaims, ISSUER, jwksOf, mint, now, RESOURCE, testKey } from './support/tokens.js';

const key = testKey('ES256');
const hooks = bearer({ resource: RESOURCE, issuer: ISSUER, jwks: jwksOf(key) });

describe('the principal', () => {
  test('reaches the handler as ctx.auth with subject, client, scopes, expiry, issuer and claims', {
    tags: ['threat-model'],
  }, async () => {
    const seen: unknown[] = [];
    const { handle } = fetchHandlerOf(hooks, guardedCatalog(seen));
    const exp = now() + 300;
    const claims = goodClaims({ exp, scope: 'mcp:tools files:read', groups: ['a', { nested: ['b'] }] });
    const token = await mint(key, claims);
    expect((await handle(whoami('http://127.0.0.1/mcp', token))).status).toBe(200);
    const principal = seen[0] as Principal;
    expect(principal).toMatchObject({
      subject: 'user-1',
      clientId: 'client-1',
      scopes: ['mcp:tools', 'files:read'],
      expiresAt: exp,
      issuer: ISSUER,
      verifiedBy: 'jwt',
    });
    expect(principal.claims).toEqual(claims);
    expect(JSON.stringify(principal)).not.toContain(token.split('.')[2]);
  });

  test('is frozen to the bottom, so a handler cannot change what the next one reads', {
    tags: ['threat-model'],
  }, async () => {
    const seen: unknown[] = [];
    const { handle } = fetchHandlerOf(hooks, guardedCatalog(seen));
    await handle(whoami('http://127.0.0.1/mcp', await mint(key, goodClaims({ groups: [{ role: 'a' }] }))));
    const principal = seen[0] as Principal & { claims: { groups: { role: string }[] } };
    expect(Object.isFrozen(principal)).toBe(true);
    expect(Object.isFrozen(principal.scopes)).toBe(true);
    expect(Object.isFrozen(principal.claims.groups[0])).toBe(true);
    expect(() => {
      (principal.claims.groups[0] as { role: string }).role = 'admin';
    }).toThrow(TypeError);
  });

  test('takes its scopes from scp when the token has no scope claim', async () => {
    const seen: unknown[] = [];
    const { handle } = fetchHandlerOf(hooks, guardedCatalog(seen));
    await handle(
      whoami('http://127.0.0.1/mcp', await mint(key, goodClaims({ scope: undefined, scp: ['a', 'b'] }))),
    );
    expect((seen[0] as Principal).scopes).toEqual(['a', 'b']);
  });
});

describe('the refusal channel', () => {
  test('publishes each refusal under its bearer rule, with its status and never a byte of the token', {
    tags: ['threat-model'],
  }, async () => {
    const published: unknown[] = [];
    const listener = (message: unknown): void => {
      published.push(message);
    };
    subscribe(HTTP_REFUSAL_CHANNEL, listener);
    try {
      const { handle } = fetchHandlerOf(hooks);
      const expired = await mint(key, goodClaims({ exp: now() - 3600 }));
      await handle(whoami('http://127.0.0.1/mcp', expired));
      await handle(whoami('http://127.0.0.1/mcp', undefined));
      expect(published).toEqual([
        { rule: 'bearer-expired', status: 401, code: -32600 },
        { rule: 'bearer-missing', status: 401, code: -32600 },
      ]);
      expect(JSON.stringify(published)).not.toContain(expired.slice(-16));
    } finally {
      unsubscribe(HTTP_REFUSAL_CHANNEL, listener);
    }
  });
});
