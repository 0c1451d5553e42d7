/**
 * Opaque tokens judged by an RFC 7662 introspection endpoint (a real HTTP server on loopback that
 * counts and records what it is sent): client authentication as configured, the answer's claims
 * held to the same rules as a JWT's, answers cached by digest no longer than the token lives, and
 * the endpoint's load bounded.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { type BearerOptions, bearer, type Principal, RULES } from '../src/index.js';
import { expectRefused } from './support/expect-refusal.js';
import { json, type Peer, type Route, startPeer } from './support/http-peer.js';
import { fetchHandlerOf, guardedCatalog, serveNode, whoami } from './support/mcp.js';
import { ISSUER, now, RESOURCE } from './support/tokens.js';

const AT = 'http://127.0.0.1/mcp';
const TOKEN = 'opaque-4c1d8f2e9a7b6c5d4e3f2a1b0c9d8e7f';
let peer: Peer;

beforeEach(async () => {
  peer = await startPeer();
});

afterEach(async () => {
  vi.useRealTimers();
  await peer.close();
});

function active(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    active: true,
    iss: ISSUER,
    aud: RESOURCE,
    sub: 'user-9',
    client_id: 'client-9',
    scope: 'mcp:tools',
    token_type: 'Bearer',
    exp: now() + 300,
    ...extra,
  };
}

function guard(
  introspection: Partial<NonNullable<BearerOptions['introspection']>> = {},
  extra: Partial<BearerOptions> = {},
  seen: unknown[] = [],
) {
  return fetchHandlerOf(
    bearer({
      resource: RESOURCE,
      issuer: ISSUER,
      introspection: {
        endpoint: `${peer.origin}/introspect`,
        clientId: 'mcp server',
        clientSecret: 's3cr:et',
        ...introspection,
      },
      ...extra,
    }),
    guardedCatalog(seen),
  );
}

describe('introspection', () => {
  test('an active token is admitted, its principal marked as introspected', async () => {
    peer.route('/introspect', json(active()));
    const seen: unknown[] = [];
    const { handle } = guard({}, {}, seen);
    expect((await handle(whoami(AT, TOKEN))).status).toBe(200);
    expect(seen[0]).toMatchObject({
      subject: 'user-9',
      clientId: 'client-9',
      scopes: ['mcp:tools'],
      verifiedBy: 'introspection',
      issuer: ISSUER,
    });
    expect((seen[0] as Principal).claims).not.toHaveProperty('active');
  });

  test('the token is posted as a form with client_secret_basic, id and secret form-encoded', {
    tags: ['threat-model'],
  }, async () => {
    peer.route('/introspect', json(active()));
    const { handle } = guard();
    await handle(whoami(AT, TOKEN));
    expect(peer.bodies.get('/introspect')).toEqual([`token=${TOKEN}&token_type_hint=access_token`]);
    const headers = peer.headers.get('/introspect')?.[0];
    expect(headers?.['content-type']).toBe('application/x-www-form-urlencoded');
    expect(headers?.authorization).toBe(`Basic ${Buffer.from('mcp+server:s3cr%3Aet').toString('base64')}`);
  });

  test('client_secret_post sends the credentials in the form instead', async () => {
    peer.route('/introspect', json(active()));
    const { handle } = guard({ clientAuth: 'client_secret_post' });
    await handle(whoami(AT, TOKEN));
    expect(peer.bodies.get('/introspect')?.[0]).toBe(
      `token=${TOKEN}&token_type_hint=access_token&client_id=mcp+server&client_secret=s3cr%3Aet`,
    );
    expect(peer.headers.get('/introspect')?.[0]?.authorization).toBeUndefined();
  });

  test('active: false is refused 401 as bearer-inactive', { tags: ['threat-model'] }, async () => {
    peer.route('/introspect', json({ active: false }));
    const { handle, events } = guard();
    await expectRefused(await handle(whoami(AT, TOKEN)), RULES.inactive, events, TOKEN);
  });

  test.each([
    ['an answer for another audience', { aud: 'https://other.example/mcp' }, RULES.audience],
    ['an answer from another issuer', { iss: 'https://evil.example' }, RULES.issuer],
    ['an answer that expired', { exp: now() - 3600 }, RULES.expired],
    ['an answer without exp', { exp: undefined }, RULES.expMissing],
    ['a refresh token', { token_type: 'refresh_token' }, RULES.type],
    ['active: "true" as a string', { active: 'true' }, RULES.inactive],
  ])('%s is refused 401 under its rule', { tags: ['threat-model'] }, async (_what, extra, rule) => {
    peer.route('/introspect', json(active(extra)));
    const { handle, events } = guard();
    await expectRefused(await handle(whoami(AT, TOKEN)), rule, events, TOKEN);
  });

  test('one token asked 20 times, 10 of them at once, costs the endpoint one request', {
    tags: ['threat-model'],
  }, async () => {
    peer.route('/introspect', json(active()));
    const { handle } = guard();
    const together = await Promise.all(Array.from({ length: 10 }, () => handle(whoami(AT, TOKEN))));
    for (let i = 0; i < 10; i++) expect((await handle(whoami(AT, TOKEN))).status).toBe(200);
    expect(together.every((response) => response.status === 200)).toBe(true);
    expect(peer.hits.get('/introspect')).toBe(1);
  });

  test('a cached answer is not used past the token’s exp', { tags: ['threat-model'] }, async () => {
    peer.route('/introspect', json(active({ exp: now() + 3 })));
    const { handle } = guard({ cacheTtlMs: 60_000 }, { leeway: 0 });
    expect((await handle(whoami(AT, TOKEN))).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 3_100));
    peer.route('/introspect', json({ active: false }));
    expect((await handle(whoami(AT, TOKEN))).status).toBe(401);
    expect(peer.hits.get('/introspect')).toBe(2);
  });

  test('cacheTtlMs: 0 asks the endpoint every time', async () => {
    peer.route('/introspect', json(active()));
    const { handle } = guard({ cacheTtlMs: 0 });
    await handle(whoami(AT, TOKEN));
    await handle(whoami(AT, TOKEN));
    expect(peer.hits.get('/introspect')).toBe(2);
  });

  test('an endpoint that hangs is a 503 at the fetch deadline, and the answer is not cached', {
    tags: ['threat-model'],
  }, async () => {
    peer.route('/introspect', () => {});
    const { handle, events } = guard({}, { fetch: { timeoutMs: 200 } });
    await expectRefused(await handle(whoami(AT, TOKEN)), RULES.introspectionUnavailable, events, TOKEN);
    expect(events.at(-1)?.reason).toBe(`introspection at ${peer.origin} did not answer within 200 ms`);
    peer.route('/introspect', json(active()));
    expect((await handle(whoami(AT, TOKEN))).status).toBe(200);
  });

  test('an endpoint that redirects is not followed, so the credentials are never resent: 503', {
    tags: ['threat-model'],
  }, async () => {
    peer.route('/introspect', (_req, res) => {
      res.writeHead(307, { location: '/elsewhere' }).end();
    });
    const { handle, events } = guard();
    await expectRefused(await handle(whoami(AT, TOKEN)), RULES.introspectionUnavailable, events);
    expect(peer.hits.get('/elsewhere')).toBeUndefined();
  });

  test('past 32 introspections in flight, the next token is refused 503 as bearer-introspection-busy', {
    tags: ['threat-model'],
  }, async () => {
    const held: Array<() => void> = [];
    const slow: Route = (_req, res) => {
      held.push(() => json(active())(_req, res, ''));
    };
    peer.route('/introspect', slow);
    const { handle, events } = guard();
    const pending = Array.from({ length: 32 }, (_, i) => handle(whoami(AT, `${TOKEN}-${i}`)));
    while (held.length < 32) await new Promise((resolve) => setTimeout(resolve, 10));
    const busy = await handle(whoami(AT, `${TOKEN}-late`));
    // Busy lasts as long as one introspection: come back in a second, not a key source's cooldown.
    expect(busy.headers.get('retry-after')).toBe('1');
    await expectRefused(busy, RULES.introspectionBusy, events);
    for (const release of held) release();
    expect((await Promise.all(pending)).every((response) => response.status === 200)).toBe(true);
  });

  test('a cached answer is not used once the wall clock passes the token’s exp, however little the monotonic clock moved', {
    tags: ['threat-model'],
  }, async () => {
    const options = { endpoint: `${peer.origin}/introspect`, clientId: 'mcp', clientSecret: 'secret' };
    const served = await serveNode(bearer({ resource: RESOURCE, issuer: ISSUER, introspection: options }));
    try {
      vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2026, 11, 1, 12, 0, 0, 900) });
      const exp = now() + 60;
      peer.route('/introspect', json(active({ exp })));
      expect((await fetch(whoami(served.url, TOKEN))).status).toBe(200);
      // The wall clock steps an hour on: the cached answer is dropped and the endpoint asked again.
      vi.setSystemTime((exp + 3_600) * 1000);
      await expectRefused(await fetch(whoami(served.url, TOKEN)), RULES.expired, served.events, TOKEN);
      expect(peer.hits.get('/introspect')).toBe(2);
    } finally {
      vi.useRealTimers();
      await served.close();
    }
  });

  test('an endpoint failing in any way is logged by its origin and the failure, never with the client secret, the token or its own bytes', {
    tags: ['threat-model'],
  }, async () => {
    const secret = 'client-secret-7f3a9c';
    const echo: Route = (req, res, body) => {
      // A hostile or broken endpoint that reflects what it was sent back in every shape.
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: req.headers.authorization, body }));
    };
    const answers: Route[] = [
      echo,
      (req, res, body) =>
        res.writeHead(200, { 'content-type': 'text/html' }).end(`${req.headers.authorization}${body}`),
      (req, res) => res.writeHead(307, { location: `/x?${req.headers.authorization}` }).end(),
      (req, res, body) =>
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(`not json ${req.headers.authorization}${body}`),
    ];
    const options = { endpoint: `${peer.origin}/introspect`, clientId: 'mcp', clientSecret: secret };
    const served = await serveNode(
      bearer({ resource: RESOURCE, issuer: ISSUER, introspection: { ...options, cacheTtlMs: 0 } }),
    );
    try {
      for (const answer of answers) {
        peer.route('/introspect', answer);
        const response = await fetch(whoami(served.url, TOKEN));
        const text = `${response.status} ${JSON.stringify([...response.headers])} ${await response.text()}`;
        expect(response.status).toBe(503);
        expect(served.events.at(-1)?.reason).toMatch(new RegExp(`^introspection at ${peer.origin} `));
        for (const leaked of [secret, TOKEN, Buffer.from(`mcp:${secret}`).toString('base64')]) {
          expect(text).not.toContain(leaked);
          expect(JSON.stringify(served.events)).not.toContain(leaked);
        }
      }
      expect(peer.hits.get('/introspect')).toBe(answers.length);
    } finally {
      await served.close();
    }
  });
});
