/**
 * Keys fetched from a JWKS endpoint: a real HTTP server on loopback that counts what it is asked
 * and answers as the test sets it. Fetches are bounded (time, bytes, redirects, media type) and
 * rationed (an unknown kid refetches at most once per cooldown); a source that cannot be read
 * fails closed with a named 503, and the server keeps answering.
 */
import { randomUUID } from 'node:crypto';
import type { AuthorizeRequest } from 'palisade-mcp/http';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { bearer, RULES } from '../src/index.js';
import { expectRefused } from './support/expect-refusal.js';
import { json, type Peer, type Route, startPeer } from './support/http-peer.js';
import { fetchHandlerOf, serveNode, whoami } from './support/mcp.js';
import { goodClaims, ISSUER, jwksOf, mint, RESOURCE, type TestKey, testKey } from './support/tokens.js';

const URL_IN_PROCESS = 'http://127.0.0.1/mcp';

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

/** What the server hands `authorize` for a tools/call carrying `token`, as the fetch handler builds it. */
function authorizeRequestFor(token: string): AuthorizeRequest {
  const headers: Record<string, string> = {
    host: '127.0.0.1',
    'content-type': 'application/json',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    'mcp-name': 'whoami',
    authorization: `Bearer ${token}`,
  };
  return Object.freeze({
    method: 'POST',
    target: '/mcp',
    headers: Object.freeze(headers),
    rawHeaders: Object.freeze(Object.entries(headers).flat()),
    remoteAddress: undefined,
  });
}

function guarded(fetch: Record<string, number> = {}) {
  return fetchHandlerOf(
    bearer({ resource: RESOURCE, issuer: ISSUER, jwksUri: `${peer.origin}/jwks`, fetch }),
  );
}

describe('a remote JWKS', () => {
  test('a good token is admitted with the key fetched once, and the key is reused for the next', async () => {
    const { handle } = guarded();
    for (let i = 0; i < 5; i++)
      expect((await handle(whoami(URL_IN_PROCESS, await mint(key)))).status).toBe(200);
    expect(peer.hits.get('/jwks')).toBe(1);
  });

  test('10,000 requests with random kids fetch the key source at most once per cooldown', {
    tags: ['threat-model'],
  }, async () => {
    const hooks = bearer({ resource: RESOURCE, issuer: ISSUER, jwksUri: `${peer.origin}/jwks` });
    const { handle, events } = fetchHandlerOf(hooks);
    const started = performance.now();
    expect((await handle(whoami(URL_IN_PROCESS, await mint(key)))).status).toBe(200);
    const [header, payload, signature] = (await mint(key)).split('.') as [string, string, string];
    const decoded = JSON.parse(Buffer.from(header, 'base64url').toString()) as Record<string, unknown>;
    const forged = (): string =>
      `${Buffer.from(JSON.stringify({ ...decoded, kid: randomUUID() })).toString('base64url')}.${payload}.${signature}`;
    // The hook itself for 9,900 of them (the rationing is the key source's), the last 100
    // through the whole fetch handler, all in batches of 100 at once.
    const verdicts: unknown[] = [];
    for (let batch = 0; batch < 99; batch++) {
      const requests = Array.from({ length: 100 }, () => authorizeRequestFor(forged()));
      verdicts.push(...(await Promise.all(requests.map((request) => hooks.authorize(request)))));
    }
    expect(verdicts).toHaveLength(9_900);
    expect(
      verdicts.filter((verdict) => (verdict as { rule?: string }).rule !== RULES.keyUnknown.rule),
    ).toEqual([]);
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => handle(whoami(URL_IN_PROCESS, forged()))),
    );
    expect(answers.filter((answer) => answer.status !== 401)).toEqual([]);
    expect(events.filter((event) => event.rule === RULES.keyUnknown.rule)).toHaveLength(100);
    // One fetch when the first token arrived; the cooldown (30 s) then holds every random kid:
    // one more is allowed for each 30 s the run took (on an idle machine it takes about 2 s).
    const cooldowns = Math.floor((performance.now() - started) / 30_000);
    expect(peer.hits.get('/jwks')).toBeGreaterThanOrEqual(1);
    expect(peer.hits.get('/jwks')).toBeLessThanOrEqual(1 + cooldowns);
    expect((await handle(whoami(URL_IN_PROCESS, await mint(key)))).status).toBe(200);
  });

  test('an unknown kid after the cooldown refetches once, however many arrive together, and finds a rotated key', {
    tags: ['threat-model'],
  }, async () => {
    const { handle } = guarded({ cooldownMs: 100 });
    expect((await handle(whoami(URL_IN_PROCESS, await mint(key)))).status).toBe(200);
    const rotated = testKey('ES256');
    peer.route('/jwks', json(jwksOf(key, rotated)));
    await new Promise((resolve) => setTimeout(resolve, 150));
    const tokens = await Promise.all(Array.from({ length: 50 }, () => mint(rotated)));
    const answers = await Promise.all(tokens.map((token) => handle(whoami(URL_IN_PROCESS, token))));
    expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(200));
    expect(peer.hits.get('/jwks')).toBe(2);
  });

  test('keys are fetched again once cacheMaxAgeMs has passed', async () => {
    const { handle } = guarded({ cacheMaxAgeMs: 100 });
    expect((await handle(whoami(URL_IN_PROCESS, await mint(key)))).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect((await handle(whoami(URL_IN_PROCESS, await mint(key)))).status).toBe(200);
    expect(peer.hits.get('/jwks')).toBe(2);
  });

  test('a key the provider withdrew is refused once the cached set has aged out', async () => {
    const { handle, events } = guarded({ cacheMaxAgeMs: 100, cooldownMs: 0 });
    expect((await handle(whoami(URL_IN_PROCESS, await mint(key)))).status).toBe(200);
    peer.route('/jwks', json(jwksOf(testKey('ES256'))));
    await new Promise((resolve) => setTimeout(resolve, 150));
    await expectRefused(await handle(whoami(URL_IN_PROCESS, await mint(key))), RULES.keyUnknown, events);
  });
});

describe('a cold start under load', () => {
  /** The answer, held until `ms` after the request arrives, so every request of a burst overlaps the fetch. */
  const slowly =
    (answer: unknown, ms: number): Route =>
    (req, res, body) =>
      setTimeout(() => json(answer)(req, res, body), ms);

  test('50 requests arriving together before any key is held cost the JWKS one fetch', {
    tags: ['threat-model'],
  }, async () => {
    peer.route('/jwks', slowly(jwksOf(key), 300));
    const served = await serveNode(
      bearer({ resource: RESOURCE, issuer: ISSUER, jwksUri: `${peer.origin}/jwks` }),
    );
    try {
      const tokens = await Promise.all(Array.from({ length: 50 }, () => mint(key)));
      const answers = await Promise.all(tokens.map((token) => fetch(whoami(served.url, token))));
      expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(200));
      expect(peer.hits.get('/jwks')).toBe(1);
    } finally {
      await served.close();
    }
  });

  test('50 requests arriving together before discovery cost the metadata one fetch and the JWKS one', {
    tags: ['threat-model'],
  }, async () => {
    peer.route(
      '/.well-known/oauth-authorization-server',
      slowly({ issuer: peer.origin, jwks_uri: `${peer.origin}/jwks` }, 200),
    );
    peer.route('/jwks', slowly(jwksOf(key), 200));
    const served = await serveNode(bearer({ resource: RESOURCE, issuer: peer.origin }));
    try {
      const tokens = await Promise.all(
        Array.from({ length: 50 }, () => mint(key, goodClaims({ iss: peer.origin }))),
      );
      const answers = await Promise.all(tokens.map((token) => fetch(whoami(served.url, token))));
      expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(200));
      expect(peer.hits.get('/.well-known/oauth-authorization-server')).toBe(1);
      expect(peer.hits.get('/jwks')).toBe(1);
    } finally {
      await served.close();
    }
  });
});

describe('a key source that cannot be read fails closed with a named 503', () => {
  async function unavailable(fetch: Record<string, number> = {}): Promise<string | undefined> {
    const { handle, events } = guarded({ cooldownMs: 60_000, ...fetch });
    const token = await mint(key);
    const started = performance.now();
    const response = await handle(whoami(URL_IN_PROCESS, token));
    const tookSeconds = Math.ceil((performance.now() - started) / 1000);
    await expectRefused(response, RULES.keySourceUnavailable, events, token);
    // The cooldown runs from the fetch's start: what the failed fetch took is already spent.
    const retryAfter = Number(response.headers.get('retry-after'));
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(retryAfter).toBeGreaterThanOrEqual(60 - tookSeconds);
    expect(response.headers.get('www-authenticate')).toBeNull();
    // Still serving: the next request is answered without asking the source again within the
    // cooldown (so without waiting on it either).
    const hits = peer.hits.get('/jwks') ?? 0;
    expect((await handle(whoami(URL_IN_PROCESS, token))).status).toBe(503);
    expect(peer.hits.get('/jwks') ?? 0).toBe(hits);
    return events.at(-1)?.reason;
  }

  test('each 503 says when the key source will be asked again, counting the cooldown down', {
    tags: ['threat-model'],
  }, async () => {
    peer.route('/jwks', (_req, res) => res.writeHead(500).end());
    const served = await serveNode(
      bearer({
        resource: RESOURCE,
        issuer: ISSUER,
        jwksUri: `${peer.origin}/jwks`,
        fetch: { cooldownMs: 4_000 },
      }),
    );
    try {
      const first = await fetch(whoami(served.url, await mint(key)));
      expect(first.status).toBe(503);
      const firstWait = Number(first.headers.get('retry-after'));
      expect(firstWait).toBeGreaterThanOrEqual(3);
      expect(firstWait).toBeLessThanOrEqual(4);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const later = await fetch(whoami(served.url, await mint(key)));
      expect(later.status).toBe(503);
      const laterWait = Number(later.headers.get('retry-after'));
      expect(laterWait).toBeGreaterThanOrEqual(1);
      expect(laterWait).toBeLessThan(firstWait);
      expect(peer.hits.get('/jwks')).toBe(1);
    } finally {
      await served.close();
    }
  });

  test('a key endpoint that never answers is refused 503 at the fetch deadline', {
    tags: ['threat-model'],
  }, async () => {
    peer.route('/jwks', () => {});
    expect(await unavailable({ timeoutMs: 300 })).toBe(
      `the JWKS at ${peer.origin} did not answer within 300 ms`,
    );
  });

  test('a key endpoint that answers HTML is refused 503 by its media type', {
    tags: ['threat-model'],
  }, async () => {
    peer.route('/jwks', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>login</html>');
    });
    expect(await unavailable()).toBe(
      `the JWKS at ${peer.origin} answered another media type, not application/json or application/jwk-set+json`,
    );
  });

  test('a key endpoint redirecting to 169.254.169.254 is refused 503 without following it', {
    tags: ['threat-model'],
  }, async () => {
    peer.route('/jwks', (_req, res) => {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/iam/' }).end();
    });
    expect(await unavailable()).toBe(`the JWKS at ${peer.origin} redirected to another origin`);
  });

  test('a key endpoint sending 50 MiB is cut at the byte cap and refused 503', {
    tags: ['threat-model'],
  }, async () => {
    let written = 0;
    let cut = false;
    peer.route('/jwks', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = (): void => {
        while (written < 50 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
        res.end();
      };
      res.on('close', () => {
        cut = written < 50 * 1024 * 1024;
      });
      pump();
    });
    expect(await unavailable()).toBe(`the JWKS at ${peer.origin} sent more than 262144 bytes`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(cut).toBe(true);
  });

  test('a key endpoint declaring 50 MiB is refused 503 before its body is read', {
    tags: ['threat-model'],
  }, async () => {
    peer.route('/jwks', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(50 * 1024 * 1024) });
      res.write('{');
    });
    expect(await unavailable()).toBe(`the JWKS at ${peer.origin} declared more than 262144 bytes`);
  });

  test('a JWKS of 10,000 keys is refused whole, 503', { tags: ['threat-model'] }, async () => {
    const many = { keys: Array.from({ length: 10_000 }, () => key.jwk) };
    peer.route('/jwks', json(many));
    expect(await unavailable({ maxBytes: 4 * 1024 * 1024 })).toBe(
      `the JWKS at ${peer.origin} holds 10000 keys, more than 100`,
    );
  });

  test('a JWKS publishing a private key is refused whole, 503', { tags: ['threat-model'] }, async () => {
    const exposed = key.privateKey.export({ format: 'jwk' });
    peer.route('/jwks', json({ keys: [{ ...exposed, kid: key.kid }] }));
    expect(await unavailable()).toBe(`the JWKS at ${peer.origin} key 0 holds private key material ("d")`);
  });

  test('a key endpoint that cannot be reached is refused 503', async () => {
    const gone = peer.origin;
    await peer.close();
    const { handle, events } = fetchHandlerOf(
      bearer({ resource: RESOURCE, issuer: ISSUER, jwksUri: `${gone}/jwks` }),
    );
    await expectRefused(
      await handle(whoami(URL_IN_PROCESS, await mint(key))),
      RULES.keySourceUnavailable,
      events,
    );
    expect(events.at(-1)?.reason).toBe(`the JWKS at ${gone} could not be reached`);
    peer = await startPeer();
  });

  test('a key source that recovers is read again after the cooldown and admits the token', async () => {
    peer.route('/jwks', (_req, res) => {
      res.writeHead(500).end();
    });
    // Long enough that the second request lands inside it on a loaded machine.
    const { handle } = guarded({ cooldownMs: 1_500 });
    const token = await mint(key);
    expect((await handle(whoami(URL_IN_PROCESS, token))).status).toBe(503);
    peer.route('/jwks', json(jwksOf(key)));
    expect((await handle(whoami(URL_IN_PROCESS, token))).status).toBe(503);
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    expect((await handle(whoami(URL_IN_PROCESS, token))).status).toBe(200);
    expect(peer.hits.get('/jwks')).toBe(2);
  });

  test('a same-origin redirect is followed to the key set', async () => {
    peer.route('/jwks', (_req, res) => {
      res.writeHead(301, { location: '/keys/current' }).end();
    });
    peer.route('/keys/current', json(jwksOf(key), 'application/jwk-set+json'));
    const { handle } = guarded();
    expect((await handle(whoami(URL_IN_PROCESS, await mint(key, goodClaims())))).status).toBe(200);
  });
});
