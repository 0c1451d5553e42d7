/**
 * Against a real authorization server: oidc-provider in this process on loopback, resource
 * indicators on. Palisade's server behind `bearer()` (keys by discovery, over HTTP) admits the
 * JWT access tokens it mints for this resource by client credentials and by authorization code
 * with PKCE, refuses the ones it mints for another resource, and judges its opaque tokens by its
 * introspection endpoint.
 */
import { createServer } from 'palisade-mcp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { demoCatalog } from '../../demo/src/catalog.js';
import { bearer, type Principal, RULES } from '../src/index.js';
import {
  type AuthorizationServer,
  authorizationCodeToken,
  clientCredentialsToken,
  startAuthorizationServer,
} from './support/authorization-server.js';
import { expectRefused } from './support/expect-refusal.js';
import {
  fetchHandlerOf,
  guardedCatalog,
  modern,
  post,
  type Served,
  serveNode,
  whoami,
} from './support/mcp.js';

const RESOURCE = 'http://127.0.0.1:4180/mcp';
const OTHER = 'http://127.0.0.1:4181/mcp';
const OPAQUE = 'http://127.0.0.1:4182/mcp';
let as: AuthorizationServer;
let served: Served;
const seen: unknown[] = [];

beforeAll(async () => {
  as = await startAuthorizationServer({ jwt: RESOURCE, opaque: OPAQUE, scope: 'mcp:tools mcp:admin' });
  // Resource identifiers are names, not addresses: the server answers on its own port.
  served = await serveNode(
    bearer({
      resource: RESOURCE,
      issuer: as.issuer,
      profile: 'rfc9068',
      scopes: { required: ['mcp:tools'] },
    }),
    guardedCatalog(seen),
  );
});

afterAll(async () => {
  await served.close();
  await as.close();
});

describe('tokens from oidc-provider', () => {
  test('a JWT access token by client credentials for this resource is admitted', {
    tags: ['threat-model'],
  }, async () => {
    const token = await clientCredentialsToken(as, RESOURCE, 'mcp:tools');
    expect(token.split('.')).toHaveLength(3);
    const response = await fetch(whoami(served.url, token));
    expect(response.status).toBe(200);
    const principal = seen.at(-1) as Principal;
    expect(principal).toMatchObject({
      clientId: as.service.clientId,
      scopes: ['mcp:tools'],
      issuer: as.issuer,
      verifiedBy: 'jwt',
    });
    expect(principal.claims['aud']).toBe(RESOURCE);
  });

  test('Palisade’s demo behind bearer() answers a call made with its token, and refuses the call without one', async () => {
    const demo = await serveNode(
      bearer({ resource: RESOURCE, issuer: as.issuer }),
      createServer(demoCatalog),
    );
    try {
      const add = modern('tools/call', { name: 'add', arguments: { a: 2, b: 3 } });
      const token = await clientCredentialsToken(as, RESOURCE, 'mcp:tools');
      const answer = await fetch(post(demo.url, add, `Bearer ${token}`));
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({ result: { structuredContent: { sum: 5 } } });
      expect((await fetch(post(demo.url, add))).status).toBe(401);
    } finally {
      await demo.close();
    }
  });

  test('a JWT access token by authorization code with PKCE is admitted for the signed-in user', {
    tags: ['threat-model'],
  }, async () => {
    const token = await authorizationCodeToken(as, RESOURCE, 'mcp:tools');
    expect((await fetch(whoami(served.url, token))).status).toBe(200);
    expect(seen.at(-1)).toMatchObject({ subject: 'user-1', clientId: as.app.clientId });
  });

  test('a token the same server minted for another resource is refused as bearer-audience', {
    tags: ['threat-model'],
  }, async () => {
    const foreign = await startAuthorizationServer({ jwt: OTHER, scope: 'mcp:tools' });
    try {
      const other = fetchHandlerOf(bearer({ resource: OTHER, issuer: foreign.issuer }));
      const token = await clientCredentialsToken(foreign, OTHER, 'mcp:tools');
      expect((await other.handle(whoami('http://127.0.0.1/mcp', token))).status).toBe(200);
      const ours = fetchHandlerOf(bearer({ resource: RESOURCE, issuer: foreign.issuer }));
      await expectRefused(
        await ours.handle(whoami('http://127.0.0.1/mcp', token)),
        RULES.audience,
        ours.events,
        token,
      );
    } finally {
      await foreign.close();
    }
  });

  test('a token without the scope the server needs is refused 403', { tags: ['threat-model'] }, async () => {
    const token = await clientCredentialsToken(as, RESOURCE, 'mcp:admin');
    const response = await fetch(whoami(served.url, token));
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toContain('scope="mcp:tools"');
  });

  test('a token from another oidc-provider, with its own keys, is refused as bearer-issuer', {
    tags: ['threat-model'],
  }, async () => {
    const impostor = await startAuthorizationServer({ jwt: RESOURCE, scope: 'mcp:tools' });
    try {
      const token = await clientCredentialsToken(impostor, RESOURCE, 'mcp:tools');
      await expectRefused(await fetch(whoami(served.url, token)), RULES.issuer, served.events, token);
    } finally {
      await impostor.close();
    }
  });

  test('its keys were found by RFC 8414 discovery and fetched once over HTTP for three tokens', async () => {
    const counted = fetchHandlerOf(bearer({ resource: RESOURCE, issuer: as.issuer }));
    const fetched: string[] = [];
    const listener = (event: { request: { origin: string; path: string } }): void => {
      fetched.push(event.request.path);
    };
    const { subscribe, unsubscribe } = await import('node:diagnostics_channel');
    subscribe('undici:request:create', listener as never);
    try {
      for (let i = 0; i < 3; i++) {
        const token = await clientCredentialsToken(as, RESOURCE, 'mcp:tools');
        expect((await counted.handle(whoami('http://127.0.0.1/mcp', token))).status).toBe(200);
      }
    } finally {
      unsubscribe('undici:request:create', listener as never);
    }
    const discovery = fetched.filter((path) => path.startsWith('/.well-known/'));
    // oidc-provider serves RFC 8414 metadata, so OpenID discovery is never asked.
    expect(discovery).toEqual(['/.well-known/oauth-authorization-server']);
    expect(fetched.filter((path) => path === '/jwks')).toHaveLength(1);
  });

  test('an opaque token is judged by its introspection endpoint, with the service client authenticating', {
    tags: ['threat-model'],
  }, async () => {
    const opaque = fetchHandlerOf(
      bearer({
        resource: OPAQUE,
        issuer: as.issuer,
        introspection: { clientId: as.service.clientId, clientSecret: as.service.clientSecret },
      }),
      guardedCatalog(seen),
    );
    const token = await clientCredentialsToken(as, OPAQUE, 'mcp:tools');
    expect(token.split('.')).toHaveLength(1);
    expect((await opaque.handle(whoami('http://127.0.0.1/mcp', token))).status).toBe(200);
    expect(seen.at(-1)).toMatchObject({
      clientId: as.service.clientId,
      verifiedBy: 'introspection',
      scopes: ['mcp:tools'],
    });
    await expectRefused(
      await opaque.handle(whoami('http://127.0.0.1/mcp', `${token}x`)),
      RULES.inactive,
      opaque.events,
    );
  });
});
