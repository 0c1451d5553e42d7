/**
 * Issuer discovery: RFC 8414 metadata first, then OpenID Connect discovery, at the well-known
 * addresses and in the order the MCP authorization spec lists; a document naming another issuer
 * is not taken, and discovery that fails is a named 503.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { bearer, RULES } from '../src/index.js';
import { discoveredEndpoint } from '../src/keys/discovered-endpoint.js';
import { expectRefused } from './support/expect-refusal.js';
import { json, type Peer, startPeer } from './support/http-peer.js';
import { fetchHandlerOf, serveNode, whoami } from './support/mcp.js';
import { goodClaims, jwksOf, mint, RESOURCE, type TestKey, testKey } from './support/tokens.js';

const AT = 'http://127.0.0.1/mcp';
let peer: Peer;
let key: TestKey;

beforeEach(async () => {
  peer = await startPeer();
  key = testKey('ES256');
  peer.route('/jwks', json(jwksOf(key)));
});

afterEach(async () => {
  await peer.close();
});

function guard(issuer: string) {
  return fetchHandlerOf(bearer({ resource: RESOURCE, issuer }));
}

describe('issuer discovery', () => {
  test('RFC 8414 metadata is read first and its jwks_uri admits the token', async () => {
    peer.route(
      '/.well-known/oauth-authorization-server',
      json({ issuer: peer.origin, jwks_uri: `${peer.origin}/jwks` }),
    );
    peer.route(
      '/.well-known/openid-configuration',
      json({ issuer: peer.origin, jwks_uri: `${peer.origin}/other` }),
    );
    const { handle } = guard(peer.origin);
    expect((await handle(whoami(AT, await mint(key, goodClaims({ iss: peer.origin }))))).status).toBe(200);
    expect(peer.hits.get('/.well-known/oauth-authorization-server')).toBe(1);
    expect(peer.hits.get('/.well-known/openid-configuration')).toBeUndefined();
  });

  test('OpenID discovery is read when RFC 8414 metadata is missing', async () => {
    peer.route(
      '/.well-known/openid-configuration',
      json({ issuer: peer.origin, jwks_uri: `${peer.origin}/jwks` }),
    );
    const { handle } = guard(peer.origin);
    expect((await handle(whoami(AT, await mint(key, goodClaims({ iss: peer.origin }))))).status).toBe(200);
    expect(peer.hits.get('/.well-known/oauth-authorization-server')).toBe(1);
  });

  test('an issuer with a path is tried at the three addresses in the spec’s order', async () => {
    const issuer = `${peer.origin}/tenant1`;
    peer.route(
      '/tenant1/.well-known/openid-configuration',
      json({ issuer, jwks_uri: `${peer.origin}/jwks` }),
    );
    const { handle } = guard(issuer);
    expect((await handle(whoami(AT, await mint(key, goodClaims({ iss: issuer }))))).status).toBe(200);
    expect([...peer.hits.keys()]).toEqual([
      '/.well-known/oauth-authorization-server/tenant1',
      '/.well-known/openid-configuration/tenant1',
      '/tenant1/.well-known/openid-configuration',
      '/jwks',
    ]);
  });

  test('a metadata document naming another issuer is not taken: 503', {
    tags: ['threat-model'],
  }, async () => {
    peer.route(
      '/.well-known/oauth-authorization-server',
      json({ issuer: 'https://evil.example', jwks_uri: `${peer.origin}/jwks` }),
    );
    const { handle, events } = guard(peer.origin);
    const token = await mint(key, goodClaims({ iss: peer.origin }));
    await expectRefused(await handle(whoami(AT, token)), RULES.keySourceUnavailable, events, token);
    expect(events.at(-1)?.reason).toContain('names another issuer');
    expect(peer.hits.get('/jwks')).toBeUndefined();
  });

  test('a jwks_uri over plain http to a public host is not fetched: 503', {
    tags: ['threat-model'],
  }, async () => {
    peer.route(
      '/.well-known/oauth-authorization-server',
      json({ issuer: peer.origin, jwks_uri: 'http://keys.example.com/jwks' }),
    );
    const { handle, events } = guard(peer.origin);
    await expectRefused(
      await handle(whoami(AT, await mint(key, goodClaims({ iss: peer.origin })))),
      RULES.keySourceUnavailable,
      events,
    );
    expect(events.at(-1)?.reason).toContain('names an endpoint that is not https');
  });

  test('an issuer that publishes no metadata is a 503 naming discovery', {
    tags: ['threat-model'],
  }, async () => {
    const { handle, events } = guard(peer.origin);
    await expectRefused(
      await handle(whoami(AT, await mint(key, goodClaims({ iss: peer.origin })))),
      RULES.keySourceUnavailable,
      events,
    );
    expect(events.at(-1)?.reason).toBe(
      `discovery for ${peer.origin} failed: /.well-known/oauth-authorization-server answered 404; ` +
        '/.well-known/openid-configuration answered 404',
    );
  });
});

describe('where discovered endpoints may point', () => {
  test.each([
    'https://169.254.169.254/jwks',
    'https://2852039166/jwks',
    'https://[::ffff:169.254.169.254]/jwks',
    'https://[64:ff9b::a9fe:a9fe]/jwks',
    'https://[fe80::1]/jwks',
    'https://0.0.0.0/jwks',
    'https://[::]/jwks',
    'https://224.0.0.1/jwks',
  ])(
    'a jwks_uri of %s, where no authorization server lives, is never fetched: 503',
    {
      tags: ['threat-model'],
    },
    async (jwksUri) => {
      peer.route('/.well-known/oauth-authorization-server', json({ issuer: peer.origin, jwks_uri: jwksUri }));
      const served = await serveNode(
        bearer({ resource: RESOURCE, issuer: peer.origin, fetch: { timeoutMs: 3_000 } }),
      );
      try {
        const token = await mint(key, goodClaims({ iss: peer.origin }));
        await expectRefused(
          await fetch(whoami(served.url, token)),
          RULES.keySourceUnavailable,
          served.events,
          token,
        );
        expect(served.events.at(-1)?.reason).toBe(
          `discovery for ${peer.origin} failed: /.well-known/oauth-authorization-server names an endpoint on a ` +
            'link-local, unspecified or multicast address; /.well-known/openid-configuration answered 404',
        );
      } finally {
        await served.close();
      }
    },
  );

  test('an introspection_endpoint on a link-local address is never sent the token or the credentials: 503', {
    tags: ['threat-model'],
  }, async () => {
    peer.route(
      '/.well-known/oauth-authorization-server',
      json({ issuer: peer.origin, introspection_endpoint: 'https://169.254.169.254/introspect' }),
    );
    const credentials = { clientId: 'mcp', clientSecret: 'secret' };
    const served = await serveNode(
      bearer({
        resource: RESOURCE,
        issuer: peer.origin,
        introspection: credentials,
        fetch: { timeoutMs: 3_000 },
      }),
    );
    try {
      const response = await fetch(whoami(served.url, 'opaque-token-0123456789abcdef'));
      await expectRefused(
        response,
        RULES.introspectionUnavailable,
        served.events,
        'opaque-token-0123456789abcdef',
      );
      expect(served.events.at(-1)?.reason).toContain(
        'names an endpoint on a link-local, unspecified or multicast address',
      );
    } finally {
      await served.close();
    }
  });

  test('for an issuer off loopback, an endpoint on loopback is refused, one on another origin or a private address taken', {
    tags: ['threat-model'],
  }, () => {
    const issuer = new URL('https://auth.example.com');
    for (const local of [
      'https://127.0.0.1/jwks',
      'https://127.8.9.10:8443/jwks',
      'https://localhost/jwks',
      'https://keys.localhost./jwks',
      'https://[::1]/jwks',
      'https://[::ffff:127.0.0.1]/jwks',
      'https://[::127.0.0.1]/jwks',
      'https://0x7f.1/jwks',
    ]) {
      expect(discoveredEndpoint(local, issuer)).toEqual({
        refused: 'names a loopback endpoint for an issuer that is not on loopback',
      });
    }
    for (const taken of [
      'https://www.googleapis.com/oauth2/v3/certs',
      'https://10.0.0.5/jwks',
      'https://[fd00::5]/jwks',
    ]) {
      expect(discoveredEndpoint(taken, issuer)).toEqual(new URL(taken));
    }
    expect(discoveredEndpoint('http://keys.example.com/jwks', issuer)).toEqual({
      refused: 'names an endpoint that is not https',
    });
    expect(discoveredEndpoint('https://user:pw@auth.example.com/jwks', issuer)).toEqual({
      refused: 'names an endpoint with userinfo',
    });
  });

  test('for an issuer on loopback, an endpoint on loopback is taken, over http too', () => {
    const issuer = new URL('http://127.0.0.1:9000');
    for (const taken of [
      'http://127.0.0.1:9001/jwks',
      'http://localhost:9001/jwks',
      'https://[::1]:9001/jwks',
    ]) {
      expect(discoveredEndpoint(taken, issuer)).toEqual(new URL(taken));
    }
  });
});
